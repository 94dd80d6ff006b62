package dgraph

import (
	"context"
	"fmt"

	"github.com/papergraph/papergraph/graph"
)

// errCuration is what the curation calls return: curation (duplicates,
// deletes, merges, aliases kept as corrections) is the Badger store's
// only, for now. Curate there and move the graph again (export --format
// rdf, dgraph bulk).
var errCuration = fmt.Errorf("%w: curation is not supported over Dgraph: curate the Badger database and bulk-load it again", graph.ErrBadArgument)

// Duplicates returns errCuration.
func (s *Store) Duplicates(ctx context.Context, q graph.DuplicateQuery) ([]graph.Duplicate, error) {
	return nil, errCuration
}

// DeletePapers returns errCuration.
func (s *Store) DeletePapers(ctx context.Context, ids []string) (int, error) {
	return 0, errCuration
}

// MergeEntities returns errCuration.
func (s *Store) MergeEntities(ctx context.Context, from, into string) (graph.Entity, error) {
	return graph.Entity{}, errCuration
}

// AddAlias returns errCuration.
func (s *Store) AddAlias(ctx context.Context, ref, alias string) (graph.Entity, error) {
	return graph.Entity{}, errCuration
}

// Check is BAD_ARGUMENT over Dgraph, which checks its own storage; the
// invariants store.Store.Check verifies are Badger's key layout.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	return nil, fmt.Errorf("%w: check reads an embedded Badger database; a Dgraph cluster checks its own storage", graph.ErrBadArgument)
}
