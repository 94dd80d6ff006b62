package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Stats returns the counts, read from counters (0x0C) kept in the same
// transactions as the data, so it costs a handful of reads whatever the
// database size. Entities has every kind, zero included.
func (s *Store) Stats(ctx context.Context) (graph.Stats, error) {
	st := graph.Stats{Entities: make(map[graph.Kind]int, len(graph.Kinds))}
	err := s.view(ctx, func(txn *badger.Txn) error {
		c, err := readCounters(txn)
		if err != nil {
			return err
		}
		st.Papers, st.Edges = int(c.papers), int(c.edges)
		for _, k := range graph.Kinds {
			st.Entities[k] = int(c.entities[k])
		}
		return nil
	})
	if err != nil {
		return graph.Stats{}, fmt.Errorf("stats: %w", err)
	}
	return st, nil
}

// counters are the values under 0x0C.
type counters struct {
	papers, edges, docLen uint64
	entities              map[graph.Kind]uint64
}

func readCounters(txn *badger.Txn) (counters, error) {
	c := counters{entities: make(map[graph.Kind]uint64, len(graph.Kinds))}
	var err error
	for name, dst := range map[string]*uint64{counterPapers: &c.papers, counterEdges: &c.edges, counterDocLen: &c.docLen} {
		if *dst, err = getUint64(txn, counterKey(name)); err != nil {
			return c, err
		}
	}
	for _, k := range graph.Kinds {
		n, err := getUint64(txn, counterKey(entitiesCounter(k)))
		if err != nil {
			return c, err
		}
		c.entities[k] = n
	}
	return c, nil
}
