package graph

import (
	"context"
	"slices"
)

// Bounds of Path's breadth-first search in both stores: a hub entity
// linked to a third of the papers would put them all in the frontier.
// Expanding an entity reads at most PathFanout of its papers; so that a
// path through the hub to a small frontier on the other side is still
// found, the first PathChecks nodes of that frontier are checked for an
// edge to the hub (a large frontier meets the hub's first papers anyway,
// and checking it all would cost more than the search). A shortest path
// that needs a paper beyond a hub's first PathFanout may be missed: a
// longer one is returned, or none.
const (
	MaxPathHops = 8
	PathFanout  = 256
	PathChecks  = 64
)

// PathGraph is what ShortestPath reads of a store: the Badger store reads
// keys as it goes, the Dgraph store a level per query.
type PathGraph interface {
	// Level is called before a frontier is expanded, with the other
	// side's: a store that reads a level at a time reads it here.
	Level(ctx context.Context, frontier, other []string) error
	// Neighbors calls fn with each neighbour of u, in the order that
	// decides among equally short paths (a paper's entities by id; an
	// entity's broader entities, narrower entities, then papers, each by
	// id), until fn returns false.
	Neighbors(u string, fn func(v string) bool) error
	// Linked returns the first paper of papers that entity u links to, ""
	// when none does.
	Linked(u string, papers []string) (string, error)
}

// ShortestPath returns the ids of a shortest path from -> to of at most
// maxHops edges, in order, found by bidirectional breadth-first search
// over g (expanding the smaller frontier, a's on a tie), and whether there
// is one. Both stores answer Path with it, so that of several shortest
// paths they return the same one.
func ShortestPath(ctx context.Context, g PathGraph, from, to string, maxHops int) ([]string, bool, error) {
	if from == to {
		return []string{from}, true, nil
	}
	a := &bfsSide{parent: map[string]string{from: ""}, frontier: []string{from}}
	b := &bfsSide{parent: map[string]string{to: ""}, frontier: []string{to}}
	for hops := 0; hops < maxHops && len(a.frontier) > 0 && len(b.frontier) > 0; hops++ {
		// Expanding the smaller frontier keeps the two searches balanced,
		// which is what makes bidirectional search cheap.
		side, other := a, b
		if len(b.frontier) < len(a.frontier) {
			side, other = b, a
		}
		if err := g.Level(ctx, side.frontier, other.frontier); err != nil {
			return nil, false, err
		}
		var next []string
		for _, u := range side.frontier {
			meet := ""
			n := 0
			err := g.Neighbors(u, func(v string) bool {
				if _, seen := side.parent[v]; !seen {
					side.parent[v] = u
					next = append(next, v)
					if _, hit := other.parent[v]; hit {
						meet = v
						return false
					}
				}
				if !IsPaperID(u) && IsPaperID(v) {
					n++
				}
				return n < PathFanout
			})
			if err != nil {
				return nil, false, err
			}
			if meet == "" && n == PathFanout {
				if meet, err = hubMeet(g, u, side, other); err != nil {
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

// bfsSide is one end of a bidirectional search: the parent of each node
// reached, toward the end it started from, and the last level reached.
type bfsSide struct {
	parent   map[string]string
	frontier []string
}

// hubMeet checks whether hub entity u, whose papers were read only in
// part, links to a paper among the first PathChecks nodes of the other
// side's frontier; it returns that paper, recorded as reached from u, or
// "".
func hubMeet(g PathGraph, u string, side, other *bfsSide) (string, error) {
	var papers []string
	for i, p := range other.frontier {
		if i == PathChecks {
			break
		}
		if IsPaperID(p) {
			papers = append(papers, p)
		}
	}
	p, err := g.Linked(u, papers)
	if err != nil || p == "" {
		return "", err
	}
	if _, seen := side.parent[p]; !seen {
		side.parent[p] = u
	}
	return p, nil
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
