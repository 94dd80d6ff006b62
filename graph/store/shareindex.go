package store

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// shareIndex holds every entity's papers (0x04) in memory as a sorted
// array of paper ordinals, for Sharing: a hub linked to a third of 100k
// papers is 33k uint32s, which two merge in tens of microseconds, where a
// scan of its keys in Badger took 13ms. Ordinals number papers in id
// order as of the last build; papers added since get the next ones, so
// ordinal order is not id order and ties are broken by looking ids up.
//
// It costs 4 bytes per edge, plus 16 bytes and a map slot per paper: about
// 130 MB at 1M papers and 15 edges each. It is built by the first Sharing
// after Open or a Loader (one scan of the edges, 0x03), and PutPapers
// applies its edge changes to it (see Store.endWrite); while a write is
// under way Sharing reads postings from Badger instead (badgerLists).
type shareIndex struct {
	papers []paperKeyID          // ordinal -> paper id
	sorted uint32                // ordinals below it are in id order
	ords   map[paperKeyID]uint32 // paper id -> ordinal
	lists  map[string][]uint32   // entity id -> its papers' ordinals, ascending
}

// edgeEdit is one edge PutPapers added or removed.
type edgeEdit struct {
	paper  string
	entity string
	add    bool
}

// buildShareIndex reads every paper's edges (0x03) in txn.
func buildShareIndex(txn *badger.Txn) (*shareIndex, error) {
	x := &shareIndex{ords: make(map[paperKeyID]uint32), lists: make(map[string][]uint32)}
	opts := badger.DefaultIteratorOptions
	opts.Prefix = []byte{prefixPaperEdge}
	it := txn.NewIterator(opts)
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		item := it.Item()
		k := item.Key()
		var pid paperKeyID
		if copy(pid[:], k[1:]) != len(pid) || len(k) != 1+len(pid) {
			return nil, fmt.Errorf("bad edges key %q", k)
		}
		ord := uint32(len(x.papers))
		x.papers = append(x.papers, pid)
		x.ords[pid] = ord
		err := item.Value(func(v []byte) error {
			for len(v) > 0 {
				i := bytes.IndexByte(v, sep)
				if i <= 0 {
					return fmt.Errorf("paper %s: bad edges value: empty or unterminated id", pid[:])
				}
				// A lookup by the bytes' string conversion allocates
				// nothing; only a new entity's id is copied.
				if l, ok := x.lists[string(v[:i])]; ok {
					x.lists[string(v[:i])] = append(l, ord)
				} else {
					x.lists[string(v[:i])] = []uint32{ord}
				}
				v = v[i+1:]
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	x.sorted = uint32(len(x.papers))
	return x, nil
}

// apply makes the index reflect edits, in the order they were written: an
// entity's array is replaced, never modified, so that a slice a reader
// took stays as it was.
func (x *shareIndex) apply(edits []edgeEdit) {
	net := make(map[string]map[uint32]bool) // entity -> ordinal -> linked
	for _, e := range edits {
		var pid paperKeyID
		copy(pid[:], e.paper)
		ord, ok := x.ords[pid]
		if !ok {
			ord = uint32(len(x.papers))
			x.papers = append(x.papers, pid)
			x.ords[pid] = ord
		}
		m := net[e.entity]
		if m == nil {
			m = make(map[uint32]bool)
			net[e.entity] = m
		}
		m[ord] = e.add
	}
	for eid, m := range net {
		old := x.lists[eid]
		var add []uint32
		for ord, linked := range m {
			if linked {
				add = append(add, ord)
			}
		}
		slices.Sort(add)
		out := make([]uint32, 0, len(old)+len(add))
		i, j := 0, 0
		for i < len(old) || j < len(add) {
			var v uint32
			switch {
			case j == len(add) || (i < len(old) && old[i] < add[j]):
				v = old[i]
				i++
			case i == len(old) || add[j] < old[i]:
				v = add[j]
				j++
			default: // added again
				v = old[i]
				i++
				j++
			}
			if linked, ok := m[v]; ok && !linked {
				continue
			}
			out = append(out, v)
		}
		if len(out) == 0 {
			delete(x.lists, eid)
		} else {
			x.lists[eid] = out
		}
	}
}

// shareLists is where Sharing finds entities' papers: the index, or
// Badger during a write.
type shareLists interface {
	// list returns the ordinals of entity eid's papers, ascending; the
	// slice must not be modified.
	list(eid string) []uint32
	// id returns the paper id of ordinal ord.
	id(ord uint32) paperKeyID
	// ordinal returns the ordinal of paper pid, if it has one.
	ordinal(pid paperKeyID) (uint32, bool)
	// compare orders two ordinals by their papers' ids.
	compare(a, b uint32) int
}

func (x *shareIndex) list(eid string) []uint32 { return x.lists[eid] }
func (x *shareIndex) id(ord uint32) paperKeyID { return x.papers[ord] }

// compare compares ordinals as numbers where that is id order: hub-only
// candidates tie by the thousand, and a lookup of two ids each cost more
// than the rest of their ranking.
func (x *shareIndex) compare(a, b uint32) int {
	if a < x.sorted && b < x.sorted {
		return cmp.Compare(a, b)
	}
	return bytes.Compare(x.papers[a][:], x.papers[b][:])
}

func (x *shareIndex) ordinal(pid paperKeyID) (uint32, bool) {
	o, ok := x.ords[pid]
	return o, ok
}

// badgerLists holds the papers of a few entities read from a transaction,
// numbered in id order: exact as the index, but a hub costs a scan.
type badgerLists struct {
	papers []paperKeyID
	ords   map[paperKeyID]uint32
	lists  map[string][]uint32
}

// readBadgerLists reads the papers of entities eids.
func readBadgerLists(sc *keyScanner, eids []string) (*badgerLists, error) {
	byEntity := make(map[string][]paperKeyID, len(eids))
	seen := make(map[paperKeyID]bool)
	b := &badgerLists{lists: make(map[string][]uint32, len(eids))}
	for _, eid := range eids {
		if _, ok := byEntity[eid]; ok {
			continue
		}
		ids, err := sc.allPostings(eid)
		if err != nil {
			return nil, err
		}
		byEntity[eid] = ids
		for _, pid := range ids {
			if !seen[pid] {
				seen[pid] = true
				b.papers = append(b.papers, pid)
			}
		}
	}
	slices.SortFunc(b.papers, func(x, y paperKeyID) int { return bytes.Compare(x[:], y[:]) })
	b.ords = make(map[paperKeyID]uint32, len(b.papers))
	for i, pid := range b.papers {
		b.ords[pid] = uint32(i)
	}
	for eid, ids := range byEntity {
		l := make([]uint32, len(ids))
		for i, pid := range ids {
			l[i] = b.ords[pid]
		}
		b.lists[eid] = l // ids are in id order, so ordinals ascend
	}
	return b, nil
}

func (b *badgerLists) list(eid string) []uint32 { return b.lists[eid] }
func (b *badgerLists) id(ord uint32) paperKeyID { return b.papers[ord] }

// compare is numeric: badgerLists numbers papers in id order.
func (b *badgerLists) compare(x, y uint32) int { return cmp.Compare(x, y) }

func (b *badgerLists) ordinal(pid paperKeyID) (uint32, bool) {
	o, ok := b.ords[pid]
	return o, ok
}

// sharingIndex returns the sharing index, built if need be, and a function
// to call when done with it; while it is held no write begins or ends, so
// a transaction opened meanwhile sees what it holds. During a write it
// returns nil: the caller reads postings from its transaction.
func (s *Store) sharingIndex() (*shareIndex, func(), error) {
	for {
		s.shareMu.RLock()
		if s.shareWriting {
			s.shareMu.RUnlock()
			return nil, func() {}, nil
		}
		if s.share != nil {
			return s.share, s.shareMu.RUnlock, nil
		}
		s.shareMu.RUnlock()
		s.shareMu.Lock()
		if s.share == nil && !s.shareWriting {
			err := s.db.View(func(txn *badger.Txn) error {
				x, err := buildShareIndex(txn)
				s.share = x
				return err
			})
			if err != nil {
				s.shareMu.Unlock()
				return nil, nil, fmt.Errorf("build sharing index: %w", err)
			}
		}
		s.shareMu.Unlock()
	}
}
