package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Path returns a shortest path between from and to of at most maxHops
// edges (1..8), found by bidirectional breadth-first search over the same
// undirected edges as Neighborhood, all kinds (graph.ShortestPath, within
// its bounds graph.PathFanout and graph.PathChecks); ok is false when there is
// none within maxHops. Unlike other Subgraphs, it is in path order:
// Nodes[0] is from and Nodes[len-1] is to, and Edges[i] joins Nodes[i] and
// Nodes[i+1] (From and To keep the edge's own direction: paper -> entity,
// entity -> broader). It fails with ErrBadArgument for maxHops outside 1..8, ErrBadID
// for a malformed id and ErrNotFound for a missing node.
func (s *Store) Path(ctx context.Context, from, to string, maxHops int) (g graph.Subgraph, ok bool, err error) {
	if maxHops < 1 || maxHops > graph.MaxPathHops {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w: max hops %d not in 1..%d", from, to, graph.ErrBadArgument, maxHops, graph.MaxPathHops)
	}
	err = s.view(ctx, func(txn *badger.Txn) error {
		for _, id := range []string{from, to} {
			if _, err := checkNode(txn, id); err != nil {
				return err
			}
		}
		sc := newKeyScanner(txn, s.cache)
		defer sc.close()
		nodes, found, err := graph.ShortestPath(ctx, pathGraph{sc}, from, to, maxHops)
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

// pathGraph is the graph ShortestPath searches: a read transaction's
// keys, read as each node is expanded.
type pathGraph struct{ sc *keyScanner }

func (pathGraph) Level(context.Context, []string, []string) error { return nil }

var allKinds = func() (all [5]bool) {
	for _, k := range graph.Kinds {
		all[k] = true
	}
	return all
}()

func (g pathGraph) Neighbors(u string, fn func(v string) bool) error {
	return neighbors(g.sc, u, allKinds, fn)
}

// Linked checks the papers' edges by point reads.
func (g pathGraph) Linked(u string, papers []string) (string, error) {
	for _, p := range papers {
		ok, err := hasEdge(g.sc.txn, g.sc.cache, p, u)
		if err != nil || ok {
			return p, err
		}
	}
	return "", nil
}
