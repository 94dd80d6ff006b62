package dgraph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/dgo/v250"

	"github.com/papergraph/papergraph/graph"
)

// maxPathHops is the Badger store's bound on Path's maxHops.
const maxPathHops = 8

// Bounds of Path's breadth-first search, the Badger store's (see
// graph/store's Path): an entity's expansion reads its first pathFanout
// papers by id, and a hub whose papers were read only in part is checked
// for an edge to the first pathChecks nodes of the other side's frontier.
const (
	pathFanout = 256
	pathChecks = 64
)

// pathNode is a node as a level of Path's search reads it: a paper's
// entities, or an entity's broader and narrower entities, its first
// pathFanout papers and those of the other frontier it links to (hub).
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
// when there is none within maxHops. It is the Badger store's
// bidirectional breadth-first search (see graph/store's Path), run level
// by level with one DQL query per level in one read-only transaction, and
// visiting neighbours in the same order (a paper's entities by id; an
// entity's broader, then narrower entities, then its first pathFanout
// papers, each by id), so that among paths of equal length both stores
// return the same one. DQL's shortest is not used: it picks among equal
// paths in its own (uid) order, its k-shortest search, which would let
// the client pick, answered about 4 queries a second on a 10,000-paper
// graph, and on 100,000 papers shortest itself failed with "Exceeded
// query edge limit" where this search answers in a few queries.
func (s *Store) Path(ctx context.Context, from, to string, maxHops int) (graph.Subgraph, bool, error) {
	if maxHops < 1 || maxHops > maxPathHops {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w: max hops %d not in 1..%d", from, to, graph.ErrBadArgument, maxHops, maxPathHops)
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
	ids, found, err := bfsPath(ctx, txn, uids, from, to, maxHops)
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

// bfsSide is one end of the search: the parent of each node reached,
// toward the end it started from, and the last level reached.
type bfsSide struct {
	parent   map[string]string
	frontier []string
}

// bfsPath returns the ids of a shortest path from -> to, in order, as the
// Badger store's bfsPath finds it; uids maps the ids met to their uids.
func bfsPath(ctx context.Context, txn *dgo.Txn, uids map[string]string, from, to string, maxHops int) ([]string, bool, error) {
	if from == to {
		return []string{from}, true, nil
	}
	a := &bfsSide{parent: map[string]string{from: ""}, frontier: []string{from}}
	b := &bfsSide{parent: map[string]string{to: ""}, frontier: []string{to}}
	for hops := 0; hops < maxHops && len(a.frontier) > 0 && len(b.frontier) > 0; hops++ {
		side, other := a, b
		if len(b.frontier) < len(a.frontier) {
			side, other = b, a
		}
		level, err := expand(ctx, txn, uids, side.frontier, other.frontier)
		if err != nil {
			return nil, false, err
		}
		var next []string
		for _, u := range side.frontier {
			meet := ""
			n := 0
			for _, v := range level[u].neighbors() {
				uids[v.ID] = v.UID
				if _, seen := side.parent[v.ID]; !seen {
					side.parent[v.ID] = u
					next = append(next, v.ID)
					if _, hit := other.parent[v.ID]; hit {
						meet = v.ID
						break
					}
				}
				if !graph.IsPaperID(u) && graph.IsPaperID(v.ID) {
					n++
				}
				if n == pathFanout {
					break
				}
			}
			if meet == "" && n == pathFanout {
				meet = hubMeet(level[u], side, other)
			}
			if meet != "" {
				return joinPath(a, b, meet), true, nil
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		side.frontier = next
	}
	return nil, false, nil
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
// each entity the papers among the first pathChecks nodes of the other
// frontier it links to.
func expand(ctx context.Context, txn *dgo.Txn, uids map[string]string, frontier, other []string) (map[string]*pathNode, error) {
	var us, checks []string
	for _, id := range frontier {
		us = append(us, uids[id])
	}
	for i, id := range other {
		if i == pathChecks {
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
		papers: ~pg.link (orderasc: pg.id, first: %d) { uid pg.id } %s } }`, strings.Join(us, ", "), pathFanout, hub)
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

// hubMeet returns the first paper of the other side's frontier (among its
// first pathChecks nodes) that hub entity u, whose papers were read only
// in part, links to, recorded as reached from u; "" when there is none.
func hubMeet(u *pathNode, side, other *bfsSide) string {
	linked := map[string]bool{}
	for _, p := range u.Hub {
		linked[p.ID] = true
	}
	for i, p := range other.frontier {
		if i == pathChecks {
			break
		}
		if linked[p] {
			if _, seen := side.parent[p]; !seen {
				side.parent[p] = u.ID
			}
			return p
		}
	}
	return ""
}

// joinPath returns the path through meet, a node both sides reached, from
// a's start to b's start.
func joinPath(a, b *bfsSide, meet string) []string {
	var left []string
	for v := meet; v != ""; v = a.parent[v] {
		left = append(left, v)
	}
	slices.Reverse(left)
	for v := b.parent[meet]; v != ""; v = b.parent[v] {
		left = append(left, v)
	}
	return left
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
