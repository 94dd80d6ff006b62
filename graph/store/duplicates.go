package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Duplicates returns the pairs of stored entities that are likely one
// concept, as graph.Duplicates finds and orders them, keeping those q
// selects. It reads every entity record, so it costs about as much as
// exporting the entities; the list is not bounded, as a curator works
// through all of it.
func (s *Store) Duplicates(ctx context.Context, q graph.DuplicateQuery) ([]graph.Duplicate, error) {
	if q.Kind != 0 && !q.Kind.Valid() {
		return nil, fmt.Errorf("duplicates: %w: %d", graph.ErrBadKind, uint8(q.Kind))
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
	var out []graph.Duplicate
	for _, d := range graph.Duplicates(es) {
		if (q.Kind == 0 || d.A.Kind == q.Kind || d.B.Kind == q.Kind) && (q.Reason == 0 || d.Reason == q.Reason) {
			out = append(out, d)
		}
	}
	return out, nil
}
