package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
)

// Resolver is the root of gqlgen's resolvers. Each resolver converts its
// arguments, makes one graph call (through the request's dataloaders for
// lookups by id) and converts the result.
type Resolver struct {
	store      Store
	extract    ExtractFunc
	writeToken string
	readOnly   bool
}

// Query returns the resolver of Query's fields.
func (r *Resolver) Query() QueryResolver { return (*queryResolver)(r) }

// Mutation returns the resolver of Mutation's fields.
func (r *Resolver) Mutation() MutationResolver { return (*mutationResolver)(r) }

// authorizeWrite is authorize for the mutations, which a server over a
// store opened read-only refuses whatever the token.
func (r *mutationResolver) authorizeWrite(ctx context.Context) error {
	if r.readOnly {
		return errReadOnly
	}
	return authorize(ctx, r.writeToken)
}

// Paper returns the resolver of Paper's computed fields.
func (r *Resolver) Paper() PaperResolver { return (*paperResolver)(r) }

// Entity returns the resolver of Entity's computed fields.
func (r *Resolver) Entity() EntityResolver { return (*entityResolver)(r) }

// SearchHit returns the resolver of SearchHit.node.
func (r *Resolver) SearchHit() SearchHitResolver { return (*searchHitResolver)(r) }

// Stats returns the resolver of Stats' computed fields.
func (r *Resolver) Stats() StatsResolver { return (*statsResolver)(r) }

// Subgraph returns the resolver of Subgraph's computed fields.
func (r *Resolver) Subgraph() SubgraphResolver { return (*subgraphResolver)(r) }

type (
	queryResolver     Resolver
	mutationResolver  Resolver
	paperResolver     Resolver
	entityResolver    Resolver
	searchHitResolver Resolver
	statsResolver     Resolver
	subgraphResolver  Resolver
)

// pageSize returns *first, or graph.DefaultLimit when first is nil, after
// checking that it is 1..graph.MaxLimit: the store's bound, and what the
// complexity limit counts a list as (an explicit 0 is an error here, not
// the store's default).
func pageSize(name string, first *int) (int, error) {
	if first == nil {
		return graph.DefaultLimit, nil
	}
	if *first < 1 || *first > graph.MaxLimit {
		return 0, fmt.Errorf("%w: %s = %d (want 1..%d)", graph.ErrBadArgument, name, *first, graph.MaxLimit)
	}
	return *first, nil
}

func deref[T any](p *T) T {
	var zero T
	return or(p, zero)
}

// or returns *p, or def when p is nil: an argument with a schema default
// is nil only when the client passes null explicitly.
func or[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// nonZero returns nil for the zero value, so that the schema shows null
// rather than "" or 0 for a field the source did not have.
func nonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// notFoundAsNull turns graph.ErrNotFound into a null result, as the schema
// promises for the lookups by id or name.
func notFoundAsNull[T any](v *T, err error) (*T, error) {
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

func (r *queryResolver) Node(ctx context.Context, id string) (Node, error) {
	// A nil *graph.Paper or *graph.Entity in the Node is rendered as null.
	if graph.IsPaperID(id) {
		return notFoundAsNull(loadPaper(ctx, id))
	}
	if _, _, err := graph.ParseEntityID(id); err != nil {
		return nil, err
	}
	return notFoundAsNull(loadEntity(ctx, id))
}

func (r *queryResolver) Paper(ctx context.Context, id string) (*graph.Paper, error) {
	if !graph.IsPaperID(id) {
		return nil, fmt.Errorf("%w: %q is not a paper id (want %d hexadecimal digits)", graph.ErrBadID, id, graph.PaperIDLen)
	}
	return notFoundAsNull(loadPaper(ctx, id))
}

func (r *queryResolver) Papers(ctx context.Context, first *int, after *string, filter *graph.PaperFilter) (PaperConnection, error) {
	n, err := pageSize("first", first)
	if err != nil {
		return PaperConnection{}, err
	}
	page, err := r.store.ListPapers(ctx, graph.PaperQuery{Filter: deref(filter), First: n, After: deref(after)})
	if err != nil {
		return PaperConnection{}, err
	}
	return paperConnection(ctx, page, deref(after)), nil
}

func (r *queryResolver) Entity(ctx context.Context, kind graph.Kind, name string) (*graph.Entity, error) {
	e, err := r.store.Lookup(ctx, kind, name)
	return notFoundAsNull(&e, err)
}

func (r *queryResolver) Entities(ctx context.Context, kind *graph.Kind, search *string, first *int, after *string, orderBy *graph.EntityOrder) (EntityConnection, error) {
	n, err := pageSize("first", first)
	if err != nil {
		return EntityConnection{}, err
	}
	page, err := r.store.ListEntities(ctx, graph.EntityQuery{Kind: deref(kind), Search: deref(search), Order: or(orderBy, graph.ByDegree), First: n, After: deref(after)})
	if err != nil {
		return EntityConnection{}, err
	}
	return entityConnection(ctx, page, deref(after)), nil
}

func (r *queryResolver) PapersSharing(ctx context.Context, paper string, kinds []graph.Kind, minShared *int, family *bool, first *int) ([]graph.Match, error) {
	n, err := pageSize("first", first)
	if err != nil {
		return nil, err
	}
	if minShared != nil && *minShared < 1 {
		return nil, fmt.Errorf("%w: minShared = %d (want 1 or more)", graph.ErrBadArgument, *minShared)
	}
	return r.store.Sharing(ctx, paper, graph.SharingQuery{Kinds: kinds, MinShared: or(minShared, 1), Family: deref(family), Limit: n})
}

// maxNeighborhood bounds neighborhood(limit:): a subgraph is one response,
// not a page, so its bound is larger than graph.MaxLimit (and smaller than
// the store's graph.MaxNodes).
const maxNeighborhood = 500

func (r *queryResolver) Neighborhood(ctx context.Context, id string, hops *int, kinds []graph.Kind, limit *int) (graph.Subgraph, error) {
	n := graph.DefaultNodes
	if limit != nil {
		if *limit < 1 || *limit > maxNeighborhood {
			return graph.Subgraph{}, fmt.Errorf("%w: limit = %d (want 1..%d)", graph.ErrBadArgument, *limit, maxNeighborhood)
		}
		n = *limit
	}
	return r.store.Neighborhood(ctx, id, graph.NeighborhoodQuery{Hops: or(hops, 1), Kinds: kinds, Limit: n})
}

func (r *queryResolver) Path(ctx context.Context, from string, to string, maxHops *int) (*graph.Subgraph, error) {
	g, ok, err := r.store.Path(ctx, from, to, or(maxHops, 6))
	if err != nil || !ok {
		return nil, err
	}
	return &g, nil
}

func (r *queryResolver) Search(ctx context.Context, query string, first *int) ([]graph.Hit, error) {
	n, err := pageSize("first", first)
	if err != nil {
		return nil, err
	}
	return r.store.Search(ctx, query, n)
}

func (r *queryResolver) CoOccurring(ctx context.Context, entity string, kind *graph.Kind, first *int) ([]graph.CoOccurrence, error) {
	n, err := pageSize("first", first)
	if err != nil {
		return nil, err
	}
	return r.store.CoOccurring(ctx, entity, graph.CoOccurrenceQuery{Kind: deref(kind), Limit: n})
}

func (r *queryResolver) Stats(ctx context.Context) (graph.Stats, error) {
	return r.store.Stats(ctx)
}

func (r *queryResolver) Extract(ctx context.Context, text string, title *string) (graph.Paper, error) {
	return r.extract(ctx, deref(title), text)
}

// maxAddPapers bounds addPapers' input: one call is one transaction.
const maxAddPapers = 100

func (r *mutationResolver) AddPapers(ctx context.Context, input []PaperInput) (AddPapersResult, error) {
	if err := r.authorizeWrite(ctx); err != nil {
		return AddPapersResult{}, err
	}
	if len(input) > maxAddPapers {
		return AddPapersResult{}, fmt.Errorf("%w: %d papers (want at most %d per call)", graph.ErrBadArgument, len(input), maxAddPapers)
	}
	papers := make([]graph.Paper, len(input))
	for i, in := range input {
		if err := checkInput(in); err != nil {
			return AddPapersResult{}, fmt.Errorf("%w: input[%d].%w", graph.ErrBadArgument, i, err)
		}
		p, err := r.extract(ctx, deref(in.Title), in.Abstract)
		if err != nil {
			return AddPapersResult{}, fmt.Errorf("input[%d]: %w", i, err)
		}
		papers[i] = p
	}
	res, err := r.store.PutPapers(ctx, papers)
	if err != nil {
		return AddPapersResult{}, err
	}
	return AddPapersResult{Added: res.Added, Updated: res.Updated, Unchanged: res.Unchanged, Papers: papers}, nil
}

// checkInput rejects what ingest's reader rejects in a record: an empty
// abstract, and NUL bytes (binary data).
func checkInput(in PaperInput) error {
	switch {
	case strings.TrimSpace(in.Abstract) == "":
		return errors.New("abstract is empty")
	case strings.IndexByte(in.Abstract, 0) >= 0:
		return errors.New("abstract holds a NUL byte")
	case in.Title != nil && strings.IndexByte(*in.Title, 0) >= 0:
		return errors.New("title holds a NUL byte")
	}
	return nil
}

func (r *paperResolver) Name(ctx context.Context, obj *graph.Paper) (*string, error) {
	return nonZero(obj.Name), nil
}

func (r *paperResolver) Title(ctx context.Context, obj *graph.Paper) (*string, error) {
	return nonZero(obj.Title), nil
}

func (r *paperResolver) URL(ctx context.Context, obj *graph.Paper) (*string, error) {
	return nonZero(obj.URL), nil
}

func (r *paperResolver) Venue(ctx context.Context, obj *graph.Paper) (*string, error) {
	return nonZero(obj.Venue), nil
}

func (r *paperResolver) Year(ctx context.Context, obj *graph.Paper) (*int, error) {
	return nonZero(obj.Year), nil
}

// entitiesOf returns p's entities of kind k, all of them for 0.
func entitiesOf(p *graph.Paper, k graph.Kind) []graph.Entity {
	if k == 0 {
		return p.Entities
	}
	var out []graph.Entity
	for _, e := range p.Entities {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func (r *paperResolver) Entities(ctx context.Context, obj *graph.Paper, kind *graph.Kind) ([]graph.Entity, error) {
	return entitiesOf(obj, deref(kind)), nil
}

func (r *paperResolver) Tasks(ctx context.Context, obj *graph.Paper) ([]graph.Entity, error) {
	return entitiesOf(obj, graph.Task), nil
}

func (r *paperResolver) Modalities(ctx context.Context, obj *graph.Paper) ([]graph.Entity, error) {
	return entitiesOf(obj, graph.Modality), nil
}

func (r *paperResolver) Datasets(ctx context.Context, obj *graph.Paper) ([]graph.Entity, error) {
	return entitiesOf(obj, graph.Dataset), nil
}

func (r *paperResolver) Techniques(ctx context.Context, obj *graph.Paper) ([]graph.Entity, error) {
	return entitiesOf(obj, graph.Technique), nil
}

// full returns the stored form of e (aliases, taxonomy and paper count
// filled) through the request's entity loader. An entity the store does
// not have (one in extract's output) is returned as it is.
func full(ctx context.Context, e *graph.Entity) (*graph.Entity, error) {
	stored, err := loadEntity(ctx, e.ID())
	if errors.Is(err, graph.ErrNotFound) {
		return e, nil
	}
	return stored, err
}

func (r *entityResolver) Aliases(ctx context.Context, obj *graph.Entity) ([]string, error) {
	e, err := full(ctx, obj)
	if err != nil {
		return nil, err
	}
	return e.Aliases, nil
}

// related loads the entities of kind k named names, in order, skipping
// any the store does not have.
func related(ctx context.Context, k graph.Kind, names []string) ([]graph.Entity, error) {
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = graph.EntityID(k, n)
	}
	return loadEntities(ctx, ids)
}

func (r *entityResolver) Broader(ctx context.Context, obj *graph.Entity) ([]graph.Entity, error) {
	e, err := full(ctx, obj)
	if err != nil {
		return nil, err
	}
	return related(ctx, e.Kind, e.Broader)
}

func (r *entityResolver) Narrower(ctx context.Context, obj *graph.Entity) ([]graph.Entity, error) {
	e, err := full(ctx, obj)
	if err != nil {
		return nil, err
	}
	return related(ctx, e.Kind, e.Narrower)
}

func (r *entityResolver) PaperCount(ctx context.Context, obj *graph.Entity) (int, error) {
	e, err := full(ctx, obj)
	if err != nil {
		return 0, err
	}
	return e.PaperCount, nil
}

func (r *entityResolver) Papers(ctx context.Context, obj *graph.Entity, first *int, after *string) (PaperConnection, error) {
	n, err := pageSize("first", first)
	if err != nil {
		return PaperConnection{}, err
	}
	page, err := loadPapersOf(ctx, graph.PageOf{Entity: obj.ID(), First: n, After: deref(after)})
	if err != nil {
		return PaperConnection{}, err
	}
	return paperConnection(ctx, page, deref(after)), nil
}

func (r *searchHitResolver) Node(ctx context.Context, obj *graph.Hit) (Node, error) {
	return nodeOf(obj.Node), nil
}

func (r *statsResolver) Entities(ctx context.Context, obj *graph.Stats) (int, error) {
	n := 0
	for _, c := range obj.Entities {
		n += c
	}
	return n, nil
}

func (r *statsResolver) EntitiesByKind(ctx context.Context, obj *graph.Stats) ([]KindCount, error) {
	out := make([]KindCount, len(graph.Kinds))
	for i, k := range graph.Kinds {
		out[i] = KindCount{Kind: k, Count: obj.Entities[k]}
	}
	return out, nil
}

func (r *subgraphResolver) Nodes(ctx context.Context, obj *graph.Subgraph) ([]Node, error) {
	out := make([]Node, len(obj.Nodes))
	for i, n := range obj.Nodes {
		out[i] = nodeOf(n)
	}
	return out, nil
}

func (r *subgraphResolver) Dot(ctx context.Context, obj *graph.Subgraph) (string, error) {
	var b bytes.Buffer
	if err := export.WriteDOT(&b, *obj, export.DOTOptions{}); err != nil {
		return "", err
	}
	return b.String(), nil
}

// pageInfo returns the PageInfo of a page read after the cursor after
// ("" for the first page) with these cursors. Paging is forward only, so
// a page has a previous one exactly when it was read after a cursor, as
// Relay's spec allows.
func pageInfo(cursors []string, after, end string, hasNext bool) *PageInfo {
	pi := &PageInfo{HasNextPage: hasNext, HasPreviousPage: after != "", EndCursor: nonZero(end)}
	if len(cursors) > 0 {
		pi.StartCursor = &cursors[0]
	}
	return pi
}

// paperConnection converts a page of papers read after the cursor after,
// priming the request's paper loader with them so that later lookups of
// the same ids are free.
func paperConnection(ctx context.Context, page graph.PaperPage, after string) PaperConnection {
	c := PaperConnection{
		Edges:      make([]PaperEdge, len(page.Papers)),
		PageInfo:   pageInfo(page.Cursors, after, page.EndCursor, page.HasNext),
		TotalCount: page.Total,
	}
	for i := range page.Papers {
		p := &page.Papers[i]
		c.Edges[i] = PaperEdge{Cursor: page.Cursors[i], Node: p}
		primePaper(ctx, p)
	}
	return c
}

// entityConnection converts a page of entities read after the cursor
// after, priming the request's entity loader with them: they are stored
// entities, complete.
func entityConnection(ctx context.Context, page graph.EntityPage, after string) EntityConnection {
	c := EntityConnection{
		Edges:      make([]EntityEdge, len(page.Entities)),
		PageInfo:   pageInfo(page.Cursors, after, page.EndCursor, page.HasNext),
		TotalCount: page.Total,
	}
	for i := range page.Entities {
		e := &page.Entities[i]
		c.Edges[i] = EntityEdge{Cursor: page.Cursors[i], Node: e}
		primeEntity(ctx, e)
	}
	return c
}
