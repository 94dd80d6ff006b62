package dgraph

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/papergraph/papergraph/graph"
)

// searchRoots is how many search hits a Selection by Search starts from,
// as in the Badger store.
const searchRoots = 10

// exportPage is how many nodes Export reads per query of the whole graph:
// at 100k generated papers, 1000 made responses of 9 MB.
const exportPage = 250

// Select returns the subgraph sel picks, as the Badger store's Select:
// the union of each root's Neighborhood (the roots alone for Hops 0),
// capped at sel.Limit nodes with the roots kept first, or the whole graph.
func (s *Store) Select(ctx context.Context, sel graph.Selection) (graph.Subgraph, error) {
	if err := sel.Validate(); err != nil {
		return graph.Subgraph{}, err
	}
	if sel.Whole() {
		var c collector
		if err := s.exportWhole(ctx, sel, &c); err != nil {
			return graph.Subgraph{}, err
		}
		c.g.Sort()
		return c.g, nil
	}
	roots, err := s.roots(ctx, sel)
	if err != nil {
		return graph.Subgraph{}, err
	}
	limit := sel.Limit
	if limit == 0 {
		limit = min(graph.DefaultNodes*len(roots), graph.MaxNodes)
	}
	ids := slices.Clone(roots)
	if sel.Hops > 0 {
		seen := map[string]bool{}
		for _, id := range roots {
			seen[id] = true
		}
		var more []string
		for _, id := range roots {
			g, err := s.neighborhood(ctx, []string{id}, graph.NeighborhoodQuery{Hops: sel.Hops, Kinds: sel.Kinds, Limit: limit})
			if err != nil {
				return graph.Subgraph{}, err
			}
			for _, n := range g.Nodes {
				if !seen[n.ID()] {
					seen[n.ID()] = true
					more = append(more, n.ID())
				}
			}
		}
		slices.Sort(more)
		ids = append(ids, more[:min(len(more), max(0, limit-len(ids)))]...)
	}
	return s.subgraph(ctx, ids)
}

// roots resolves the selection's roots to node ids.
func (s *Store) roots(ctx context.Context, sel graph.Selection) ([]string, error) {
	switch {
	case sel.Paper != "":
		if !graph.IsPaperID(sel.Paper) {
			return nil, fmt.Errorf("%w: %q is not a paper id (want %d hex digits)", graph.ErrBadID, sel.Paper, graph.PaperIDLen)
		}
		ns, err := s.nodes(ctx, []string{sel.Paper})
		if err != nil {
			return nil, err
		}
		if ns[sel.Paper] == nil {
			return nil, fmt.Errorf("paper %s: %w", sel.Paper, graph.ErrNotFound)
		}
		return []string{sel.Paper}, nil
	case sel.Entity != "":
		txn := s.dg.NewReadOnlyTxn()
		defer txn.Discard(ctx)
		e, err := resolve(ctx, txn, sel.Entity)
		if err != nil {
			return nil, err
		}
		return []string{e.ID}, nil
	default:
		hits, err := s.Search(ctx, sel.Search, searchRoots)
		if err != nil {
			return nil, err
		}
		if len(hits) == 0 {
			return nil, fmt.Errorf("search %q: %w: no paper or entity matches", sel.Search, graph.ErrNotFound)
		}
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.Node.ID()
		}
		return ids, nil
	}
}

// Export writes the subgraph sel picks to gw; the whole graph is streamed
// a page of nodes at a time (every node, then every edge), so memory stays
// bounded. Export does not call gw.Close. Unlike the Badger store's, a
// whole-graph export is not one snapshot: a write during it may show.
func (s *Store) Export(ctx context.Context, sel graph.Selection, gw graph.GraphWriter) error {
	if err := sel.Validate(); err != nil {
		return err
	}
	if sel.Whole() {
		return s.exportWhole(ctx, sel, gw)
	}
	g, err := s.Select(ctx, sel)
	if err != nil {
		return err
	}
	return graph.WriteSubgraph(gw, g)
}

// exportWhole streams every node, then every edge, keeping entities of
// sel.Kinds.
func (s *Store) exportWhole(ctx context.Context, sel graph.Selection, gw graph.GraphWriter) error {
	keep := func(k graph.Kind) bool { return len(sel.Kinds) == 0 || slices.Contains(sel.Kinds, k) }
	err := s.walk(ctx, func(n graph.Node) error {
		if n.Entity != nil && !keep(n.Entity.Kind) {
			return nil
		}
		return gw.WriteNode(n)
	})
	if err != nil {
		return fmt.Errorf("export nodes: %w", err)
	}
	var edges []graph.Edge
	err = s.walk(ctx, func(n graph.Node) error {
		edges = edges[:0]
		if p := n.Paper; p != nil {
			for _, e := range p.Entities {
				if keep(e.Kind) {
					edges = append(edges, graph.Edge{From: p.ID, To: e.ID(), Kind: edgeKind(e.Kind)})
				}
			}
		} else if keep(n.Entity.Kind) {
			for _, b := range n.Entity.Broader {
				edges = append(edges, graph.Edge{From: n.Entity.ID(), To: graph.EntityID(n.Entity.Kind, b), Kind: graph.BroaderEdge})
			}
		}
		return graph.WriteEdges(gw, edges)
	})
	if err != nil {
		return fmt.Errorf("export edges: %w", err)
	}
	return nil
}

// walk calls fn with every node in uid order, a page per query resumed
// with DQL's after: a uid cursor costs Dgraph nothing per page, where
// resuming after a pg.id read every node's id (seconds a page at 100k
// papers).
func (s *Store) walk(ctx context.Context, fn func(graph.Node) error) error {
	after := "0x0"
	for {
		var r struct{ Q []node }
		q := `query q($first: int) {
	q(func: has(pg.id), first: $first, after: ` + after + `) { ` + nodeFields + ` }
}`
		if err := s.query(ctx, q, map[string]string{"$first": strconv.Itoa(exportPage)}, &r); err != nil {
			return err
		}
		for i := range r.Q {
			n, err := r.Q[i].graphNode()
			if err != nil {
				return err
			}
			if err := fn(n); err != nil {
				return err
			}
		}
		if len(r.Q) < exportPage {
			return nil
		}
		after = r.Q[len(r.Q)-1].UID
	}
}

// collector is the GraphWriter that keeps everything: Select of the whole
// graph.
type collector struct{ g graph.Subgraph }

func (c *collector) WriteNode(n graph.Node) error { c.g.Nodes = append(c.g.Nodes, n); return nil }
func (c *collector) WriteEdge(e graph.Edge) error { c.g.Edges = append(c.g.Edges, e); return nil }
func (c *collector) Close() error                 { return nil }
