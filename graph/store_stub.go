package graph

// STUB: the graph-core helper replaces this file with store.go, stats.go
// and check.go, keeping these signatures (it may add to them).

import (
	"context"
	"errors"
	"log/slog"
)

var errNotImplemented = errors.New("not implemented")

// Options configures Open.
type Options struct {
	// ReadOnly opens the database without write access.
	ReadOnly bool
	// Logger receives Badger's and the store's log lines; nil discards them.
	Logger *slog.Logger
}

// Store is a papergraph database on disk. A Store is safe for concurrent
// use by multiple goroutines.
type Store struct{}

// Open opens or creates the database in dir.
func Open(dir string, opts Options) (*Store, error) { return nil, errNotImplemented }

// Close flushes and closes the database.
func (s *Store) Close() error { return errNotImplemented }

// PutResult counts what PutPapers did.
type PutResult struct {
	Added, Updated, Unchanged int
}

// PutPapers writes papers, each with its edges, entities, taxonomy and
// counters atomically. A paper already stored with the same extraction is
// unchanged; one whose extraction changed has its edges replaced.
func (s *Store) PutPapers(ctx context.Context, papers []Paper) (PutResult, error) {
	return PutResult{}, errNotImplemented
}

// Paper returns the paper with id, with Entities read from its edges.
func (s *Store) Paper(ctx context.Context, id string) (Paper, error) {
	return Paper{}, errNotImplemented
}

// Papers returns the papers with ids, in the same order; a missing one is
// nil. It serves dataloaders.
func (s *Store) Papers(ctx context.Context, ids []string) ([]*Paper, error) {
	return nil, errNotImplemented
}

// Entity returns the entity with id, PaperCount and Narrower filled.
func (s *Store) Entity(ctx context.Context, id string) (Entity, error) {
	return Entity{}, errNotImplemented
}

// Entities returns the entities with ids, in the same order; a missing one
// is nil. It serves dataloaders.
func (s *Store) Entities(ctx context.Context, ids []string) ([]*Entity, error) {
	return nil, errNotImplemented
}

// Lookup finds the entity of kind k whose name or alias is name,
// case-insensitively.
func (s *Store) Lookup(ctx context.Context, k Kind, name string) (Entity, error) {
	return Entity{}, errNotImplemented
}

// Stats counts papers, entities per kind and paper-entity edges.
type Stats struct {
	Papers   int          `json:"papers"`
	Entities map[Kind]int `json:"entities"`
	Edges    int          `json:"edges"`
}

// Stats returns the counts, read from counters kept in the same
// transactions as the data.
func (s *Store) Stats(ctx context.Context) (Stats, error) { return Stats{}, errNotImplemented }

// Check verifies the invariants of the database and returns every violation
// found (empty when consistent).
func (s *Store) Check(ctx context.Context) ([]string, error) { return nil, errNotImplemented }

// Walk calls fn for every paper (Entities filled) in id order, then for
// every entity, streaming: memory stays bounded whatever the database size.
func (s *Store) Walk(ctx context.Context, paper func(Paper) error, entity func(Entity) error) error {
	return errNotImplemented
}
