package server

import (
	"context"
	"fmt"

	"github.com/papergraph/papergraph/graph"
)

// The resolvers of curation: finding likely duplicates, checking the
// database, and the mutations that delete papers, merge entities and add
// aliases, each but the first needing the write token as addPapers does.

func (r *queryResolver) Duplicates(ctx context.Context, kind *graph.Kind, reason *graph.DuplicateReason, first *int) ([]graph.Duplicate, error) {
	n, err := pageSize("first", first)
	if err != nil {
		return nil, err
	}
	ds, err := r.store.Duplicates(ctx, graph.DuplicateQuery{Kind: deref(kind), Reason: deref(reason)})
	return ds[:min(n, len(ds))], err
}

// Check reads the whole database, which the write token guards: a
// public server's readers must not be able to set it scanning at will.
func (r *queryResolver) Check(ctx context.Context) ([]string, error) {
	if err := authorize(ctx, r.writeToken); err != nil {
		return nil, err
	}
	v, err := r.store.Check(ctx)
	if v == nil {
		v = []string{}
	}
	return v, err
}

// maxDeletePapers bounds deletePapers' input, as maxAddPapers does.
const maxDeletePapers = 100

func (r *mutationResolver) DeletePapers(ctx context.Context, ids []string) (int, error) {
	if err := r.authorizeWrite(ctx); err != nil {
		return 0, err
	}
	if len(ids) > maxDeletePapers {
		return 0, fmt.Errorf("%w: %d ids (want at most %d per call)", graph.ErrBadArgument, len(ids), maxDeletePapers)
	}
	return r.store.DeletePapers(ctx, ids)
}

func (r *mutationResolver) MergeEntities(ctx context.Context, from string, into string) (graph.Entity, error) {
	if err := r.authorizeWrite(ctx); err != nil {
		return graph.Entity{}, err
	}
	return r.store.MergeEntities(ctx, from, into)
}

func (r *mutationResolver) AddAlias(ctx context.Context, entity string, alias string) (graph.Entity, error) {
	if err := r.authorizeWrite(ctx); err != nil {
		return graph.Entity{}, err
	}
	return r.store.AddAlias(ctx, entity, alias)
}
