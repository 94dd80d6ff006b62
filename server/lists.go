package server

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// marshalList marshals the n elements of a list whose elements have the
// selection sel, element i with marshal(ctx, i); generated.go calls it
// where gqlgen's template calls graphql.MarshalSliceConcurrently (see the
// go:generate lines in doc.go), and workerLimit and omitPanicHandler are
// that function's.
//
// gqlgen marshals every element of a list of objects in a goroutine of
// its own, so that resolvers of the elements that wait on the request's
// dataloaders ask together and are batched. Most lists select no such
// resolver (papersSharing's matches and their shared entities, a paper's
// datasets), and for them the goroutines, each growing its stack to
// gqlgen's depth, are a fifth of the CPU of a papersSharing request: those
// lists are marshalled one element after the other on the calling
// goroutine instead. Any other list keeps gqlgen's goroutines.
//
// gqlgen v0.17.98 offers no setting for this: exec.worker_limit still
// starts a goroutine per element (behind a semaphore), an object's
// DisableConcurrency is set for Mutation only, and the @concurrent
// directive of v0.17.50 is gone; the generated code calls
// MarshalSliceConcurrently directly, so no middleware sees it. Without the
// rewrite a distinct papersSharing request cost about 1.1-1.2 ms of CPU
// instead of 0.8 (bench --reuse --http at 100k papers, 1 Dec 2026), and
// with the exact sharing index 0.62-0.90 ms (median 0.70) instead of
// 0.53-0.66 (median 0.55; 30k papers, 64 clients, five interleaved runs
// of each build, 2 Dec 2026).
// TestGeneratedListsUseMarshalList fails if the rewrite stops matching.
func marshalList(ctx context.Context, sel ast.SelectionSet, n int, workerLimit int64, omitPanicHandler bool, marshal func(context.Context, int) graphql.Marshaler) graphql.Array {
	if n < 2 || waits(sel) {
		return graphql.MarshalSliceConcurrently(ctx, n, workerLimit, omitPanicHandler, marshal)
	}
	out := make(graphql.Array, n)
	// The elements' field contexts and indexes in one allocation each,
	// rather than two per element.
	fcs, index := make([]graphql.FieldContext, n), make([]int, n)
	for i := range out {
		index[i] = i
		fcs[i].Index = &index[i]
		out[i] = marshalElement(graphql.WithFieldContext(ctx, &fcs[i]), i, omitPanicHandler, marshal)
	}
	return out
}

// marshalElement marshals element i as MarshalSliceConcurrently's
// goroutines do: in ctx, which holds a field context with the index, and
// with a panic recovered into an error and a null element.
func marshalElement(ctx context.Context, i int, omitPanicHandler bool, marshal func(context.Context, int) graphql.Marshaler) (m graphql.Marshaler) {
	if !omitPanicHandler {
		defer func() {
			if r := recover(); r != nil {
				graphql.AddError(ctx, graphql.Recover(ctx, r))
				m = graphql.Null
			}
		}()
	}
	return marshal(ctx, i)
}

// waitingResolvers are the fields, by object type, whose resolvers may
// wait on a request's dataloader (or make another call worth batching):
// a list selecting one of them, at any depth, keeps gqlgen's goroutines.
// TestResolversClassified checks that every resolver is here or in
// pureResolvers, so that a new one is not run in series by mistake.
var waitingResolvers = map[string][]string{
	"Entity": {"aliases", "broader", "narrower", "paperCount", "papers"},
	// Root fields are never list elements; listed for completeness.
	"Query":    {"node", "paper", "papers", "entity", "entities", "papersSharing", "neighborhood", "path", "search", "coOccurring", "duplicates", "check", "stats", "extract"},
	"Mutation": {"addPapers", "deletePapers", "mergeEntities", "addAlias"},
}

// pureResolvers are the resolvers that only convert what their object
// holds.
var pureResolvers = map[string][]string{
	"Edge":      {"kind"},
	"Paper":     {"name", "title", "url", "venue", "year", "entities", "tasks", "modalities", "datasets", "techniques"},
	"SearchHit": {"node"},
	"Stats":     {"entities", "entitiesByKind"},
	"Subgraph":  {"nodes", "dot"},
}

// waits reports whether sel, fragments expanded, selects a field in
// waitingResolvers.
func waits(sel ast.SelectionSet) bool {
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if s.ObjectDefinition != nil && listed(waitingResolvers, s.ObjectDefinition.Name, s.Name) {
				return true
			}
			if waits(s.SelectionSet) {
				return true
			}
		case *ast.InlineFragment:
			if waits(s.SelectionSet) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && waits(s.Definition.SelectionSet) {
				return true
			}
		}
	}
	return false
}

// listed reports whether fields lists field of object type typ; names are
// compared ignoring case, as Go's method names and the schema's field
// names differ in case only.
func listed(fields map[string][]string, typ, field string) bool {
	for _, f := range fields[typ] {
		if strings.EqualFold(f, field) {
			return true
		}
	}
	return false
}
