package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// Edge returns the resolver of Edge.kind.
func (r *Resolver) Edge() EdgeResolver { return (*edgeResolver)(r) }

type edgeResolver Resolver

// Kind maps graph's edge kinds, the lower-case entity kind names and
// graph.BroaderEdge, to the schema's enum, whose values are those names in
// upper case. A kind graph adds without the schema following is an
// internal error rather than a value clients do not know.
func (r *edgeResolver) Kind(ctx context.Context, obj *graph.Edge) (EdgeKind, error) {
	k := EdgeKind(strings.ToUpper(obj.Kind))
	if !k.IsValid() {
		return "", fmt.Errorf("edge %s -> %s: kind %q is not in the schema's EdgeKind", obj.From, obj.To, obj.Kind)
	}
	return k, nil
}
