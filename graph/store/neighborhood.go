package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// maxNeighborhoodHops bounds NeighborhoodQuery.Hops: four hops from a
// paper reach most of a connected graph already.
const maxNeighborhoodHops = 4

// Neighborhood returns the nodes within q.Hops of id, breadth first,
// following paper-entity edges both ways and taxonomy edges both ways,
// through papers and entities of q.Kinds only (the start node is always
// included), and the edges between them. Once q.Limit nodes are reached it
// stops, so a hub contributes only its first papers in id order, and
// Truncated reports that nodes were left out. Nodes are
// sorted by ID, edges by (From, To, Kind). It fails with ErrBadArgument
// for hops outside 1..4, ErrBadID for a malformed id and ErrNotFound for a
// missing node.
func (s *Store) Neighborhood(ctx context.Context, id string, q graph.NeighborhoodQuery) (graph.Subgraph, error) {
	var g graph.Subgraph
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		g, err = s.neighborhood(ctx, txn, id, q)
		return err
	})
	return g, err
}

// neighborhood serves Neighborhood, and Select for each root, in txn.
func (s *Store) neighborhood(ctx context.Context, txn *badger.Txn, id string, q graph.NeighborhoodQuery) (graph.Subgraph, error) {
	g, err := s.neighborhoodIn(ctx, txn, id, q)
	if err != nil {
		return graph.Subgraph{}, fmt.Errorf("neighborhood %s: %w", id, err)
	}
	return g, nil
}

func (s *Store) neighborhoodIn(ctx context.Context, txn *badger.Txn, id string, q graph.NeighborhoodQuery) (graph.Subgraph, error) {
	if q.Hops < 1 || q.Hops > maxNeighborhoodHops {
		return graph.Subgraph{}, fmt.Errorf("%w: hops %d not in 1..%d", graph.ErrBadArgument, q.Hops, maxNeighborhoodHops)
	}
	kinds, err := kindSet(q.Kinds, nil)
	if err != nil {
		return graph.Subgraph{}, err
	}
	limit, err := graph.NodeLimit("limit", q.Limit)
	if err != nil {
		return graph.Subgraph{}, err
	}
	if _, err := checkNode(txn, id); err != nil {
		return graph.Subgraph{}, err
	}
	r := &nodeReader{txn: txn, sc: newKeyScanner(txn, s.cache), nodes: make(map[string]graph.Node)}
	defer r.sc.close()
	seen := map[string]bool{id: true}
	nodes := []string{id}
	frontier := []string{id}
	// truncated: a node beyond the limit was met. The traversal goes on
	// past the limit until it meets one, so that a neighbourhood of
	// exactly limit nodes is not reported cut.
	truncated := false
	for hop := 0; hop < q.Hops && len(frontier) > 0 && !truncated; hop++ {
		var next []string
		for _, u := range frontier {
			err := r.neighbors(u, kinds, func(v string) bool {
				if !seen[v] {
					if len(nodes) == limit {
						truncated = true
						return false
					}
					seen[v] = true
					nodes = append(nodes, v)
					next = append(next, v)
				}
				return true
			})
			if err != nil {
				return graph.Subgraph{}, err
			}
			if truncated {
				break
			}
		}
		if err := ctx.Err(); err != nil {
			return graph.Subgraph{}, err
		}
		frontier = next
	}
	g, err := r.subgraph(nodes, seen)
	g.Truncated = truncated
	return g, err
}

// neighbors calls fn with each neighbour of node u of an allowed kind
// (papers always are) until fn returns false: a paper's entities, or an
// entity's broader entities, narrower entities, then papers.
func neighbors(sc *keyScanner, u string, kinds [5]bool, fn func(v string) bool) error {
	if graph.IsPaperID(u) {
		ids, err := paperEdges(sc.txn, sc.cache, u)
		for _, v := range ids {
			if kinds[entityKind(v)] && !fn(v) {
				break
			}
		}
		return err
	}
	more := true
	for _, prefix := range []byte{prefixBroader, prefixNarrower} {
		p := taxonomyPrefix(prefix, u)
		sc.scan(p, nil, func(k []byte, _ *badger.Item) bool {
			v := taxonomyTarget(p, k)
			more = !kinds[entityKind(v)] || fn(v)
			return more
		})
		if !more {
			return nil
		}
	}
	return sc.eachPosting(u, func(pid paperKeyID) bool { return fn(string(pid[:])) })
}

// nodeReader reads the records of a traversal's nodes once each. A
// record gives the node's edges too: a paper's entity references and an
// entity's broader names are written in the same transaction as its edges
// (0x03, 0x08), and reading them costs a point read where a scan of the
// edges would cost a seek, several times more at 100k papers.
type nodeReader struct {
	txn   *badger.Txn
	sc    *keyScanner
	nodes map[string]graph.Node
}

func (r *nodeReader) node(id string) (graph.Node, error) {
	if n, ok := r.nodes[id]; ok {
		return n, nil
	}
	n, err := readNode(r.txn, r.sc.cache, id)
	if err != nil {
		return graph.Node{}, err
	}
	r.nodes[id] = n
	return n, nil
}

// neighbors calls fn with each neighbour of node u of an allowed kind
// (papers always are) until fn returns false: a paper's entities, or an
// entity's broader entities, narrower entities, then papers in id order.
func (r *nodeReader) neighbors(u string, kinds [5]bool, fn func(v string) bool) error {
	n, err := r.node(u)
	if err != nil {
		return err
	}
	if n.Paper != nil {
		for _, e := range n.Paper.Entities {
			if kinds[e.Kind] && !fn(e.ID()) {
				return nil
			}
		}
		return nil
	}
	e := n.Entity
	if kinds[e.Kind] {
		for _, b := range e.Broader {
			if !fn(graph.EntityID(e.Kind, b)) {
				return nil
			}
		}
	}
	more := true
	p := taxonomyPrefix(prefixNarrower, u)
	r.sc.scan(p, nil, func(k []byte, _ *badger.Item) bool {
		v := taxonomyTarget(p, k)
		more = !kinds[entityKind(v)] || fn(v)
		return more
	})
	if !more {
		return nil
	}
	return r.sc.eachPosting(u, func(pid paperKeyID) bool { return fn(string(pid[:])) })
}

// subgraph returns nodes with their records and the edges between members
// of in, read from the records.
func (r *nodeReader) subgraph(nodes []string, in map[string]bool) (graph.Subgraph, error) {
	slices.Sort(nodes)
	g := graph.Subgraph{Nodes: make([]graph.Node, 0, len(nodes))}
	for _, id := range nodes {
		n, err := r.node(id)
		if err != nil {
			return graph.Subgraph{}, err
		}
		g.Nodes = append(g.Nodes, n)
		if n.Paper != nil {
			for _, e := range n.Paper.Entities {
				if v := e.ID(); in[v] {
					g.Edges = append(g.Edges, graph.Edge{From: id, To: v, Kind: e.Kind.String()})
				}
			}
			continue
		}
		for _, b := range n.Entity.Broader {
			if v := graph.EntityID(n.Entity.Kind, b); in[v] && v != id {
				g.Edges = append(g.Edges, graph.Edge{From: id, To: v, Kind: graph.BroaderEdge})
			}
		}
	}
	sortEdges(g.Edges)
	return g, nil
}

func sortEdges(es []graph.Edge) {
	slices.SortFunc(es, func(a, b graph.Edge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Kind, b.Kind))
	})
}
