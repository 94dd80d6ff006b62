package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/papergraph/papergraph/graph"
)

// fetchers are the store calls behind the loaders, with what the loaders
// need to make them; made once per server, since they are the same for
// every request.
type fetchers struct {
	opt      dataloadgen.Option
	papers   func(context.Context, []string) ([]*graph.Paper, []error)
	entities func(context.Context, []string) ([]*graph.Entity, []error)
	papersOf func(context.Context, []graph.PageOf) ([]graph.PaperPage, []error)
}

// newFetchers returns the fetchers of st, counted in m. wait is how long a
// loader collects keys before it fetches: gqlgen resolves the fields of a
// list's elements in concurrent goroutines, which all ask within it.
func newFetchers(st Store, m *metrics, wait time.Duration) *fetchers {
	countPapers, countEntities, countPapersOf := m.batchCounter("paper"), m.batchCounter("entity"), m.batchCounter("papersOf")
	return &fetchers{
		opt: dataloadgen.WithWait(wait),
		papers: func(ctx context.Context, ids []string) ([]*graph.Paper, []error) {
			countPapers(len(ids))
			return byID(st.Papers(ctx, ids))
		},
		entities: func(ctx context.Context, ids []string) ([]*graph.Entity, []error) {
			countEntities(len(ids))
			return byID(st.Entities(ctx, ids))
		},
		papersOf: func(ctx context.Context, keys []graph.PageOf) ([]graph.PaperPage, []error) {
			countPapersOf(len(keys))
			pages, errs, err := st.PapersOfEach(ctx, keys)
			if err != nil {
				return nil, []error{err}
			}
			return pages, errs
		},
	}
}

// loaders batch the lookups by id that one request makes, so that a list
// of n papers asking for their entities' details costs one Store.Entities
// call rather than n Store.Entity calls. They live for one request: their
// caches never serve stale data to another. Each loader is made on first
// use, since most requests need one or none.
type loaders struct {
	fetch *fetchers

	mu       sync.Mutex
	papers   *dataloadgen.Loader[string, *graph.Paper]
	entities *dataloadgen.Loader[string, *graph.Entity]
	papersOf *dataloadgen.Loader[graph.PageOf, graph.PaperPage]
}

// loader returns *l, first making it from fetch if it is nil; mu guards
// it, since a request's resolvers run concurrently.
func loader[K comparable, V any](mu *sync.Mutex, l **dataloadgen.Loader[K, V], fetch func(context.Context, []K) ([]V, []error), opt dataloadgen.Option) *dataloadgen.Loader[K, V] {
	mu.Lock()
	defer mu.Unlock()
	if *l == nil {
		*l = dataloadgen.NewLoader(fetch, opt)
	}
	return *l
}

func (l *loaders) paperLoader() *dataloadgen.Loader[string, *graph.Paper] {
	return loader(&l.mu, &l.papers, l.fetch.papers, l.fetch.opt)
}

func (l *loaders) entityLoader() *dataloadgen.Loader[string, *graph.Entity] {
	return loader(&l.mu, &l.entities, l.fetch.entities, l.fetch.opt)
}

func (l *loaders) papersOfLoader() *dataloadgen.Loader[graph.PageOf, graph.PaperPage] {
	return loader(&l.mu, &l.papersOf, l.fetch.papersOf, l.fetch.opt)
}

// byID adapts a Store batch lookup (nil for a missing id) to a loader's
// result: a missing id is graph.ErrNotFound for that key alone.
func byID[T any](vs []*T, err error) ([]*T, []error) {
	if err != nil {
		return nil, []error{err}
	}
	var errs []error
	for i, v := range vs {
		if v == nil {
			if errs == nil {
				errs = make([]error, len(vs))
			}
			errs[i] = graph.ErrNotFound
		}
	}
	return vs, errs
}

// loadersFrom returns the loaders of ctx's request.
func loadersFrom(ctx context.Context) *loaders {
	return &requestFrom(ctx).loaders
}

func loadPaper(ctx context.Context, id string) (*graph.Paper, error) {
	p, err := loadersFrom(ctx).paperLoader().Load(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("paper %s: %w", id, err)
	}
	return p, nil
}

func loadEntity(ctx context.Context, id string) (*graph.Entity, error) {
	e, err := loadersFrom(ctx).entityLoader().Load(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("entity %s: %w", id, err)
	}
	return e, nil
}

// loadEntities returns the stored entities with ids, in order, leaving out
// those the store does not have.
func loadEntities(ctx context.Context, ids []string) ([]graph.Entity, error) {
	l := loadersFrom(ctx).entityLoader()
	thunks := make([]func() (*graph.Entity, error), len(ids))
	for i, id := range ids {
		thunks[i] = l.LoadThunk(ctx, id)
	}
	out := make([]graph.Entity, 0, len(ids))
	for i, th := range thunks {
		e, err := th()
		switch {
		case errors.Is(err, graph.ErrNotFound):
			continue
		case err != nil:
			return nil, fmt.Errorf("entity %s: %w", ids[i], err)
		}
		out = append(out, *e)
	}
	return out, nil
}

func loadPapersOf(ctx context.Context, k graph.PageOf) (graph.PaperPage, error) {
	return loadersFrom(ctx).papersOfLoader().Load(ctx, k)
}

func primePaper(ctx context.Context, p *graph.Paper) {
	loadersFrom(ctx).paperLoader().Prime(p.ID, p)
}

func primeEntity(ctx context.Context, e *graph.Entity) {
	loadersFrom(ctx).entityLoader().Prime(e.ID(), e)
}
