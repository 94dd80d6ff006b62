package graph

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// Stats counts papers, entities per kind and paper-entity edges.
type Stats struct {
	Papers   int          `json:"papers"`
	Entities map[Kind]int `json:"entities"`
	Edges    int          `json:"edges"`
}

// Stats returns the counts, read from counters (0x0C) kept in the same
// transactions as the data, so it costs a handful of reads whatever the
// database size. Entities has every kind, zero included.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	st := Stats{Entities: make(map[Kind]int, len(Kinds))}
	err := s.db.View(func(txn *badger.Txn) error {
		c, err := readCounters(txn)
		if err != nil {
			return err
		}
		st.Papers, st.Edges = int(c.papers), int(c.edges)
		for _, k := range Kinds {
			st.Entities[k] = int(c.entities[k])
		}
		return nil
	})
	if err != nil {
		return Stats{}, fmt.Errorf("stats: %w", err)
	}
	return st, nil
}

// counters are the values under 0x0C.
type counters struct {
	papers, edges, docLen uint64
	entities              map[Kind]uint64
}

// Counter names under 0x0C.
const (
	counterPapers = "papers"
	counterEdges  = "edges"
	counterDocLen = "doclen" // total document length, for BM25's average
	counterBlocks = "blocks" // the last postings block number (0x0A)
)

// entitiesCounter names the counter of entities of kind k.
func entitiesCounter(k Kind) string { return "entities:" + k.String() }

func readCounters(txn *badger.Txn) (counters, error) {
	c := counters{entities: make(map[Kind]uint64, len(Kinds))}
	var err error
	for name, dst := range map[string]*uint64{counterPapers: &c.papers, counterEdges: &c.edges, counterDocLen: &c.docLen} {
		if *dst, err = getUint64(txn, counterKey(name)); err != nil {
			return c, err
		}
	}
	for _, k := range Kinds {
		n, err := getUint64(txn, counterKey(entitiesCounter(k)))
		if err != nil {
			return c, err
		}
		c.entities[k] = n
	}
	return c, nil
}
