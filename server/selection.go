package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/papergraph/papergraph/graph"
)

// paperFieldParts are the parts of a stored paper that each list field of
// Paper reads; its scalar fields read none. TestPaperFieldParts checks
// that every list field of the schema's Paper is here.
var paperFieldParts = map[string]graph.PaperParts{
	"authors":    graph.PaperLists,
	"keywords":   graph.PaperLists,
	"tasks":      graph.PaperEntities,
	"modalities": graph.PaperEntities,
	"datasets":   graph.PaperEntities,
	"techniques": graph.PaperEntities,
	"entities":   graph.PaperEntities,
	"mentions":   graph.PaperMentions,
}

// unselectedParts returns the parts of the papers under field (one of
// the object fields of the list whose resolver ctx belongs to, such as
// papersSharing's "paper") that the request selects nowhere, fragments
// and @skip/@include applied, so that the store need not decode them.
func unselectedParts(ctx context.Context, objectType, field string) graph.PaperParts {
	fc := graphql.GetFieldContext(ctx)
	oc := graphql.GetOperationContext(ctx)
	if fc == nil || oc == nil {
		return 0
	}
	need := graph.PaperParts(0)
	for _, f := range graphql.CollectFields(oc, fc.Field.Selections, []string{objectType}) {
		if f.Name != field {
			continue
		}
		for _, pf := range graphql.CollectFields(oc, f.Selections, []string{"Paper", "Node"}) {
			need |= paperFieldParts[pf.Name]
		}
	}
	return graph.AllPaperParts &^ need
}
