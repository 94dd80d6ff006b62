package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// pathOrder returns the nodes of path g from from, following its edges;
// it fails the test if g is not a simple path from from.
func pathOrder(t *testing.T, g graph.Subgraph, from string) []string {
	t.Helper()
	adj := make(map[string][]string)
	for _, e := range g.Edges {
		adj[e.From] = append(adj[e.From], e.To)
		adj[e.To] = append(adj[e.To], e.From)
	}
	order := []string{from}
	seen := map[string]bool{from: true}
	for {
		var next []string
		for _, v := range adj[order[len(order)-1]] {
			if !seen[v] {
				next = append(next, v)
			}
		}
		if len(next) == 0 {
			break
		}
		if len(next) > 1 {
			t.Fatalf("path %v branches at %s", g.Edges, order[len(order)-1])
		}
		seen[next[0]] = true
		order = append(order, next[0])
	}
	if len(order) != len(g.Nodes) || len(g.Edges) != len(g.Nodes)-1 {
		t.Fatalf("path nodes %v edges %v: not a simple path from %s", subgraphIDs(g), g.Edges, from)
	}
	return order
}

func TestPath(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		from, to string
		maxHops  int
		want     []string // nil: none; else the nodes in order, "*" for any node
	}{
		{fxID(2), fxID(4), 4, []string{fxID(2), "dataset:rare", fxID(4)}},
		{fxID(2), fxID(3), 4, []string{fxID(2), "dataset:rare", "*", "dataset:hub", fxID(3)}},
		{fxID(2), fxID(3), 3, nil},
		{fxID(20), fxID(21), 8, []string{fxID(20), "dataset:osworld-g", "dataset:osworld", "dataset:osworld-verified", fxID(21)}},
		{"dataset:rare", "dataset:hub", 2, []string{"dataset:rare", "*", "dataset:hub"}},
		{"dataset:rare", "technique:lora", 8, []string{"dataset:rare", fxID(1), "technique:lora"}},
		{fxID(2), fxID(30), 8, nil},
		{fxID(2), fxID(2), 1, []string{fxID(2)}},
	}
	for _, tt := range tests {
		g, ok, err := s.Path(ctx, tt.from, tt.to, tt.maxHops)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (tt.want != nil) {
			t.Errorf("Path(%q, %q, %d) ok = %v; want %v", tt.from, tt.to, tt.maxHops, ok, tt.want != nil)
			continue
		}
		if !ok {
			continue
		}
		got := pathOrder(t, g, tt.from)
		match := len(got) == len(tt.want)
		for i := 0; match && i < len(got); i++ {
			match = tt.want[i] == "*" || tt.want[i] == got[i]
		}
		if !match {
			t.Errorf("Path(%q, %q, %d) = %v; want %v", tt.from, tt.to, tt.maxHops, got, tt.want)
		}
		if ids := subgraphIDs(g); !slices.Equal(ids, got) {
			t.Errorf("Path(%q, %q) nodes %v; want them in path order %v", tt.from, tt.to, ids, got)
		}
		for i, e := range g.Edges {
			a, b := g.Nodes[i].ID(), g.Nodes[i+1].ID()
			if (e.From != a || e.To != b) && (e.From != b || e.To != a) {
				t.Errorf("Path(%q, %q) edge %d = %v; want it between %s and %s", tt.from, tt.to, i, e, a, b)
			}
		}
	}
	for _, hops := range []int{0, 9} {
		if _, _, err := s.Path(ctx, fxID(1), fxID(2), hops); !errors.Is(err, graph.ErrBadArgument) {
			t.Errorf("Path(max hops %d) error = %v; want ErrBadArgument", hops, err)
		}
	}
	if _, _, err := s.Path(ctx, fxID(1), "bad", 2); !errors.Is(err, graph.ErrBadID) {
		t.Errorf("Path(to bad) error = %v; want ErrBadID", err)
	}
	if _, _, err := s.Path(ctx, fxID(1), fxID(99), 2); !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("Path(to missing) error = %v; want ErrNotFound", err)
	}
}

func TestPathThroughHub(t *testing.T) {
	// Papers 2599 and 2598 meet only through Big, linked to 2502 papers:
	// more than graph.PathFanout, and 2598 is not among the first. Within 2 hops
	// the search expands Big from 2599's side only, so the meeting must be
	// found by checking 2598 with a point read.
	s := openFixture(t, hubPapers())
	g, ok, err := s.Path(context.Background(), fxID(2599), fxID(2598), 2)
	if err != nil || !ok {
		t.Fatalf("Path(2599, 2598, 2) = %v, %v; want a path", ok, err)
	}
	if got, want := pathOrder(t, g, fxID(2599)), []string{fxID(2599), "dataset:big", fxID(2598)}; !slices.Equal(got, want) {
		t.Errorf("Path(2599, 2598, 2) = %v; want %v", got, want)
	}
}
