package graph

// STUB: the export helper replaces this file with select.go, dot.go,
// graphml.go and cytoscape.go, keeping these names (it may add to them).

import (
	"context"
	"io"
)

// Selection picks a subgraph; the zero Selection is the whole graph.
type Selection struct {
	Paper  string // a paper id
	Entity string // an entity id, or kind:name resolved through aliases
	Search string // full-text query; its hits are the roots
	Hops   int
	Kinds  []Kind
	Limit  int
}

// Select returns the subgraph that sel picks.
func (s *Store) Select(ctx context.Context, sel Selection) (Subgraph, error) {
	return Subgraph{}, errNotImplemented
}

// DOTOptions configures WriteDOT.
type DOTOptions struct {
	Cluster bool // group entities by kind in cluster subgraphs
}

// WriteDOT writes g as a Graphviz DOT digraph.
func WriteDOT(w io.Writer, g Subgraph, opts DOTOptions) error { return errNotImplemented }
