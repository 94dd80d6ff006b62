package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Duplicates returns the pairs of stored entities that are likely one
// concept, as graph.Duplicates finds and orders them, keeping those with
// an entity of kind k (every pair when k is 0). It reads every entity
// record, so it costs about as much as exporting the entities; the list
// is not bounded, as a curator works through all of it.
func (s *Store) Duplicates(ctx context.Context, k graph.Kind) ([]graph.Duplicate, error) {
	if k != 0 && !k.Valid() {
		return nil, fmt.Errorf("duplicates: %w: %d", graph.ErrBadKind, uint8(k))
	}
	var es []graph.Entity
	err := s.view(ctx, func(txn *badger.Txn) error {
		return walk(ctx, txn, nil, func(e graph.Entity) error {
			es = append(es, e)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("duplicates: %w", err)
	}
	all := graph.Duplicates(es)
	if k == 0 {
		return all, nil
	}
	var out []graph.Duplicate
	for _, d := range all {
		if d.A.Kind == k || d.B.Kind == k {
			out = append(out, d)
		}
	}
	return out, nil
}
