package server

import (
	"context"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
)

// Store is what the server reads and writes: the embedded Badger store
// (graph/store) or a Dgraph cluster (graph/dgraph). Both give the same
// answers to the same calls, within the differences each documents; the
// server never needs to know which it has.
type Store interface {
	// Stats, Select and Export serve /export and the stats query.
	export.Source
	Papers(ctx context.Context, ids []string) ([]*graph.Paper, error)
	Entities(ctx context.Context, ids []string) ([]*graph.Entity, error)
	Lookup(ctx context.Context, k graph.Kind, name string) (graph.Entity, error)
	ListPapers(ctx context.Context, q graph.PaperQuery) (graph.PaperPage, error)
	ListEntities(ctx context.Context, q graph.EntityQuery) (graph.EntityPage, error)
	PapersOf(ctx context.Context, q graph.PageOf) (graph.PaperPage, error)
	PapersOfEach(ctx context.Context, reqs []graph.PageOf) ([]graph.PaperPage, []error, error)
	Sharing(ctx context.Context, id string, q graph.SharingQuery) ([]graph.Match, error)
	Neighborhood(ctx context.Context, id string, q graph.NeighborhoodQuery) (graph.Subgraph, error)
	Path(ctx context.Context, from, to string, maxHops int) (graph.Subgraph, bool, error)
	Search(ctx context.Context, query string, limit int) ([]graph.Hit, error)
	CoOccurring(ctx context.Context, id string, q graph.CoOccurrenceQuery) ([]graph.CoOccurrence, error)
	PutPapers(ctx context.Context, papers []graph.Paper) (graph.PutResult, error)
	// Curation: likely duplicates, and the corrections a curator makes.
	Duplicates(ctx context.Context, q graph.DuplicateQuery) ([]graph.Duplicate, error)
	DeletePapers(ctx context.Context, ids []string) (int, error)
	MergeEntities(ctx context.Context, from, into string) (graph.Entity, error)
	AddAlias(ctx context.Context, ref, alias string) (graph.Entity, error)
	// Check returns the violations of the store's invariants (see
	// store.Store.Check).
	Check(ctx context.Context) ([]string, error)
	// Snapshot returns a context whose reads see one state of the store
	// and the function that releases it (see snapshots).
	Snapshot(ctx context.Context) (context.Context, func())
	// Generation changes on every write the store knows of and is odd
	// while one is under way; the response and example caches keep what
	// they computed while it stays the same even number. A store that
	// cannot see every write (one of many servers over a cluster) returns
	// an odd number always, which disables those caches.
	Generation() uint64
}
