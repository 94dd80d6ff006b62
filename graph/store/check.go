package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// maxViolations caps the list Check returns: a database broken
// everywhere would otherwise return one line per key.
const maxViolations = 1000

// Check verifies the invariants of the database and returns every
// violation found, one line each, in a stable order (empty when
// consistent; at most maxViolations lines, the last saying how many more
// there were). It reads everything in one snapshot:
//
//   - every paper-entity edge has both directions (0x03 and 0x04) and
//     joins an existing paper and entity;
//   - the entity references in each paper record equal its edges;
//   - every degree (0x05) equals the entity's edge count, every
//     top-by-degree key (0x06) agrees with it, and each entity with
//     papers has exactly one;
//   - broader and narrower edges (0x08, 0x09) are symmetric and join
//     existing entities;
//   - the counters (0x0C) equal what they count;
//   - postings blocks (0x0A), document frequencies (0x0B) and text
//     records (0x0E) agree with each other and with the papers' text, and
//     each posting is in the block its paper's text record names;
//   - the source index (0x0D) points to existing papers;
//   - every name index key (0x07, 0x10) points to an existing entity;
//   - no entity exists under a corrected id (0x0F), and every correction
//     resolves to an existing entity.
//
// Memory grows with the number of papers (a few words each), not with the
// number of keys.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	c := checker{ctx: ctx}
	err := s.view(ctx, func(txn *badger.Txn) error {
		c.txn = txn
		for _, step := range []func() error{
			c.version, c.paperRecords, c.entityRecords, c.paperEdges, c.entityEdges,
			c.degrees, c.tops, c.taxonomy, c.postings, c.sources, c.names, c.corrections, c.counters,
		} {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if c.extra > 0 {
		c.out = append(c.out, fmt.Sprintf("... and %d more violations", c.extra))
	}
	return c.out, nil
}

type checker struct {
	ctx   context.Context
	txn   *badger.Txn
	out   []string
	extra int

	papers, edges, docLen uint64
	entities              map[graph.Kind]uint64
	// per paper: unique terms and document length from its text, checked
	// against its postings.
	text map[string]paperTerms
}

type paperTerms struct{ unique, length, block, postings, tf uint64 }

func (c *checker) add(format string, args ...any) {
	if len(c.out) < maxViolations {
		c.out = append(c.out, fmt.Sprintf(format, args...))
		return
	}
	c.extra++
}

// exists reports whether key is present.
func (c *checker) exists(key []byte) (bool, error) {
	_, err := c.txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// scan calls fn with every key and value under prefix; both are valid
// only during the call.
func (c *checker) scan(prefix []byte, fn func(k, v []byte) error) error {
	it := c.txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: true, PrefetchSize: 100})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		item := it.Item()
		err := item.Value(func(v []byte) error { return fn(item.Key(), v) })
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) version() error {
	v, err := getValue(c.txn, versionKey())
	switch {
	case errors.Is(err, badger.ErrKeyNotFound):
		c.add("format version key missing")
	case err != nil:
		return err
	case len(v) != 4 || binary.BigEndian.Uint32(v) != formatVersion:
		c.add("format version %x, want %d", v, formatVersion)
	}
	return nil
}

// paperRecords checks each paper record against its edges and computes what its
// postings must be.
func (c *checker) paperRecords() error {
	c.text = make(map[string]paperTerms)
	return c.scan(allKeys(prefixPaper), func(k, v []byte) error {
		id := parseIDKey(k)
		c.papers++
		if !graph.IsPaperID(id) {
			c.add("paper %q: malformed id", id)
		}
		var p graph.Paper
		if err := decodePaperRecord(v, &p); err != nil {
			c.add("paper %s: undecodable record: %v", id, err)
			return nil
		}
		if p.ID != id {
			c.add("paper %s: record has id %q", id, p.ID)
		}
		var want []string
		for _, e := range p.Entities {
			want = append(want, e.ID())
		}
		slices.Sort(want)
		got, err := paperEdges(c.txn, nil, id)
		if err != nil {
			c.add("%v", err)
		} else if !slices.Equal(got, want) {
			c.add("paper %s: record lists entities %v, edges are %v", id, want, got)
		}
		tf, n := termFreqs(&p)
		pt := paperTerms{unique: uint64(len(tf)), length: uint64(n)}
		c.docLen += uint64(n)
		tv, err := getValue(c.txn, textKey(id))
		switch {
		case errors.Is(err, badger.ErrKeyNotFound):
			c.add("paper %s: text record missing", id)
		case err != nil:
			return err
		default:
			r, err := decodeTextRecord(tv)
			if err != nil {
				c.add("paper %s: %v", id, err)
				break
			}
			pt.block = r.block
			if r.length != uint64(n) || len(r.terms) != len(tf) {
				c.add("paper %s: text record has %d terms, %d distinct; text has %d, %d distinct", id, r.length, len(r.terms), n, len(tf))
				break
			}
			for _, x := range r.terms {
				if tf[x.t] != x.tf {
					c.add("paper %s: text record has %q %d times, text %d", id, x.t, x.tf, tf[x.t])
					break
				}
			}
		}
		c.text[id] = pt
		return nil
	})
}

func (c *checker) entityRecords() error {
	c.entities = make(map[graph.Kind]uint64)
	return c.scan(allKeys(prefixEntity), func(k, v []byte) error {
		id := parseIDKey(k)
		kind, _, err := graph.ParseEntityID(id)
		if err != nil {
			c.add("entity %q: malformed id", id)
			return nil
		}
		c.entities[kind]++
		var e graph.Entity
		if err := json.Unmarshal(v, &e); err != nil {
			c.add("entity %s: undecodable record: %v", id, err)
			return nil
		}
		if e.ID() != id {
			c.add("entity %s: record is %s", id, e.ID())
		}
		return nil
	})
}

func (c *checker) paperEdges() error {
	return c.scan(allKeys(prefixPaperEdge), func(k, v []byte) error {
		pid := parseIDKey(k)
		ids, err := decodeEdges(v)
		switch {
		case len(pid) != graph.PaperIDLen:
			c.add("edges %q: malformed paper id", k)
			return nil
		case err != nil:
			c.add("edges of %s: %v", pid, err)
			return nil
		case len(ids) == 0:
			c.add("edges of %s: empty", pid)
		case !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids):
			c.add("edges of %s: not sorted or repeated: %v", pid, ids)
		}
		for _, eid := range ids {
			c.edges++
			reverse := func() (bool, error) { return c.exists(entityEdgeKey(eid, pid)) }
			if err := c.edgeEnds("edge "+pid+" -> "+eid, pid, eid, reverse, "0x04"); err != nil {
				return err
			}
		}
		return nil
	})
}

func (c *checker) entityEdges() error {
	return c.scan(allKeys(prefixEntityEdge), func(k, _ []byte) error {
		eid, pid, err := parseEntityEdgeKey(k)
		if err != nil {
			c.add("%v", err)
			return nil
		}
		reverse := func() (bool, error) { return hasEdge(c.txn, nil, pid, eid) }
		return c.edgeEnds("edge "+eid+" <- "+pid, pid, eid, reverse, "0x03")
	})
}

// edgeEnds checks that an edge's reverse and both ends exist.
func (c *checker) edgeEnds(what, pid, eid string, reverse func() (bool, error), reverseName string) error {
	for _, x := range []struct {
		exists func() (bool, error)
		name   string
	}{
		{reverse, "reverse " + reverseName},
		{func() (bool, error) { return c.exists(paperKey(pid)) }, "paper"},
		{func() (bool, error) { return c.exists(entityKey(eid)) }, "entity"},
	} {
		ok, err := x.exists()
		if err != nil {
			return err
		}
		if !ok {
			c.add("%s: %s missing", what, x.name)
		}
	}
	return nil
}

// degrees compares each entity's edge count (0x04 keys are grouped by
// entity) with its degree (0x05), both ways.
func (c *checker) degrees() error {
	counts := make(map[string]uint64)
	err := c.scan(allKeys(prefixEntityEdge), func(k, _ []byte) error {
		if eid, _, err := parseEntityEdgeKey(k); err == nil {
			counts[eid]++
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = c.scan(allKeys(prefixDegree), func(k, v []byte) error {
		id := parseIDKey(k)
		if len(v) != 8 {
			c.add("degree %s: bad value %x", id, v)
			return nil
		}
		if d := binary.BigEndian.Uint64(v); d != counts[id] {
			c.add("degree %s = %d, entity has %d edges", id, d, counts[id])
		}
		delete(counts, id)
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range sortedKeys(counts) {
		c.add("degree %s missing, entity has %d edges", id, counts[id])
	}
	return nil
}

// tops checks that each top-by-degree key (0x06) carries its entity's
// kind and degree, and that each entity with papers has one.
func (c *checker) tops() error {
	seen := make(map[string]bool)
	err := c.scan(allKeys(prefixTop), func(k, _ []byte) error {
		kind, deg, id, err := parseTopKey(k)
		if err != nil {
			c.add("%v", err)
			return nil
		}
		if seen[id] {
			c.add("top %s: more than one key", id)
		}
		seen[id] = true
		if ek, _, err := graph.ParseEntityID(id); err != nil || ek != kind {
			c.add("top %s: kind %s", id, kind)
		}
		d, err := getUint64(c.txn, degreeKey(id))
		if err != nil {
			return err
		}
		if d != deg {
			c.add("top %s: degree %d, degree key says %d", id, deg, d)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.scan(allKeys(prefixDegree), func(k, _ []byte) error {
		if id := parseIDKey(k); !seen[id] {
			c.add("top %s: missing", id)
		}
		return nil
	})
}

func (c *checker) taxonomy() error {
	for _, dir := range []struct {
		prefix, reverse byte
		name            string
	}{{prefixBroader, prefixNarrower, "broader"}, {prefixNarrower, prefixBroader, "narrower"}} {
		err := c.scan(allKeys(dir.prefix), func(k, _ []byte) error {
			from, to, err := parseTaxonomyKey(dir.prefix, k)
			if err != nil {
				c.add("%v", err)
				return nil
			}
			what := dir.name + " " + from + " -> " + to
			for _, x := range []struct {
				key  []byte
				name string
			}{{taxonomyKey(dir.reverse, to, from), "reverse key"}, {entityKey(from), "entity " + from}, {entityKey(to), "entity " + to}} {
				ok, err := c.exists(x.key)
				if err != nil {
					return err
				}
				if !ok {
					c.add("%s: %s missing", what, x.name)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// postings checks the full-text index: postings are grouped by term, so
// each term's count is compared with its document frequency as the scan
// leaves it; each posting must be in the block its paper's text record
// names, and per paper the number of postings and the sum of their term
// frequencies must equal its unique terms and length.
func (c *checker) postings() error {
	var term []byte
	var n uint64
	var total uint64
	endTerm := func() error {
		if term == nil {
			return nil
		}
		df, err := getUint64(c.txn, docFreqKey(string(term)))
		if err != nil {
			return err
		}
		if df != n {
			c.add("term %q: document frequency %d, %d postings", term, df, n)
		}
		total += n
		return nil
	}
	err := c.scan(allKeys(prefixPosting), func(k, v []byte) error {
		t, block, err := parsePostingKey(k)
		if err != nil {
			c.add("%v", err)
			return nil
		}
		if !bytes.Equal([]byte(t), term) {
			if err := endTerm(); err != nil {
				return err
			}
			term, n = []byte(t), 0
		}
		if len(v) == 0 {
			c.add("term %q block %d: empty", t, block)
		}
		err = decodePostings(v, func(p posting) bool {
			n++
			pid := string(p.id[:])
			pt, ok := c.text[pid]
			switch {
			case !ok:
				c.add("posting %q -> %s: paper missing", t, pid)
			case pt.block != block:
				c.add("posting %q -> %s in block %d: its text is in block %d", t, pid, block, pt.block)
			default:
				pt.postings++
				pt.tf += uint64(p.tf)
				c.text[pid] = pt
			}
			return true
		})
		if err != nil {
			c.add("term %q block %d: %v", t, block, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := endTerm(); err != nil {
		return err
	}
	var dfSum uint64
	err = c.scan(allKeys(prefixDocFreq), func(k, v []byte) error {
		if len(v) == 8 {
			dfSum += binary.BigEndian.Uint64(v)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if dfSum != total {
		c.add("document frequencies sum to %d, %d postings (a term without postings)", dfSum, total)
	}
	for _, id := range sortedKeys(c.text) {
		pt := c.text[id]
		if pt.postings != pt.unique || pt.tf != pt.length {
			c.add("paper %s: %d postings with %d terms, text has %d unique terms, %d in all", id, pt.postings, pt.tf, pt.unique, pt.length)
		}
	}
	return nil
}

func (c *checker) sources() error {
	return c.scan(allKeys(prefixSource), func(k, v []byte) error {
		src, i, err := parseSourceKey(k)
		if err != nil {
			c.add("%v", err)
			return nil
		}
		ok, err := c.exists(paperKey(string(v)))
		if err != nil {
			return err
		}
		if !ok {
			c.add("source %s #%d -> %q: paper missing", src, i, v)
		}
		return nil
	})
}

// names checks that the name indexes (0x07, 0x10) name existing
// entities: a merge deletes the names of the entity it merges.
func (c *checker) names() error {
	for _, index := range []struct {
		prefix byte
		parse  func([]byte) (string, string, error)
	}{{prefixName, parseNameKey}, {prefixStem, parseStemKey}} {
		prefix := index.prefix
		err := c.scan(allKeys(prefix), func(k, _ []byte) error {
			name, id, err := index.parse(k)
			if err != nil {
				c.add("%v", err)
				return nil
			}
			ok, err := c.exists(entityKey(id))
			if err != nil {
				return err
			}
			if !ok {
				c.add("name %q (prefix %#x) -> %s: entity missing", name, prefix, id)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// corrections checks that a corrected id has no entity and that its
// target has one.
func (c *checker) corrections() error {
	return c.scan(allKeys(prefixCorrection), func(k, v []byte) error {
		from, to := parseIDKey(k), string(v)
		if _, _, err := graph.ParseEntityID(to); err != nil {
			c.add("correction %s -> %q: malformed target", from, to)
			return nil
		}
		for _, x := range []struct {
			id   string
			want bool
		}{{from, false}, {to, true}} {
			ok, err := c.exists(entityKey(x.id))
			if err != nil {
				return err
			}
			if ok != x.want {
				c.add("correction %s -> %s: entity %s exists = %v", from, to, x.id, ok)
			}
		}
		return nil
	})
}

func (c *checker) counters() error {
	got, err := readCounters(c.txn)
	if err != nil {
		return err
	}
	for _, x := range []struct {
		name      string
		got, want uint64
	}{
		{counterPapers, got.papers, c.papers},
		{counterEdges, got.edges, c.edges},
		{counterDocLen, got.docLen, c.docLen},
	} {
		if x.got != x.want {
			c.add("counter %s = %d, want %d", x.name, x.got, x.want)
		}
	}
	for _, k := range graph.Kinds {
		if got.entities[k] != c.entities[k] {
			c.add("counter %s = %d, want %d", entitiesCounter(k), got.entities[k], c.entities[k])
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
