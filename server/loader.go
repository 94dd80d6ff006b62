package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/papergraph/papergraph/graph"
)

// loaders batch the lookups by id that one request makes, so that a list
// of n papers asking for their entities' details costs one Store.Entities
// call rather than n Store.Entity calls. They live for one request: their
// caches never serve stale data to another.
type loaders struct {
	papers   *dataloadgen.Loader[string, *graph.Paper]
	entities *dataloadgen.Loader[string, *graph.Entity]
	papersOf *dataloadgen.Loader[graph.PageOf, graph.PaperPage]
}

type loadersKey struct{}

// withLoaders gives every request its own loaders. wait is how long a
// loader collects keys before it fetches: gqlgen resolves the fields of a
// list's elements in concurrent goroutines, which all ask within it.
func withLoaders(st *graph.Store, m *metrics, wait time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opt := dataloadgen.WithWait(wait)
		l := &loaders{
			papers: dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([]*graph.Paper, []error) {
				m.batch("paper", len(ids))
				return byID(st.Papers(ctx, ids))
			}, opt),
			entities: dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([]*graph.Entity, []error) {
				m.batch("entity", len(ids))
				return byID(st.Entities(ctx, ids))
			}, opt),
			papersOf: dataloadgen.NewLoader(func(ctx context.Context, keys []graph.PageOf) ([]graph.PaperPage, []error) {
				m.batch("papersOf", len(keys))
				pages, errs, err := st.PapersOfEach(ctx, keys)
				if err != nil {
					return nil, []error{err}
				}
				return pages, errs
			}, opt),
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), loadersKey{}, l)))
	})
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

func loadersFrom(ctx context.Context) *loaders {
	l, _ := ctx.Value(loadersKey{}).(*loaders)
	return l
}

func loadPaper(ctx context.Context, id string) (*graph.Paper, error) {
	p, err := loadersFrom(ctx).papers.Load(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("paper %s: %w", id, err)
	}
	return p, nil
}

func loadEntity(ctx context.Context, id string) (*graph.Entity, error) {
	e, err := loadersFrom(ctx).entities.Load(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("entity %s: %w", id, err)
	}
	return e, nil
}

// loadEntities returns the stored entities with ids, in order, leaving out
// those the store does not have.
func loadEntities(ctx context.Context, ids []string) ([]graph.Entity, error) {
	l := loadersFrom(ctx).entities
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
	return loadersFrom(ctx).papersOf.Load(ctx, k)
}

func primePaper(ctx context.Context, p *graph.Paper) {
	loadersFrom(ctx).papers.Prime(p.ID, p)
}

func primeEntity(ctx context.Context, e *graph.Entity) {
	loadersFrom(ctx).entities.Prime(e.ID(), e)
}
