package server

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// inputBytesPerCost is how many bytes of extract's text and title or
// search's query cost one: the extractor and the search index work at
// least in proportion to their input, which gqlgen's complexity does not
// see. (The extractor's work on a long repetitive text grows faster than
// its size; the deadline, which it honours, ends that.)
const inputBytesPerCost = 64

// costLimit rejects, before they run, operations whose cost is over max.
// It replaces gqlgen's complexity limit, which merges fields of the same
// response name and skips introspection: 20,000 copies of one field or
// 10,000 aliases of __schema cost it next to nothing, and ran for a minute
// after the client's timeout. Here every field selected counts, fragments
// expanded each time they are spread, introspection lists cost their
// length in this schema, and extract and search cost their input's size.
//
// With introspection disabled, an operation selecting __schema or __type
// gets one INTROSPECTION_DISABLED error rather than one per field.
type costLimit struct {
	max           int
	introspection bool
	es            graphql.ExecutableSchema
	// lists is the length of the introspection lists that make its cost:
	// the schema's types. The others (fields, arguments, enum values)
	// count as one element, so that the playground's full introspection
	// query passes.
	lists map[string]int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = (*costLimit)(nil)

func newCostLimit(es graphql.ExecutableSchema, limit int, introspection bool) *costLimit {
	s := es.Schema()
	lists := map[string]int{"types": len(s.Types)}
	return &costLimit{max: limit, introspection: introspection, es: es, lists: lists}
}

func (*costLimit) ExtensionName() string { return "CostLimit" }

func (*costLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (c *costLimit) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	w := costWalk{c: c, ctx: ctx, vars: opCtx.Variables}
	n := w.set(opCtx.Operation.SelectionSet, false)
	if w.introspects && !c.introspection {
		err := gqlerror.Errorf("introspection is disabled on this server")
		errcode.Set(err, "INTROSPECTION_DISABLED")
		return err
	}
	if n > c.max {
		err := gqlerror.Errorf("operation has complexity over %d, which exceeds the limit of %d", n-1, c.max)
		if n <= c.max*2 {
			err = gqlerror.Errorf("operation has complexity %d, which exceeds the limit of %d", n, c.max)
		}
		errcode.Set(err, "COMPLEXITY_LIMIT_EXCEEDED")
		return err
	}
	return nil
}

// costWalk is one operation's walk. Each cost is capped just over
// c.max, so that the walk stops early and the products cannot overflow.
type costWalk struct {
	c           *costLimit
	ctx         context.Context
	vars        map[string]any
	introspects bool
}

// set returns the cost of a selection set; in reports whether it is
// inside an introspection field.
func (w *costWalk) set(set ast.SelectionSet, in bool) int {
	total := 0
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			total += w.field(sel, in)
		case *ast.InlineFragment:
			total += w.set(sel.SelectionSet, in)
		case *ast.FragmentSpread:
			if sel.Definition != nil {
				total += w.set(sel.Definition.SelectionSet, in)
			}
		}
		if total > w.c.max {
			return w.c.max + 1
		}
	}
	return total
}

func (w *costWalk) field(f *ast.Field, in bool) int {
	if f.Name == "__schema" || f.Name == "__type" {
		w.introspects, in = true, true
	}
	child := w.set(f.SelectionSet, in)
	var cost int
	switch {
	case in:
		n, ok := w.c.lists[f.Name]
		if !ok || f.ObjectDefinition == nil || !strings.HasPrefix(f.ObjectDefinition.Name, "__") {
			n = 1
		}
		cost = 1 + n*child
	case f.ObjectDefinition == nil:
		cost = 1 + child
	default:
		args := f.ArgumentMap(w.vars)
		var ok bool
		if cost, ok = w.c.es.Complexity(w.ctx, f.ObjectDefinition.Name, f.Name, child, args); !ok {
			cost = 1 + child
		}
		cost += inputCost(f.ObjectDefinition.Name, f.Name, args)
	}
	return min(cost, w.c.max+1)
}

// inputCost is the cost of the text a field works through.
func inputCost(typ, field string, args map[string]any) int {
	if typ != "Query" {
		return 0
	}
	var s, t string
	switch field {
	case "extract":
		s, _ = args["text"].(string)
		t, _ = args["title"].(string)
	case "search":
		s, _ = args["query"].(string)
	}
	return (len(s) + len(t)) / inputBytesPerCost
}
