package store

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"

	"github.com/papergraph/papergraph/graph"
)

// A cursor is the base64url encoding (no padding) of the last key a page
// returned: resuming is one Seek past it. Cursors are opaque to clients
// but not secret; decodeCursor checks that a cursor has the shape the
// listing expects, so a cursor from another listing or a forged one fails
// with ErrBadCursor instead of resuming somewhere arbitrary.

func encodeCursor(key []byte) string { return base64.RawURLEncoding.EncodeToString(key) }

// decodeCursor returns the key in cursor c, which must start with prefix
// and be at least minLen bytes long. The empty cursor decodes to nil: start
// at the beginning.
func decodeCursor(c string, prefix []byte, minLen int) ([]byte, error) {
	if c == "" {
		return nil, nil
	}
	k, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !bytes.HasPrefix(k, prefix) || len(k) < minLen || len(k) <= len(prefix) {
		return nil, fmt.Errorf("%w: %q", graph.ErrBadCursor, c)
	}
	return k, nil
}

// rankCursorTag starts a rank cursor. It is not a key prefix of keys.go, so
// a rank cursor is never mistaken for a key cursor.
const rankCursorTag = 0xFF

// rankCursor encodes the rank offset of the next result of a ranked listing
// for query (the listing's query and filters), with a hash of the query so
// that a cursor from another query is rejected.
func rankCursor(query string, offset int) string {
	k := []byte{rankCursorTag}
	k = binary.BigEndian.AppendUint32(k, queryHash(query))
	k = binary.BigEndian.AppendUint32(k, uint32(offset))
	return encodeCursor(k)
}

// decodeRankCursor is the inverse of rankCursor; the empty cursor is
// offset 0.
func decodeRankCursor(c, query string) (int, error) {
	if c == "" {
		return 0, nil
	}
	k, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(k) != 9 || k[0] != rankCursorTag || binary.BigEndian.Uint32(k[1:5]) != queryHash(query) {
		return 0, fmt.Errorf("%w: %q", graph.ErrBadCursor, c)
	}
	return int(binary.BigEndian.Uint32(k[5:])), nil
}

func queryHash(q string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(q))
	return h.Sum32()
}
