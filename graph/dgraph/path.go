package dgraph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/dgo/v250"

	"github.com/papergraph/papergraph/graph"
)

// pathNode is a node as a level of Path's search reads it: a paper's
// entities, or an entity's broader and narrower entities, its first
// graph.PathFanout papers and those of the other frontier it links to
// (hub).
type pathNode struct {
	UID      string     `json:"uid"`
	ID       string     `json:"pg.id"`
	Link     []pathNode `json:"pg.link"`
	Broader  []pathNode `json:"pg.broader"`
	Narrower []pathNode `json:"narrower"`
	Papers   []pathNode `json:"papers"`
	Hub      []pathNode `json:"hub"`
}

// Path returns a shortest path between from and to of at most maxHops
// edges (1..8) over the same undirected edges as Neighborhood, ok false
// when there is none within maxHops. It is the search of the Badger
// store's Path too, graph.ShortestPath, over a pathGraph that reads each
// level with one DQL query, in one read-only transaction, so that among
// paths of equal length both stores return the same one. DQL's shortest is not used: it picks among equal
// paths in its own (uid) order, its k-shortest search, which would let
// the client pick, answered about 4 queries a second on a 10,000-paper
// graph, and on 100,000 papers shortest itself failed with "Exceeded
// query edge limit" where this search answers in a few queries.
func (s *Store) Path(ctx context.Context, from, to string, maxHops int) (graph.Subgraph, bool, error) {
	if maxHops < 1 || maxHops > graph.MaxPathHops {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w: max hops %d not in 1..%d", from, to, graph.ErrBadArgument, maxHops, graph.MaxPathHops)
	}
	for _, id := range []string{from, to} {
		if err := checkID(id); err != nil {
			return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
		}
	}
	txn := s.dg.NewReadOnlyTxn()
	defer txn.Discard(ctx)
	var r struct{ Ends []node }
	if err := queryTxn(ctx, txn, `{ ends(func: eq(pg.id, `+quoteList([]string{from, to})+`)) { uid pg.id } }`, nil, &r); err != nil {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
	}
	uids := map[string]string{}
	for _, n := range r.Ends {
		uids[n.ID] = n.UID
	}
	for _, id := range []string{from, to} {
		if uids[id] == "" {
			return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %s: %w", from, to, id, graph.ErrNotFound)
		}
	}
	ids, found, err := graph.ShortestPath(ctx, &pathGraph{txn: txn, uids: uids}, from, to, maxHops)
	if err != nil {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
	}
	if !found {
		return graph.Subgraph{}, false, nil
	}
	var nr struct{ Q []node }
	if err := queryTxn(ctx, txn, `{ q(func: eq(pg.id, `+quoteList(ids)+`)) { `+nodeFields+` } }`, nil, &nr); err != nil {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
	}
	byID := map[string]*node{}
	for i := range nr.Q {
		byID[nr.Q[i].ID] = &nr.Q[i]
	}
	var g graph.Subgraph
	for i, id := range ids {
		n := byID[id]
		if n == nil {
			return graph.Subgraph{}, false, fmt.Errorf("path %s %s: node %s: %w", from, to, id, graph.ErrNotFound)
		}
		gn, err := n.graphNode()
		if err != nil {
			return graph.Subgraph{}, false, err
		}
		g.Nodes = append(g.Nodes, gn)
		if i > 0 {
			g.Edges = append(g.Edges, edgeBetween(g.Nodes[i-1], gn))
		}
	}
	return g, true, nil
}

// pathGraph is the graph ShortestPath searches: the level it expands,
// read by one query (expand), and the uid of every id met.
type pathGraph struct {
	txn   *dgo.Txn
	uids  map[string]string
	level map[string]*pathNode
}

func (g *pathGraph) Level(ctx context.Context, frontier, other []string) error {
	var err error
	g.level, err = expand(ctx, g.txn, g.uids, frontier, other)
	return err
}

func (g *pathGraph) Neighbors(u string, fn func(v string) bool) error {
	for _, v := range g.level[u].neighbors() {
		g.uids[v.ID] = v.UID
		if !fn(v.ID) {
			break
		}
	}
	return nil
}

// Linked answers from the papers of the other frontier that expand found
// linked to u.
func (g *pathGraph) Linked(u string, papers []string) (string, error) {
	linked := map[string]bool{}
	if n := g.level[u]; n != nil {
		for _, p := range n.Hub {
			linked[p.ID] = true
		}
	}
	for _, p := range papers {
		if linked[p] {
			return p, nil
		}
	}
	return "", nil
}

// neighbors returns n's neighbours in the Badger store's order: a paper's
// entities by id; an entity's broader entities, narrower entities, then
// papers, each by id.
func (n *pathNode) neighbors() []pathNode {
	if n == nil {
		return nil
	}
	var out []pathNode
	for _, l := range [][]pathNode{n.Link, n.Broader, n.Narrower, n.Papers} {
		l = slices.Clone(l)
		slices.SortFunc(l, func(x, y pathNode) int { return strings.Compare(x.ID, y.ID) })
		out = append(out, l...)
	}
	return out
}

// expand reads the nodes of frontier (ids) with their neighbours, and for
// each entity the papers among the first graph.PathChecks nodes of the
// other frontier it links to.
func expand(ctx context.Context, txn *dgo.Txn, uids map[string]string, frontier, other []string) (map[string]*pathNode, error) {
	var us, checks []string
	for _, id := range frontier {
		us = append(us, uids[id])
	}
	for i, id := range other {
		if i == graph.PathChecks {
			break
		}
		if graph.IsPaperID(id) {
			checks = append(checks, uids[id])
		}
	}
	hub := ""
	if len(checks) > 0 {
		hub = "hub: ~pg.link @filter(uid(" + strings.Join(checks, ", ") + ")) { uid pg.id }"
	}
	q := fmt.Sprintf(`{ q(func: uid(%s)) { uid pg.id pg.link { uid pg.id } pg.broader { uid pg.id } narrower: ~pg.broader { uid pg.id }
		papers: ~pg.link (orderasc: pg.id, first: %d) { uid pg.id } %s } }`, strings.Join(us, ", "), graph.PathFanout, hub)
	var r struct{ Q []pathNode }
	if err := queryTxn(ctx, txn, q, nil, &r); err != nil {
		return nil, err
	}
	out := make(map[string]*pathNode, len(r.Q))
	for i := range r.Q {
		out[r.Q[i].ID] = &r.Q[i]
	}
	return out, nil
}

// edgeBetween returns the edge joining adjacent nodes a and b in its own
// direction: paper -> entity, entity -> broader.
func edgeBetween(a, b graph.Node) graph.Edge {
	switch {
	case a.Paper != nil:
		return graph.Edge{From: a.ID(), To: b.ID(), Kind: edgeKind(b.Entity.Kind)}
	case b.Paper != nil:
		return graph.Edge{From: b.ID(), To: a.ID(), Kind: edgeKind(a.Entity.Kind)}
	case slices.Contains(a.Entity.Broader, b.Entity.Name):
		return graph.Edge{From: a.ID(), To: b.ID(), Kind: graph.BroaderEdge}
	}
	return graph.Edge{From: b.ID(), To: a.ID(), Kind: graph.BroaderEdge}
}
