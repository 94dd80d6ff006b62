package store

// On-disk key layout. Every key starts with a one-byte prefix; ids are
// ASCII (a paper id is PaperIDLen hex digits, an entity id is
// "kind:slug" with a slug of [a-z0-9-] and other letters), so 0x00 never
// occurs inside an id and serves as a separator. Integers are big-endian
// and fixed width, so byte order is numeric order.
//
//	prefix | key fields (width)                       | value                      | serves
//	-------+------------------------------------------+----------------------------+------------------------------------------
//	0x00   | "version"                                | uint32 format version      | Open refuses newer formats
//	0x00   | "loading"                                | empty                      | only while a Loader writes; Open empties such a database
//	0x01   | paper id (16)                            | paper record (record.go)   | Paper, listing papers in id order
//	0x02   | entity id                                | entity record (JSON)       | Entity
//	0x03   | paper id (16)                            | entity ids (see below)     | entities of a paper (one point read)
//	0x04   | entity id | 0x00 | paper id (16)         | empty                      | papers of an entity (one prefix scan)
//	0x05   | entity id                                | uint64 paper count         | degree, exact, same txn as the edges
//	0x06   | kind (1) | ^degree (8) | entity id       | empty                      | top entities by degree per kind
//	0x07   | normalised name | 0x00 | entity id       | empty                      | name and alias lookup, prefix search
//	0x08   | entity id | 0x00 | broader entity id     | empty                      | taxonomy: parents
//	0x09   | entity id | 0x00 | narrower entity id    | empty                      | taxonomy: children
//	0x0A   | term | 0x00 | block (8)                  | postings block (see below) | full-text postings (BM25)
//	0x0B   | term                                     | uint64 document frequency  | BM25 idf without a postings scan
//	0x0C   | counter name                             | uint64                     | stats: papers, edges, entities per kind, total doc length, blocks
//	0x0D   | source | 0x00 | index (4)                | paper id                   | papers of a source file in order
//	0x0E   | paper id (16)                            | text record (see below)    | BM25 length normalisation, term frequency of one paper
//	0x0F   | entity id                                | entity id                  | corrections: an ingest links a merged entity or an alias to its target
//	0x10   | stemmed name | 0x00 | entity id          | empty                      | name and alias prefix search by stems ("agents" finds "agent")
//
// A paper's edges (0x03) are one value: its entity ids in byte order,
// each followed by 0x00. A key per edge cost as many memtable inserts as
// the papers of an entity (0x04), which must stay one key each to be paged.
//
// Full-text postings are grouped in blocks: each PutPapers transaction
// takes the next block number (counter "blocks") and writes one 0x0A key
// per distinct term of the papers it indexes, whose value lists those
// papers in the order they were written (nothing needs another, and
// sorting cost a tenth of an ingest), each as its 8-byte binary id then
// its uvarint term frequency. A key per (term, paper) cost ten times more
// memtable inserts than every other key of an ingest together. A paper's postings all live
// in the block recorded in its text record; when its text changes they
// are taken out of that block (rewritten, or deleted when empty) and
// written to the new one, so postings stay exact.
//
// Full-text terms (0x0A, 0x0B, 0x0E) are stems (text.go's stemmer), and
// so are the words of the stemmed names (0x10).
//
// A correction (0x0F) says that the entity with the key's id was merged
// into the value's, or that the key's id is the id of an alias of the
// value's (curation.go): PutPapers links what it would have linked to the
// first to the second. No entity record exists under a corrected id, and
// every correction's target exists.
//
// The text record (0x0E) of a paper is: uvarint block, uvarint document
// length, then each distinct term in byte order as uvarint length, term
// bytes, uvarint frequency.
//
// The prefix bytes are part of the on-disk format: never renumber them.
// Bump formatVersion when the meaning of any key or value changes.

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"

	"github.com/papergraph/papergraph/graph"
)

// formatVersion is the on-disk format this code writes and reads. Format
// 1 had a posting key per (term, paper), a bare document length at 0x0E
// and a key per edge at 0x03. Format 3 adds title mentions to paper
// records (text flags 2 and 3), which format 2 readers cannot decode.
// Format 4 stems the full-text terms and adds the stemmed name index
// (0x10) and corrections (0x0F): a format 3 database's unstemmed terms
// would never match a stemmed query.
const formatVersion uint32 = 4

// Key prefixes: part of the on-disk format, never renumber.
const (
	prefixMeta       byte = 0x00
	prefixPaper      byte = 0x01
	prefixEntity     byte = 0x02
	prefixPaperEdge  byte = 0x03
	prefixEntityEdge byte = 0x04
	prefixDegree     byte = 0x05
	prefixTop        byte = 0x06
	prefixName       byte = 0x07
	prefixBroader    byte = 0x08
	prefixNarrower   byte = 0x09
	prefixPosting    byte = 0x0A
	prefixDocFreq    byte = 0x0B
	prefixCounter    byte = 0x0C
	prefixSource     byte = 0x0D
	prefixText       byte = 0x0E
	prefixCorrection byte = 0x0F
	prefixStem       byte = 0x10
)

const sep byte = 0x00

// versionKey: 0x00 "version".
func versionKey() []byte { return append([]byte{prefixMeta}, "version"...) }

// loadingKey marks a database being loaded: 0x00 "loading".
func loadingKey() []byte { return append([]byte{prefixMeta}, "loading"...) }

// paperKey: 0x01 | paper id.
func paperKey(id string) []byte { return cat1(prefixPaper, id) }

// entityKey: 0x02 | entity id.
func entityKey(id string) []byte { return cat1(prefixEntity, id) }

// edgesKey: 0x03 | paper id (16 bytes).
func edgesKey(paperID string) []byte { return cat1(prefixPaperEdge, paperID) }

// appendEdges encodes entity ids, sorted, as an edges value.
func appendEdges(b []byte, ids []idKind) []byte {
	n := len(ids)
	for _, x := range ids {
		n += len(x.id)
	}
	b = slices.Grow(b, n)
	for _, x := range ids {
		b = append(b, x.id...)
		b = append(b, sep)
	}
	return b
}

// decodeEdges returns the entity ids of an edges value.
func decodeEdges(v []byte) ([]string, error) {
	var ids []string
	err := eachEdge(v, func(id []byte) { ids = append(ids, string(id)) })
	return ids, err
}

// eachEdge calls fn with each entity id of an edges value, in order; id
// is valid only during the call, so that a caller keeping few of them
// (papersSharing keeps those of its kinds) allocates only for those.
func eachEdge(v []byte, fn func(id []byte)) error {
	for len(v) > 0 {
		i := bytes.IndexByte(v, sep)
		if i <= 0 {
			return fmt.Errorf("bad edges value: empty or unterminated id")
		}
		fn(v[:i])
		v = v[i+1:]
	}
	return nil
}

// edgesHaveKind returns a function that reports whether an edges value
// holds an entity of kind k, without decoding it: an entity id starts with
// its kind's name and a colon.
func edgesHaveKind(k graph.Kind) func(v []byte) bool {
	want := []byte{sep}
	want = append(append(want, k.String()...), ':')
	return func(v []byte) bool { return bytes.HasPrefix(v, want[1:]) || bytes.Contains(v, want) }
}

// entityEdgeKey: 0x04 | entity id | 0x00 | paper id (16 bytes).
func entityEdgeKey(entityID, paperID string) []byte { return cat2(prefixEntityEdge, entityID, paperID) }

// entityEdgePrefix: 0x04 | entity id | 0x00; scans an entity's papers in
// paper id order.
func entityEdgePrefix(entityID string) []byte { return cat2(prefixEntityEdge, entityID, "") }

// appendEntityEdgePrefix appends entityEdgePrefix(entityID) to b: a load
// writes an entity's edges as that prefix followed by each paper id.
func appendEntityEdgePrefix(b []byte, entityID string) []byte {
	b = append(b, prefixEntityEdge)
	b = append(b, entityID...)
	return append(b, sep)
}

// parseEntityEdgeKey is the inverse of entityEdgeKey.
func parseEntityEdgeKey(k []byte) (entityID, paperID string, err error) {
	a, b, err := split2(prefixEntityEdge, k)
	if err != nil || len(b) != graph.PaperIDLen {
		return "", "", fmt.Errorf("bad entity edge key %q", k)
	}
	return a, b, nil
}

// degreeKey: 0x05 | entity id.
func degreeKey(entityID string) []byte { return cat1(prefixDegree, entityID) }

// topKey: 0x06 | kind (1 byte) | ^degree (8 bytes, big-endian) | entity id.
// Complementing the degree makes a forward scan return the highest degree
// first.
func topKey(kind graph.Kind, degree uint64, entityID string) []byte {
	k := make([]byte, 0, 10+len(entityID))
	k = append(k, prefixTop, byte(kind))
	k = binary.BigEndian.AppendUint64(k, ^degree)
	return append(k, entityID...)
}

// topPrefix: 0x06 | kind; scans a kind's entities by falling degree.
func topPrefix(kind graph.Kind) []byte { return []byte{prefixTop, byte(kind)} }

// parseTopKey is the inverse of topKey.
func parseTopKey(k []byte) (kind graph.Kind, degree uint64, entityID string, err error) {
	if len(k) < 11 || k[0] != prefixTop {
		return 0, 0, "", fmt.Errorf("bad top key %q", k)
	}
	return graph.Kind(k[1]), ^binary.BigEndian.Uint64(k[2:10]), string(k[10:]), nil
}

// nameKey: 0x07 | normalised name | 0x00 | entity id.
func nameKey(norm, entityID string) []byte { return cat2(prefixName, norm, entityID) }

// namePrefix: 0x07 | normalised prefix; without the separator, so it serves
// prefix search as well as exact lookup (append 0x00 for exact).
func namePrefix(norm string) []byte { return cat1(prefixName, norm) }

// parseNameKey is the inverse of nameKey.
func parseNameKey(k []byte) (norm, entityID string, err error) { return split2(prefixName, k) }

// nameExactPrefix: 0x07 | normalised name | 0x00; scans the entities of
// exactly that name.
func nameExactPrefix(norm string) []byte { return cat2(prefixName, norm, "") }

// stemKey: 0x10 | stemmed name | 0x00 | entity id.
func stemKey(stem, entityID string) []byte { return cat2(prefixStem, stem, entityID) }

// stemPrefix: 0x10 | stemmed prefix; without the separator, as namePrefix.
func stemPrefix(stem string) []byte { return cat1(prefixStem, stem) }

// parseStemKey is the inverse of stemKey.
func parseStemKey(k []byte) (stem, entityID string, err error) { return split2(prefixStem, k) }

// correctionKey: 0x0F | entity id; parseIDKey is its inverse.
func correctionKey(entityID string) []byte { return cat1(prefixCorrection, entityID) }

// broaderKey: 0x08 | entity id | 0x00 | broader entity id.
func broaderKey(child, parent string) []byte { return taxonomyKey(prefixBroader, child, parent) }

// narrowerKey: 0x09 | entity id | 0x00 | narrower entity id.
func narrowerKey(parent, child string) []byte { return taxonomyKey(prefixNarrower, parent, child) }

// taxonomyKey is broaderKey for prefix 0x08 and narrowerKey for 0x09.
func taxonomyKey(prefix byte, from, to string) []byte { return cat2(prefix, from, to) }

// taxonomyPrefix: 0x08 or 0x09 | entity id | 0x00; scans an entity's
// parents or children, each the taxonomyTarget of a key.
func taxonomyPrefix(prefix byte, id string) []byte { return cat2(prefix, id, "") }

// taxonomyTarget returns the entity id that follows p, a taxonomyPrefix,
// in k, a key it scanned: one allocation, where parseTaxonomyKey makes two.
func taxonomyTarget(p, k []byte) string { return string(k[len(p):]) }

// parseTaxonomyKey is the inverse of broaderKey and narrowerKey; prefix
// says which.
func parseTaxonomyKey(prefix byte, k []byte) (from, to string, err error) { return split2(prefix, k) }

// postingKey: 0x0A | term | 0x00 | block (8 bytes, big-endian).
func postingKey(term string, block uint64) []byte {
	return binary.BigEndian.AppendUint64(cat2(prefixPosting, term, ""), block)
}

// postingPrefix: 0x0A | term | 0x00; scans a term's blocks.
func postingPrefix(term string) []byte { return cat2(prefixPosting, term, "") }

// parsePostingKey is the inverse of postingKey.
func parsePostingKey(k []byte) (term string, block uint64, err error) {
	a, b, err := split2(prefixPosting, k)
	if err != nil || len(b) != 8 {
		return "", 0, fmt.Errorf("bad posting key %q", k)
	}
	return a, binary.BigEndian.Uint64([]byte(b)), nil
}

// A posting is one paper of a postings block.
type posting struct {
	id paperKeyID
	tf uint32
}

// appendPostings encodes ps as a postings block value.
// postingsSize bounds the size of n postings, encoded.
func postingsSize(n int) int { return n * (graph.PaperIDLen/2 + binary.MaxVarintLen32) }

func appendPostings(b []byte, ps []posting) []byte {
	for _, p := range ps {
		var raw [graph.PaperIDLen / 2]byte
		hex.Decode(raw[:], p.id[:])
		b = append(b, raw[:]...)
		b = binary.AppendUvarint(b, uint64(p.tf))
	}
	return b
}

// decodePostings calls fn with each posting of a block value until fn
// returns false.
func decodePostings(v []byte, fn func(posting) bool) error {
	for len(v) > 0 {
		if len(v) < graph.PaperIDLen/2+1 {
			return fmt.Errorf("bad postings block: %d trailing bytes", len(v))
		}
		var p posting
		hex.Encode(p.id[:], v[:graph.PaperIDLen/2])
		tf, n := binary.Uvarint(v[graph.PaperIDLen/2:])
		if n <= 0 || tf == 0 || tf > math.MaxUint32 {
			return fmt.Errorf("bad postings block: bad frequency")
		}
		p.tf = uint32(tf)
		v = v[graph.PaperIDLen/2+n:]
		if !fn(p) {
			return nil
		}
	}
	return nil
}

// textRecord is the decoded value of 0x0E: a paper's postings block,
// document length and term frequencies.
type textRecord struct {
	block  uint64
	length uint64
	terms  []termTF // in byte order of the terms
}

func (r *textRecord) append(b []byte) []byte {
	return r.appendTerms(binary.AppendUvarint(b, r.block))
}

// appendTerms appends the record that follows the block: what a Loader
// encodes before the block is known.
func (r *textRecord) appendTerms(b []byte) []byte {
	b = binary.AppendUvarint(b, r.length)
	for _, x := range r.terms {
		b = binary.AppendUvarint(b, uint64(len(x.t)))
		b = append(b, x.t...)
		b = binary.AppendUvarint(b, uint64(x.tf))
	}
	return b
}

func decodeTextRecord(v []byte) (textRecord, error) {
	var r textRecord
	var err error
	r.block, r.length, err = scanTextRecord(v, func(t []byte, tf uint32) {
		r.terms = append(r.terms, termTF{string(t), tf})
	})
	return r, err
}

// scanTextRecord returns the block and document length of a text record
// and calls fn with each term, in a buffer fn must not keep, and its
// frequency: a search reads a few terms of hundreds of records, and
// decoding all of them cost most of its allocations.
func scanTextRecord(v []byte, fn func(term []byte, tf uint32)) (block, length uint64, err error) {
	uvarint := func() (uint64, bool) {
		x, n := binary.Uvarint(v)
		if n <= 0 {
			return 0, false
		}
		v = v[n:]
		return x, true
	}
	var ok bool
	if block, ok = uvarint(); !ok {
		return 0, 0, fmt.Errorf("bad text record: no block")
	}
	if length, ok = uvarint(); !ok {
		return 0, 0, fmt.Errorf("bad text record: no length")
	}
	var last []byte
	for len(v) > 0 {
		n, ok := uvarint()
		if !ok || n > uint64(len(v)) {
			return 0, 0, fmt.Errorf("bad text record: bad term length")
		}
		t := v[:n]
		v = v[n:]
		tf, ok := uvarint()
		if !ok || tf == 0 || tf > math.MaxUint32 {
			return 0, 0, fmt.Errorf("bad text record: bad frequency of %q", t)
		}
		if last != nil && bytes.Compare(last, t) >= 0 {
			return 0, 0, fmt.Errorf("bad text record: terms out of order at %q", t)
		}
		last = t
		fn(t, uint32(tf))
	}
	return block, length, nil
}

// docFreqKey: 0x0B | term.
func docFreqKey(term string) []byte { return cat1(prefixDocFreq, term) }

// counterKey: 0x0C | counter name.
func counterKey(name string) []byte { return cat1(prefixCounter, name) }

// sourceKey: 0x0D | source | 0x00 | index (4 bytes, big-endian).
func sourceKey(source string, index int) []byte {
	k := cat2(prefixSource, source, "")
	return binary.BigEndian.AppendUint32(k, uint32(index))
}

// parseSourceKey is the inverse of sourceKey.
func parseSourceKey(k []byte) (source string, index int, err error) {
	i := bytes.IndexByte(k, sep)
	if len(k) < 1 || k[0] != prefixSource || i < 0 || len(k) != i+5 {
		return "", 0, fmt.Errorf("bad source key %q", k)
	}
	return string(k[1:i]), int(binary.BigEndian.Uint32(k[i+1:])), nil
}

// sourcePrefix: 0x0D | source | 0x00; scans a source's papers in index
// order.
func sourcePrefix(source string) []byte { return cat2(prefixSource, source, "") }

// textKey: 0x0E | paper id.
func textKey(paperID string) []byte { return cat1(prefixText, paperID) }

// allKeys is the scan prefix of every key under prefix: what check, Walk
// and the unfiltered listings scan.
func allKeys(prefix byte) []byte { return []byte{prefix} }

// keyPrefix returns the prefix byte of k, or 0xFF, which no key has, for
// an empty k. It takes a key as bytes or as a map's string.
func keyPrefix[K string | []byte](k K) byte {
	if len(k) == 0 {
		return 0xFF
	}
	return k[0]
}

// parseIDKey is the inverse of the keys made of a prefix and one id or
// term (paperKey, entityKey, edgesKey, degreeKey, docFreqKey, counterKey,
// textKey, correctionKey): what follows the prefix byte.
func parseIDKey(k []byte) string {
	if len(k) == 0 {
		return ""
	}
	return string(k[1:])
}

// keyPaperID returns the paper id that ends k, a paperKey, edgesKey,
// entityEdgeKey or textKey, without copying it.
func keyPaperID(k []byte) []byte { return k[len(k)-graph.PaperIDLen:] }

func cat1(prefix byte, a string) []byte {
	k := make([]byte, 0, 1+len(a))
	k = append(k, prefix)
	return append(k, a...)
}

func cat2(prefix byte, a, b string) []byte {
	k := make([]byte, 0, 2+len(a)+len(b))
	k = append(k, prefix)
	k = append(k, a...)
	k = append(k, sep)
	return append(k, b...)
}

func split2(prefix byte, k []byte) (a, b string, err error) {
	if len(k) < 2 || k[0] != prefix {
		return "", "", fmt.Errorf("bad key %q: want prefix %#x", k, prefix)
	}
	i := bytes.IndexByte(k[1:], sep)
	if i < 0 {
		return "", "", fmt.Errorf("bad key %q: no separator", k)
	}
	return string(k[1 : 1+i]), string(k[2+i:]), nil
}

// paperKeyID is a paper id as a map key that costs no allocation.
type paperKeyID [graph.PaperIDLen]byte

// Counter names under 0x0C.
const (
	counterPapers = "papers"
	counterEdges  = "edges"
	counterDocLen = "doclen" // total document length, for BM25's average
	counterBlocks = "blocks" // the last postings block number (0x0A)
)

// entitiesCounter names the counter of entities of kind k.
func entitiesCounter(k graph.Kind) string { return "entities:" + k.String() }
