package dgraph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

const maxNeighborhoodHops = 4

// hopQuery reads the neighbours of a frontier, each list in id order and
// cut at $first: a hub contributes only its first papers, as in the
// Badger store.
const hopQuery = `query q($first: int) {
	q(func: eq(pg.id, %s)) {
		pg.id
		pg.link (orderasc: pg.id, first: $first) { pg.id pg.kind }
		~pg.link (orderasc: pg.id, first: $first) { pg.id pg.kind }
		pg.broader (orderasc: pg.id, first: $first) { pg.id pg.kind }
		~pg.broader (orderasc: pg.id, first: $first) { pg.id pg.kind }
	}
}`

type hop struct {
	ID       string `json:"pg.id"`
	Link     []node `json:"pg.link"`
	Linked   []node `json:"~pg.link"`
	Broader  []node `json:"pg.broader"`
	Narrower []node `json:"~pg.broader"`
}

// Neighborhood returns the nodes within q.Hops of id, breadth first, as
// the Badger store's Neighborhood does (same order, cap and Truncated),
// one DQL query a hop and one for the nodes found.
func (s *Store) Neighborhood(ctx context.Context, id string, q graph.NeighborhoodQuery) (graph.Subgraph, error) {
	g, err := s.neighborhood(ctx, []string{id}, q)
	if err != nil {
		return graph.Subgraph{}, fmt.Errorf("neighborhood %s: %w", id, err)
	}
	return g, nil
}

func (s *Store) neighborhood(ctx context.Context, roots []string, q graph.NeighborhoodQuery) (graph.Subgraph, error) {
	if q.Hops < 0 || q.Hops > maxNeighborhoodHops {
		return graph.Subgraph{}, fmt.Errorf("%w: hops %d not in 1..%d", graph.ErrBadArgument, q.Hops, maxNeighborhoodHops)
	}
	limit, err := graph.NodeLimit("limit", q.Limit)
	if err != nil {
		return graph.Subgraph{}, err
	}
	for _, k := range q.Kinds {
		if !k.Valid() {
			return graph.Subgraph{}, fmt.Errorf("%w: %d", graph.ErrBadKind, uint8(k))
		}
	}
	for _, id := range roots {
		if err := checkID(id); err != nil {
			return graph.Subgraph{}, err
		}
	}
	seen := map[string]bool{}
	order := []string{}
	frontier := []string{}
	for _, id := range roots {
		if !seen[id] {
			seen[id] = true
			order = append(order, id)
			frontier = append(frontier, id)
		}
	}
	truncated := false
	for h := 0; h < q.Hops && len(frontier) > 0 && !truncated; h++ {
		slices.Sort(frontier)
		var r struct{ Q []hop }
		if err := s.query(ctx, fmt.Sprintf(hopQuery, quoteList(frontier)), map[string]string{"$first": fmt.Sprint(limit + 1)}, &r); err != nil {
			return graph.Subgraph{}, err
		}
		byID := map[string]*hop{}
		for i := range r.Q {
			byID[r.Q[i].ID] = &r.Q[i]
		}
		var next []string
	expand:
		for _, id := range frontier {
			hp := byID[id]
			if hp == nil {
				continue
			}
			var ns []node
			for _, l := range [][]node{hp.Link, hp.Linked, hp.Broader, hp.Narrower} {
				ns = append(ns, l...)
			}
			slices.SortFunc(ns, func(a, b node) int { return strings.Compare(a.ID, b.ID) })
			for _, n := range ns {
				if seen[n.ID] || n.Kind != 0 && len(q.Kinds) > 0 && !slices.Contains(q.Kinds, graph.Kind(n.Kind)) {
					continue
				}
				if len(order) >= limit {
					truncated = true
					break expand
				}
				seen[n.ID] = true
				order = append(order, n.ID)
				next = append(next, n.ID)
			}
		}
		frontier = next
	}
	if len(roots) == 1 {
		if _, ok := seen[roots[0]]; !ok {
			return graph.Subgraph{}, graph.ErrNotFound
		}
	}
	g, err := s.subgraph(ctx, order)
	if err != nil {
		return graph.Subgraph{}, err
	}
	g.Truncated = truncated
	return g, nil
}

// subgraph reads the nodes of ids and returns them with the edges between
// them, sorted as graph.Subgraph documents. A missing root is ErrNotFound.
func (s *Store) subgraph(ctx context.Context, ids []string) (graph.Subgraph, error) {
	ns, err := s.nodes(ctx, ids)
	if err != nil {
		return graph.Subgraph{}, err
	}
	var g graph.Subgraph
	in := map[string]bool{}
	for _, id := range ids {
		n := ns[id]
		if n == nil {
			return graph.Subgraph{}, fmt.Errorf("%s: %w", id, graph.ErrNotFound)
		}
		gn, err := n.graphNode()
		if err != nil {
			return graph.Subgraph{}, err
		}
		g.Nodes = append(g.Nodes, gn)
		in[id] = true
	}
	for _, n := range g.Nodes {
		switch {
		case n.Paper != nil:
			for _, e := range n.Paper.Entities {
				if in[e.ID()] {
					g.Edges = append(g.Edges, graph.Edge{From: n.Paper.ID, To: e.ID(), Kind: edgeKind(e.Kind)})
				}
			}
		default:
			for _, b := range n.Entity.Broader {
				if bid := graph.EntityID(n.Entity.Kind, b); in[bid] {
					g.Edges = append(g.Edges, graph.Edge{From: n.Entity.ID(), To: bid, Kind: graph.BroaderEdge})
				}
			}
		}
	}
	g.Sort()
	return g, nil
}
