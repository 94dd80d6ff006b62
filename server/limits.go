package server

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/papergraph/papergraph/graph"
)

// depthLimit rejects operations nesting fields deeper than max, before
// they run. Complexity alone does not bound depth: a chain of cheap
// single-object fields (entity { broader { broader { ... } } }) costs
// little per level but makes a deep walk.
type depthLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string { return "DepthLimit" }

func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (d depthLimit) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if n := depth(opCtx.Operation.SelectionSet); n > d.max {
		err := gqlerror.Errorf("operation has depth %d, which exceeds the limit of %d", n, d.max)
		errcode.Set(err, "DEPTH_LIMIT_EXCEEDED")
		return err
	}
	return nil
}

// depth returns the depth of the deepest field in set, fragments
// expanded; a top-level field has depth 1. Introspection fields (__schema,
// __type) are not counted: GraphiQL's own schema query is deep by nature
// and cheap. Validation has already rejected fragment cycles.
func depth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		var d int
		switch sel := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(sel.Name, "__") {
				continue
			}
			d = 1 + depth(sel.SelectionSet)
		case *ast.InlineFragment:
			d = depth(sel.SelectionSet)
		case *ast.FragmentSpread:
			if sel.Definition != nil {
				d = depth(sel.Definition.SelectionSet)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// complexity costs each list field by the number of elements it may
// return (its page size, or its default) times its selection, so that
// nesting pages multiplies as the work does. Lists without a size argument
// (a paper's entities) keep gqlgen's default cost.
func complexity() ComplexityRoot {
	var c ComplexityRoot
	c.Query.Papers = func(child int, first *int, _ *string, _ *graph.PaperFilter) int {
		return perElement(child, first, 20)
	}
	c.Query.Entities = func(child int, _ *graph.Kind, _ *string, first *int, _ *string, _ *graph.EntityOrder) int {
		return perElement(child, first, 20)
	}
	c.Query.PapersSharing = func(child int, _ string, _ []graph.Kind, _ *int, _ *bool, first *int) int {
		return perElement(child, first, 20)
	}
	c.Query.Neighborhood = func(child int, _ string, _ *int, _ []graph.Kind, limit *int) int {
		return perElement(child, limit, 200)
	}
	c.Query.Path = func(child int, _ string, _ string, maxHops *int) int {
		// A path of n hops has n+1 nodes.
		return perElement(child, maxHops, 6)
	}
	c.Query.Search = func(child int, _ string, first *int) int {
		return perElement(child, first, 20)
	}
	c.Query.CoOccurring = func(child int, _ string, _ *graph.Kind, first *int) int {
		return perElement(child, first, 20)
	}
	c.Entity.Papers = func(child int, first *int, _ *string) int {
		return perElement(child, first, 20)
	}
	c.Mutation.AddPapers = func(child int, input []PaperInput) int {
		return 1 + len(input)*child
	}
	return c
}

// perElement is the cost of a list of *size (def when nil) elements each
// costing child, plus one for the field itself. A size beyond any field's
// range is costed at def: its resolver rejects it with a message naming
// the argument, and a huge size cannot overflow the product.
func perElement(child int, size *int, def int) int {
	n := def
	if size != nil && *size >= 1 && *size <= maxNeighborhood {
		n = *size
	}
	return 1 + n*child
}
