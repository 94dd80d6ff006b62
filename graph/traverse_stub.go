package graph

// STUB: the traversal helper replaces this file with traverse.go and
// search.go, keeping these signatures (it may add to them).

import "context"

// SharingQuery selects the papers that share entities with a paper.
type SharingQuery struct {
	Kinds     []Kind // kinds of shared entity; empty means Dataset
	MinShared int    // at least this many shared entities; < 1 means 1
	Family    bool   // also match through the taxonomy (shared ancestors)
	Limit     int    // at most this many matches; <= 0 means 20
}

// Match is one paper sharing entities with another.
type Match struct {
	Paper  Paper
	Shared []Entity
	Score  float64
}

// Sharing returns the papers sharing entities with the paper id, best first.
func (s *Store) Sharing(ctx context.Context, id string, q SharingQuery) ([]Match, error) {
	return nil, errNotImplemented
}

// NeighborhoodQuery bounds a neighbourhood.
type NeighborhoodQuery struct {
	Hops  int    // 1..maxHops
	Kinds []Kind // entity kinds to follow; empty means all
	Limit int    // cap on nodes
}

// Neighborhood returns the nodes within q.Hops of id and the edges between
// them.
func (s *Store) Neighborhood(ctx context.Context, id string, q NeighborhoodQuery) (Subgraph, error) {
	return Subgraph{}, errNotImplemented
}

// Path returns a shortest path between from and to of at most maxHops
// edges; ok is false when there is none.
func (s *Store) Path(ctx context.Context, from, to string, maxHops int) (g Subgraph, ok bool, err error) {
	return Subgraph{}, false, errNotImplemented
}

// PaperPage is one page of papers.
type PaperPage struct {
	Papers    []Paper
	Cursors   []string // opaque cursor of each paper
	EndCursor string
	HasNext   bool
	Total     int
}

// PaperFilter restricts ListPapers.
type PaperFilter struct {
	Entity string // entity id
	Kind   Kind   // papers linked to any entity of this kind
	Text   string // full-text query
	Source string // source file base name
}

// ListPapers returns a page of papers matching f after the cursor.
func (s *Store) ListPapers(ctx context.Context, f PaperFilter, first int, after string) (PaperPage, error) {
	return PaperPage{}, errNotImplemented
}

// PapersOf returns a page of the papers linked to the entity id.
func (s *Store) PapersOf(ctx context.Context, entityID string, first int, after string) (PaperPage, error) {
	return PaperPage{}, errNotImplemented
}

// EntityOrder orders ListEntities.
type EntityOrder int

const (
	ByDegree EntityOrder = iota // most papers first
	ByName                      // alphabetical by id
)

// EntityPage is one page of entities.
type EntityPage struct {
	Entities  []Entity
	Cursors   []string
	EndCursor string
	HasNext   bool
	Total     int
}

// ListEntities returns a page of entities of kind k (0 for all) whose name
// or alias starts with search (empty for all).
func (s *Store) ListEntities(ctx context.Context, k Kind, search string, order EntityOrder, first int, after string) (EntityPage, error) {
	return EntityPage{}, errNotImplemented
}

// CoOccurrence is an entity and the number of papers it shares with another.
type CoOccurrence struct {
	Entity Entity
	Count  int
}

// CoOccurring returns the entities (of kind k, or any for 0) that co-occur
// most with the entity id.
func (s *Store) CoOccurring(ctx context.Context, id string, k Kind, limit int) ([]CoOccurrence, error) {
	return nil, errNotImplemented
}

// Top returns the entities of kind k with the most papers.
func (s *Store) Top(ctx context.Context, k Kind, limit int) ([]Entity, error) {
	return nil, errNotImplemented
}

// Hit is one search result: a paper or an entity.
type Hit struct {
	Node  Node
	Score float64
}

// Search ranks papers (BM25 over name, label and abstract) and entities
// (name and alias prefix) for query.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	return nil, errNotImplemented
}
