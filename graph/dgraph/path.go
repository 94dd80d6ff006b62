package dgraph

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// maxPathHops is the Badger store's bound on Path's maxHops.
const maxPathHops = 8

// pathCandidates is how many shortest paths Dgraph returns (numpaths).
// More would let Path pick the one the Badger store finds among paths of
// equal length, but Dgraph's k-shortest search is far slower than its
// shortest: on a 10,000-paper graph numpaths 8 answered about 4 queries a
// second.
const pathCandidates = 1

// pathQuery is Path in DQL: shortest over paper-entity and taxonomy edges
// both ways, at most $depth edges.
const pathQuery = `query q($from: string, $to: string, $depth: int, $k: int) {
	A as var(func: eq(pg.id, $from))
	B as var(func: eq(pg.id, $to))
	ends(func: uid(A, B)) { pg.id }
	path as shortest(from: uid(A), to: uid(B), depth: $depth, numpaths: $k) {
		pg.link
		~pg.link
		pg.broader
		~pg.broader
	}
	first(func: uid(path)) { uid }
}`

// Path returns a shortest path between from and to of at most maxHops
// edges (1..8), found by DQL's shortest over the same undirected edges as
// Neighborhood; ok is false when there is none. It is in path order, as
// the Badger store's (see graph/store's Path), and as short, but of
// several shortest paths Dgraph picks one of its own (in uid order), where
// the Badger store's breadth-first search keeps the one first in id
// order.
func (s *Store) Path(ctx context.Context, from, to string, maxHops int) (graph.Subgraph, bool, error) {
	if maxHops < 1 || maxHops > maxPathHops {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w: max hops %d not in 1..%d", from, to, graph.ErrBadArgument, maxHops, maxPathHops)
	}
	for _, id := range []string{from, to} {
		if err := checkID(id); err != nil {
			return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
		}
	}
	var r struct {
		Ends []node
		Path []map[string]any `json:"_path_"`
	}
	vars := map[string]string{"$from": from, "$to": to, "$depth": strconv.Itoa(maxHops), "$k": strconv.Itoa(pathCandidates)}
	if err := s.query(ctx, pathQuery, vars, &r); err != nil {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
	}
	have := map[string]bool{}
	for _, n := range r.Ends {
		have[n.ID] = true
	}
	for _, id := range []string{from, to} {
		if !have[id] {
			return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %s: %w", from, to, id, graph.ErrNotFound)
		}
	}
	if from == to {
		return graph.Subgraph{}, false, nil
	}
	// The nodes of every path: the query's uid(path) holds only the
	// first path's.
	var uids [][]string
	all := map[string]bool{}
	for _, p := range r.Path {
		var seq []string
		for cur := p; cur != nil; {
			uid, _ := cur["uid"].(string)
			seq = append(seq, uid)
			all[uid] = true
			var next map[string]any
			for _, pred := range []string{"pg.link", "~pg.link", "pg.broader", "~pg.broader"} {
				if v, ok := cur[pred]; ok {
					next = first(v)
					break
				}
			}
			cur = next
		}
		uids = append(uids, seq)
	}
	byUID, err := s.nodesByUID(ctx, all)
	if err != nil {
		return graph.Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
	}
	var best []*node
	for _, us := range uids {
		var seq []*node
		for _, u := range us {
			if n := byUID[u]; n != nil {
				seq = append(seq, n)
			}
		}
		if len(seq) != len(us) || len(seq) < 2 || len(seq)-1 > maxHops {
			continue
		}
		if best == nil || len(seq) < len(best) || len(seq) == len(best) && slices.CompareFunc(seq, best, func(a, b *node) int {
			return strings.Compare(a.ID, b.ID)
		}) < 0 {
			best = seq
		}
	}
	if best == nil {
		return graph.Subgraph{}, false, nil
	}
	var g graph.Subgraph
	for i, n := range best {
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

// first returns a path step's next node: Dgraph gives one object, or a
// list of one.
func first(v any) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		return v
	case []any:
		if len(v) > 0 {
			m, _ := v[0].(map[string]any)
			return m
		}
	}
	return nil
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

// nodesByUID reads the nodes of uids, by uid.
func (s *Store) nodesByUID(ctx context.Context, uids map[string]bool) (map[string]*node, error) {
	list := make([]string, 0, len(uids))
	for u := range uids {
		if !strings.HasPrefix(u, "0x") {
			return nil, fmt.Errorf("dql: bad uid %q in a path", u)
		}
		list = append(list, u)
	}
	out := make(map[string]*node, len(list))
	if len(list) == 0 {
		return out, nil
	}
	var r struct{ Q []node }
	if err := s.query(ctx, `{ q(func: uid(`+strings.Join(list, ", ")+`)) { `+nodeFields+` } }`, nil, &r); err != nil {
		return nil, err
	}
	for i := range r.Q {
		out[r.Q[i].UID] = &r.Q[i]
	}
	return out, nil
}
