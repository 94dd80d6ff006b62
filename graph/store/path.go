package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Bounds of Path's work: a hub entity linked to a third of the papers
// would put them all in the frontier. Expanding an entity reads at most
// pathFanout of its papers; so that a path through the hub to a small
// frontier on the other side is still found, the first pathChecks papers of
// that frontier are checked for an edge to the hub by point reads (a large
// frontier meets the hub's first papers anyway, and checking it all would
// cost more than the search). A shortest path that needs a paper beyond a
// hub's first pathFanout may be missed: a longer one is returned, or none.
const (
	maxPathHops = 8
	pathFanout  = 256
	pathChecks  = 64
)

// Path returns a shortest path between from and to of at most maxHops
// edges (1..8), found by bidirectional breadth-first search over the same
// undirected edges as Neighborhood, all kinds; ok is false when there is
// none within maxHops. Unlike other Subgraphs, it is in path order:
// Nodes[0] is from and Nodes[len-1] is to, and Edges[i] joins Nodes[i] and
// Nodes[i+1] (From and To keep the edge's own direction: paper -> entity,
// entity -> broader). It fails with ErrBadArgument for maxHops outside 1..8, ErrBadID
// for a malformed id and ErrNotFound for a missing node.
func (s *Store) Path(ctx context.Context, from, to string, maxHops int) (g graph.Subgraph, ok bool, err error) {
	if maxHops < 1 || maxHops > maxPathHops {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w: max hops %d not in 1..%d", from, to, graph.ErrBadArgument, maxHops, maxPathHops)
	}
	err = s.view(ctx, func(txn *badger.Txn) error {
		for _, id := range []string{from, to} {
			if _, err := checkNode(txn, id); err != nil {
				return err
			}
		}
		sc := newKeyScanner(txn, s.cache)
		defer sc.close()
		nodes, found, err := bfsPath(ctx, sc, from, to, maxHops)
		if err != nil || !found {
			return err
		}
		ok = true
		in := make(map[string]bool, len(nodes))
		for _, n := range nodes {
			in[n] = true
		}
		g = graph.Subgraph{}
		for _, id := range nodes {
			n, err := readNode(txn, s.cache, id)
			if err != nil {
				return err
			}
			g.Nodes = append(g.Nodes, n)
		}
		for i := 1; i < len(nodes); i++ {
			e, err := pathEdge(txn, nodes[i-1], nodes[i])
			if err != nil {
				return err
			}
			g.Edges = append(g.Edges, e)
		}
		return nil
	})
	if err != nil {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
	}
	return g, ok, nil
}

// pathEdge returns the edge between adjacent path nodes a and b in its
// stored direction.
func pathEdge(txn *badger.Txn, a, b string) (graph.Edge, error) {
	switch {
	case graph.IsPaperID(a):
		return graph.Edge{From: a, To: b, Kind: entityKind(b).String()}, nil
	case graph.IsPaperID(b):
		return graph.Edge{From: b, To: a, Kind: entityKind(a).String()}, nil
	}
	up, err := has(txn, broaderKey(a, b))
	if err != nil {
		return graph.Edge{}, err
	}
	if up {
		return graph.Edge{From: a, To: b, Kind: graph.BroaderEdge}, nil
	}
	return graph.Edge{From: b, To: a, Kind: graph.BroaderEdge}, nil
}

// bfsSide is one end of a bidirectional search: the parent of each node
// reached, toward the end it started from, and the last level reached.
type bfsSide struct {
	parent   map[string]string
	frontier []string
}

// bfsPath returns the nodes of a shortest path from -> to, in order.
func bfsPath(ctx context.Context, sc *keyScanner, from, to string, maxHops int) ([]string, bool, error) {
	if from == to {
		return []string{from}, true, nil
	}
	a := &bfsSide{parent: map[string]string{from: ""}, frontier: []string{from}}
	b := &bfsSide{parent: map[string]string{to: ""}, frontier: []string{to}}
	all := [5]bool{}
	for _, k := range graph.Kinds {
		all[k] = true
	}
	for hops := 0; hops < maxHops && len(a.frontier) > 0 && len(b.frontier) > 0; hops++ {
		// Expanding the smaller frontier keeps the two searches balanced,
		// which is what makes bidirectional search cheap.
		side, other := a, b
		if len(b.frontier) < len(a.frontier) {
			side, other = b, a
		}
		var next []string
		meet := ""
		for _, u := range side.frontier {
			n := 0
			err := neighbors(sc, u, all, func(v string) bool {
				if _, seen := side.parent[v]; !seen {
					side.parent[v] = u
					next = append(next, v)
					if _, hit := other.parent[v]; hit {
						meet = v
						return false
					}
				}
				if !graph.IsPaperID(u) && graph.IsPaperID(v) {
					n++
				}
				return n < pathFanout
			})
			if err != nil {
				return nil, false, err
			}
			if meet == "" && n == pathFanout {
				if meet, err = hubMeet(sc, u, side, other); err != nil {
					return nil, false, err
				}
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

// hubMeet checks whether hub entity u, whose papers were read only in part,
// links to a paper of the other side's frontier; it returns that paper,
// recorded as reached from u, or "".
func hubMeet(sc *keyScanner, u string, side, other *bfsSide) (string, error) {
	for i, p := range other.frontier {
		if i == pathChecks {
			break
		}
		if !graph.IsPaperID(p) {
			continue
		}
		ok, err := hasEdge(sc.txn, sc.cache, p, u)
		if err != nil {
			return "", err
		}
		if ok {
			if _, seen := side.parent[p]; !seen {
				side.parent[p] = u
			}
			return p, nil
		}
	}
	return "", nil
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
