package graph

// On-disk key layout. Every key starts with a one-byte prefix; ids are
// ASCII (a paper id is PaperIDLen hex digits, an entity id is
// "kind:slug" with a slug of [a-z0-9-] and other letters), so 0x00 never
// occurs inside an id and serves as a separator. Integers are big-endian
// and fixed width, so byte order is numeric order.
//
//	prefix | key fields (width)                       | value                      | serves
//	-------+------------------------------------------+----------------------------+------------------------------------------
//	0x00   | "version"                                | uint32 format version      | Open refuses newer formats
//	0x01   | paper id (16)                            | paper record (JSON)        | Paper, listing papers in id order
//	0x02   | entity id                                | entity record (JSON)       | Entity
//	0x03   | paper id (16) | entity id                | empty                      | entities of a paper (one prefix scan)
//	0x04   | entity id | 0x00 | paper id (16)         | empty                      | papers of an entity (one prefix scan)
//	0x05   | entity id                                | uint64 paper count         | degree, exact, same txn as the edges
//	0x06   | kind (1) | ^degree (8) | entity id       | empty                      | top entities by degree per kind
//	0x07   | normalised name | 0x00 | entity id       | empty                      | name and alias lookup, prefix search
//	0x08   | entity id | 0x00 | broader entity id     | empty                      | taxonomy: parents
//	0x09   | entity id | 0x00 | narrower entity id    | empty                      | taxonomy: children
//	0x0A   | term | 0x00 | paper id (16)              | uint32 term frequency      | full-text postings (BM25)
//	0x0B   | term                                     | uint64 document frequency  | BM25 idf without a postings scan
//	0x0C   | counter name                             | uint64                     | stats: papers, edges, entities per kind, total doc length
//	0x0D   | source | 0x00 | index (4)                | paper id                   | papers of a source file in order
//	0x0E   | paper id (16)                            | uint32 document length     | BM25 length normalisation
//
// The prefix bytes are part of the on-disk format: never renumber them.
// Bump formatVersion when the meaning of any key or value changes.

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// formatVersion is the on-disk format this code writes and reads.
const formatVersion uint32 = 1

// Key prefixes: part of the on-disk format, never renumber.
const (
	prefixMeta      byte = 0x00
	prefixPaper     byte = 0x01
	prefixEntity    byte = 0x02
	prefixPaperEdge byte = 0x03
	prefixEntityEdg byte = 0x04
	prefixDegree    byte = 0x05
	prefixTop       byte = 0x06
	prefixName      byte = 0x07
	prefixBroader   byte = 0x08
	prefixNarrower  byte = 0x09
	prefixPosting   byte = 0x0A
	prefixDocFreq   byte = 0x0B
	prefixCounter   byte = 0x0C
	prefixSource    byte = 0x0D
	prefixDocLen    byte = 0x0E
)

const sep byte = 0x00

// versionKey: 0x00 "version".
func versionKey() []byte { return append([]byte{prefixMeta}, "version"...) }

// paperKey: 0x01 | paper id.
func paperKey(id string) []byte { return cat1(prefixPaper, id) }

// entityKey: 0x02 | entity id.
func entityKey(id string) []byte { return cat1(prefixEntity, id) }

// paperEdgeKey: 0x03 | paper id (16 bytes, fixed) | entity id.
func paperEdgeKey(paperID, entityID string) []byte {
	k := make([]byte, 0, 1+len(paperID)+len(entityID))
	k = append(k, prefixPaperEdge)
	k = append(k, paperID...)
	return append(k, entityID...)
}

// paperEdgePrefix: 0x03 | paper id; scans a paper's entities.
func paperEdgePrefix(paperID string) []byte { return cat1(prefixPaperEdge, paperID) }

// parsePaperEdgeKey is the inverse of paperEdgeKey.
func parsePaperEdgeKey(k []byte) (paperID, entityID string, err error) {
	if len(k) < 1+PaperIDLen+1 || k[0] != prefixPaperEdge {
		return "", "", fmt.Errorf("bad paper edge key %q", k)
	}
	return string(k[1 : 1+PaperIDLen]), string(k[1+PaperIDLen:]), nil
}

// entityEdgeKey: 0x04 | entity id | 0x00 | paper id (16 bytes).
func entityEdgeKey(entityID, paperID string) []byte { return cat2(prefixEntityEdg, entityID, paperID) }

// entityEdgePrefix: 0x04 | entity id | 0x00; scans an entity's papers in
// paper id order.
func entityEdgePrefix(entityID string) []byte { return cat2(prefixEntityEdg, entityID, "") }

// parseEntityEdgeKey is the inverse of entityEdgeKey.
func parseEntityEdgeKey(k []byte) (entityID, paperID string, err error) {
	a, b, err := split2(prefixEntityEdg, k)
	if err != nil || len(b) != PaperIDLen {
		return "", "", fmt.Errorf("bad entity edge key %q", k)
	}
	return a, b, nil
}

// degreeKey: 0x05 | entity id.
func degreeKey(entityID string) []byte { return cat1(prefixDegree, entityID) }

// topKey: 0x06 | kind (1 byte) | ^degree (8 bytes, big-endian) | entity id.
// Complementing the degree makes a forward scan return the highest degree
// first.
func topKey(kind Kind, degree uint64, entityID string) []byte {
	k := make([]byte, 0, 10+len(entityID))
	k = append(k, prefixTop, byte(kind))
	k = binary.BigEndian.AppendUint64(k, ^degree)
	return append(k, entityID...)
}

// topPrefix: 0x06 | kind; scans a kind's entities by falling degree.
func topPrefix(kind Kind) []byte { return []byte{prefixTop, byte(kind)} }

// parseTopKey is the inverse of topKey.
func parseTopKey(k []byte) (kind Kind, degree uint64, entityID string, err error) {
	if len(k) < 11 || k[0] != prefixTop {
		return 0, 0, "", fmt.Errorf("bad top key %q", k)
	}
	return Kind(k[1]), ^binary.BigEndian.Uint64(k[2:10]), string(k[10:]), nil
}

// nameKey: 0x07 | normalised name | 0x00 | entity id.
func nameKey(norm, entityID string) []byte { return cat2(prefixName, norm, entityID) }

// namePrefix: 0x07 | normalised prefix; without the separator, so it serves
// prefix search as well as exact lookup (append 0x00 for exact).
func namePrefix(norm string) []byte { return cat1(prefixName, norm) }

// parseNameKey is the inverse of nameKey.
func parseNameKey(k []byte) (norm, entityID string, err error) { return split2(prefixName, k) }

// broaderKey: 0x08 | entity id | 0x00 | broader entity id.
func broaderKey(child, parent string) []byte { return cat2(prefixBroader, child, parent) }

// narrowerKey: 0x09 | entity id | 0x00 | narrower entity id.
func narrowerKey(parent, child string) []byte { return cat2(prefixNarrower, parent, child) }

// parseTaxonomyKey is the inverse of broaderKey and narrowerKey; prefix
// says which.
func parseTaxonomyKey(prefix byte, k []byte) (from, to string, err error) { return split2(prefix, k) }

// postingKey: 0x0A | term | 0x00 | paper id (16 bytes).
func postingKey(term, paperID string) []byte { return cat2(prefixPosting, term, paperID) }

// parsePostingKey is the inverse of postingKey.
func parsePostingKey(k []byte) (term, paperID string, err error) {
	a, b, err := split2(prefixPosting, k)
	if err != nil || len(b) != PaperIDLen {
		return "", "", fmt.Errorf("bad posting key %q", k)
	}
	return a, b, nil
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

// docLenKey: 0x0E | paper id.
func docLenKey(paperID string) []byte { return cat1(prefixDocLen, paperID) }

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
