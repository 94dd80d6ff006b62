package graph

import (
	"cmp"
	"slices"
	"strings"
)

// A GraphWriter writes a graph in one format as a stream, so that the whole
// graph is exported in bounded memory. Callers write every node before any
// edge, and only edges between nodes written, then call Close, which writes
// the trailer and flushes (it does not close the underlying io.Writer).
// Package export has the writers: DOT, GraphML and Cytoscape.js.
type GraphWriter interface {
	WriteNode(Node) error
	WriteEdge(Edge) error
	Close() error
}

// Sort puts g in the order Subgraph documents: nodes by ID, edges by
// (From, To, Kind).
func (g *Subgraph) Sort() {
	slices.SortFunc(g.Nodes, func(a, b Node) int { return strings.Compare(a.ID(), b.ID()) })
	slices.SortFunc(g.Edges, CompareEdges)
}

// CompareEdges orders edges by (From, To, Kind), the order of a Subgraph's
// Edges.
func CompareEdges(a, b Edge) int {
	return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Kind, b.Kind))
}

// WriteEdges sorts edges with CompareEdges and writes them to gw, stopping
// at the first error.
func WriteEdges(gw GraphWriter, edges []Edge) error {
	slices.SortFunc(edges, CompareEdges)
	for _, e := range edges {
		if err := gw.WriteEdge(e); err != nil {
			return err
		}
	}
	return nil
}

// WriteSubgraph writes g to gw in the stream order of a whole-graph export
// (papers by id, then entities by id, then paper-entity edges, then
// taxonomy edges), so that a subgraph and the whole graph come out alike;
// the edges of each paper among g's nodes get their Evidence from it (see
// FillEvidence). It does not call gw.Close.
func WriteSubgraph(gw GraphWriter, g Subgraph) error {
	nodes := slices.Clone(g.Nodes)
	slices.SortFunc(nodes, func(a, b Node) int {
		return cmp.Or(cmp.Compare(nodeRank(a), nodeRank(b)), strings.Compare(a.ID(), b.ID()))
	})
	for _, n := range nodes {
		if err := gw.WriteNode(n); err != nil {
			return err
		}
	}
	edges := slices.Clone(g.Edges)
	slices.SortFunc(edges, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(edgeRank(a), edgeRank(b)), CompareEdges(a, b))
	})
	papers := make(map[string]*Paper)
	for _, n := range nodes {
		if n.Paper != nil {
			papers[n.Paper.ID] = n.Paper
		}
	}
	for i := 0; i < len(edges); {
		j := i + 1
		for j < len(edges) && edges[j].From == edges[i].From {
			j++
		}
		if p := papers[edges[i].From]; p != nil {
			FillEvidence(edges[i:j], p)
		}
		i = j
	}
	// Not WriteEdges, whose sort would mix the taxonomy edges back in
	// among the paper edges wherever an entity id sorts before a paper id.
	for _, e := range edges {
		if err := gw.WriteEdge(e); err != nil {
			return err
		}
	}
	return nil
}

// FillEvidence sets the Evidence of each edge of edges that links p to
// an entity: the mentions of p whose entity has the edge's target id, in
// p's order. The slices share one array per call. Other edges are left
// alone.
func FillEvidence(edges []Edge, p *Paper) {
	if len(p.Mentions) == 0 {
		return
	}
	// The mentions sorted by entity id (stably: in p's order within one),
	// so that each edge finds its run by binary search. The ids share one
	// string: a whole-graph export fills the evidence of every edge.
	buf := make([]byte, 0, 32*len(p.Mentions)) // most ids are shorter
	ends := make([]int, len(p.Mentions))
	for i, m := range p.Mentions {
		buf = AppendEntityID(buf, m.Kind, m.Entity)
		ends[i] = len(buf)
	}
	all := string(buf)
	ids := make([]string, len(ends))
	for i, end := range ends {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		ids[i] = all[start:end]
	}
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(ids[a], ids[b]) })
	evidence := make([]Mention, len(order))
	sorted := make([]string, len(order))
	for i, j := range order {
		evidence[i], sorted[i] = p.Mentions[j], ids[j]
	}
	for i := range edges {
		e := &edges[i]
		if e.From != p.ID || e.Kind == BroaderEdge {
			continue
		}
		lo, _ := slices.BinarySearch(sorted, e.To)
		hi := lo
		for hi < len(sorted) && sorted[hi] == e.To {
			hi++
		}
		if hi > lo {
			e.Evidence = evidence[lo:hi:hi]
		}
	}
}

// nodeRank puts papers before entities.
func nodeRank(n Node) int {
	if n.Paper != nil {
		return 0
	}
	return 1
}

// edgeRank puts paper-entity edges before taxonomy edges.
func edgeRank(e Edge) int {
	if e.Kind == BroaderEdge {
		return 1
	}
	return 0
}
