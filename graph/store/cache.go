package store

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// readCache keeps in memory what traversals read most from Badger: paper
// records (0x01) and edges (0x03) as stored, prefixes of entities' posting
// lists (0x04), and entity records (0x02) decoded with their degree. A point read costs about 10µs at 100k papers and a
// seek 35µs, against well under 1µs for a map lookup, and a papersSharing
// query makes dozens of each; the same hubs and popular papers come back
// in query after query.
//
// The cache holds the database as of the last write and serves only read
// transactions that see exactly that: while PutPapers (or a Loader) runs
// it is emptied and unused, and when it returns it is emptied again and serves
// transactions whose read timestamp is at least validTs, the timestamp of
// a transaction opened after the last commit. A transaction opened
// earlier neither reads nor fills it, so no traversal mixes two states of
// the database. Badger's directory lock makes this process the only
// writer, so no write escapes it.
//
// Each map is bounded in bytes; past its bound, entries are dropped in
// Go's map iteration order, which is random enough for a cache whose
// entries cost about the same to read back.
type readCache struct {
	mu       sync.RWMutex
	writing  bool
	validTs  uint64
	records  cacheMap[paperKeyID, []byte]
	edges    cacheMap[paperKeyID, []byte]
	postings cacheMap[string, cachedPostings]
	entities cacheMap[string, graph.Entity] // PaperCount filled, Narrower not
}

// Bounds of the read cache, about 370 MiB in all: at 100k papers
// everything traversals read fits.
const (
	cacheRecordBytes   = 256 << 20
	cacheEdgeBytes     = 32 << 20
	cachePostingBytes  = 64 << 20
	cacheEntityBytes   = 16 << 20
	cacheMaxPostings   = 1 << 16 // postings kept of one entity
	cacheEntryOverhead = 64      // map slot, key and slice header, roughly
)

// cachedPostings is the first papers of an entity (0x04) in id order, or all
// of them when complete.
type cachedPostings struct {
	ids      []paperKeyID
	complete bool
}

type cacheMap[K comparable, V any] struct {
	m           map[K]V
	bytes, keep int
}

func newReadCache() *readCache {
	return &readCache{
		records:  cacheMap[paperKeyID, []byte]{m: make(map[paperKeyID][]byte), keep: cacheRecordBytes},
		edges:    cacheMap[paperKeyID, []byte]{m: make(map[paperKeyID][]byte), keep: cacheEdgeBytes},
		postings: cacheMap[string, cachedPostings]{m: make(map[string]cachedPostings), keep: cachePostingBytes},
		entities: cacheMap[string, graph.Entity]{m: make(map[string]graph.Entity), keep: cacheEntityBytes},
	}
}

// put adds v, of size n bytes, dropping entries first if the map is full.
func (m *cacheMap[K, V]) put(k K, v V, n int, size func(V) int) {
	if n > m.keep/8 {
		return
	}
	if old, ok := m.m[k]; ok {
		m.bytes -= size(old)
		delete(m.m, k)
	}
	for k2, v2 := range m.m {
		if m.bytes+n <= m.keep {
			break
		}
		m.bytes -= size(v2)
		delete(m.m, k2)
	}
	m.m[k] = v
	m.bytes += n
}

func (m *cacheMap[K, V]) clear() {
	clear(m.m)
	m.bytes = 0
}

func bytesSize(v []byte) int                     { return len(v) + cacheEntryOverhead }
func prefixSize(p cachedPostings) int            { return len(p.ids)*graph.PaperIDLen + cacheEntryOverhead }
func (c *readCache) serves(txn *badger.Txn) bool { return !c.writing && txn.ReadTs() >= c.validTs }

// beginWrite empties the cache and stops its use until endWrite.
func (c *readCache) beginWrite() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writing = true
	c.clearAll()
}

// endWrite empties the cache and lets transactions opened from now on use
// it: their read timestamp is at least that of one opened here, after the
// last commit.
func (c *readCache) endWrite(db *badger.DB) {
	if c == nil {
		return
	}
	txn := db.NewTransaction(false)
	ts := txn.ReadTs()
	txn.Discard()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writing = false
	c.validTs = ts
	c.clearAll()
}

func (c *readCache) clearAll() {
	c.records.clear()
	c.edges.clear()
	c.postings.clear()
	c.entities.clear()
}

// cacheGet returns m's entry for k while c serves txn; a nil c holds
// nothing.
func cacheGet[K comparable, V any](c *readCache, txn *badger.Txn, m *cacheMap[K, V], k K) (v V, ok bool) {
	if c == nil {
		return v, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.serves(txn) {
		v, ok = m.m[k]
	}
	return v, ok
}

// cachePut keeps v, read in txn, in m under k if c still serves txn: a
// write begun since retires it (see readCache).
func cachePut[K comparable, V any](c *readCache, txn *badger.Txn, m *cacheMap[K, V], k K, v V, size func(V) int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.serves(txn) {
		m.put(k, v, size(v), size)
	}
}

// paperValue returns the value of key(pid), paper pid's record or edges as m
// holds them, reading and keeping it on a miss. ok is false when there is
// no such key. The value must not be modified. A nil c reads Badger.
func (c *readCache) paperValue(txn *badger.Txn, m *cacheMap[paperKeyID, []byte], key func(pid string) []byte, pid string) (v []byte, ok bool, err error) {
	var k paperKeyID
	cacheable := copy(k[:], pid) == graph.PaperIDLen
	if cacheable {
		if v, ok = cacheGet(c, txn, m, k); ok {
			return v, true, nil
		}
	}
	// The key is built only now: a cached value costs no allocation.
	item, err := txn.Get(key(pid))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if v, err = item.ValueCopy(nil); err != nil {
		return nil, false, err
	}
	if cacheable {
		cachePut(c, txn, m, k, v, bytesSize)
	}
	return v, true, nil
}

// record returns paper pid's record (0x01).
func (c *readCache) record(txn *badger.Txn, pid string) ([]byte, bool, error) {
	var m *cacheMap[paperKeyID, []byte]
	if c != nil {
		m = &c.records
	}
	return c.paperValue(txn, m, paperKey, pid)
}

// edges returns paper pid's edges value (0x03), empty when it has none.
func (c *readCache) edgesOf(txn *badger.Txn, pid string) ([]byte, error) {
	var m *cacheMap[paperKeyID, []byte]
	if c != nil {
		m = &c.edges
	}
	v, ok, err := c.paperValue(txn, m, edgesKey, pid)
	if err == nil && !ok && c != nil {
		// A paper without edges is cached as an empty value; the next
		// query finds it without a Get.
		var k paperKeyID
		if copy(k[:], pid) == graph.PaperIDLen {
			cachePut(c, txn, m, k, []byte{}, bytesSize)
		}
	}
	return v, err
}

// eachPosting calls fn with the papers of entity eid (0x04) in id order
// until fn returns false: from the cache as far as it holds them, then
// from sc, keeping what it read for the next call.
func (sc *keyScanner) eachPosting(eid string, fn func(pid paperKeyID) bool) error {
	c := sc.cache
	var cached cachedPostings
	if c != nil {
		cached, _ = cacheGet(c, sc.txn, &c.postings, eid)
	}
	for _, pid := range cached.ids {
		if !fn(pid) {
			return nil
		}
	}
	if cached.complete {
		return nil
	}
	p := entityEdgePrefix(eid)
	var start []byte
	if n := len(cached.ids); n > 0 {
		// The least key after the last cached posting.
		start = append(append(slices.Clip(p), cached.ids[n-1][:]...), 0)
	}
	// Clipped, so that appending never writes into the cached array.
	read := slices.Clip(cached.ids)
	complete := true
	var bad []byte
	sc.scan(p, start, func(k []byte, _ *badger.Item) bool {
		var pid paperKeyID
		if len(k) != len(p)+graph.PaperIDLen {
			bad = slices.Clone(k)
			return false
		}
		copy(pid[:], keyPaperID(k))
		if len(read) < cacheMaxPostings {
			read = append(read, pid)
		}
		if !fn(pid) {
			complete = false
			return false
		}
		return true
	})
	if bad != nil {
		return fmt.Errorf("bad entity edge key %q", bad)
	}
	if len(read) == cacheMaxPostings {
		complete = false
	}
	if c != nil && (len(read) > len(cached.ids) || complete) {
		cachePut(c, sc.txn, &c.postings, eid, cachedPostings{read, complete}, prefixSize)
	}
	return nil
}

// serving reports whether the cache serves txn.
func (c *readCache) serving(txn *badger.Txn) bool {
	if c == nil {
		return false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.serves(txn)
}

// allPostings returns all the papers of entity eid in id order. The slice
// may be the cache's: it must not be modified.
func (sc *keyScanner) allPostings(eid string) ([]paperKeyID, error) {
	if c := sc.cache; c != nil {
		if cached, _ := cacheGet(c, sc.txn, &c.postings, eid); cached.complete {
			return cached.ids, nil
		}
	}
	var ids []paperKeyID
	err := sc.eachPosting(eid, func(pid paperKeyID) bool { ids = append(ids, pid); return true })
	return ids, err
}

// entitySize estimates the memory an entity record holds.
func entitySize(e graph.Entity) int {
	n := len(e.Name) + cacheEntryOverhead
	for _, list := range [][]string{e.Aliases, e.Broader} {
		for _, a := range list {
			n += len(a) + 16
		}
	}
	return n
}

// entity returns entity id's record as readEntity does, from the cache
// when it holds it. The Aliases and Broader it returns may be the cache's:
// they must not be modified (appending copies them). A nil c reads Badger.
func (c *readCache) entity(txn *badger.Txn, id string) (graph.Entity, error) {
	if c == nil {
		return readEntity(txn, id)
	}
	if e, ok := cacheGet(c, txn, &c.entities, id); ok {
		return e, nil
	}
	e, err := readEntity(txn, id)
	if err != nil {
		return e, err
	}
	e.Aliases, e.Broader = slices.Clip(e.Aliases), slices.Clip(e.Broader)
	cachePut(c, txn, &c.entities, id, e, entitySize)
	return e, nil
}

// entityCopy is entity for a record handed to the store's callers, who
// own what they get: its Aliases and Broader are copies.
func (c *readCache) entityCopy(txn *badger.Txn, id string) (graph.Entity, error) {
	e, err := c.entity(txn, id)
	if c != nil {
		e.Aliases, e.Broader = slices.Clone(e.Aliases), slices.Clone(e.Broader)
	}
	return e, err
}

// degree returns the paper count of entity id: from its cached record,
// read into the cache if need be, while the cache serves txn; else by a
// point read of its counter (0x05), cheaper than the record.
func (c *readCache) degree(txn *badger.Txn, id string) (uint64, error) {
	if !c.serving(txn) {
		return getUint64(txn, degreeKey(id))
	}
	e, err := c.entity(txn, id)
	if errors.Is(err, graph.ErrNotFound) {
		return 0, nil
	}
	return uint64(e.PaperCount), err
}
