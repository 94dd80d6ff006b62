package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/graph"
)

func subgraphIDs(g graph.Subgraph) []string {
	var out []string
	for _, n := range g.Nodes {
		out = append(out, n.ID())
	}
	return out
}

func pe(paper int, entity, kind string) graph.Edge {
	return graph.Edge{From: fxID(paper), To: entity, Kind: kind}
}

func TestNeighborhood(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		name      string
		id        string
		q         graph.NeighborhoodQuery
		wantNodes []string
		wantEdges []graph.Edge
	}{
		{"paper 1 hop", fxID(2), graph.NeighborhoodQuery{Hops: 1},
			[]string{fxID(2), "dataset:rare"},
			[]graph.Edge{pe(2, "dataset:rare", "dataset")}},
		{"paper 2 hops", fxID(2), graph.NeighborhoodQuery{Hops: 2},
			[]string{fxID(1), fxID(2), fxID(4), "dataset:rare"},
			[]graph.Edge{pe(1, "dataset:rare", "dataset"), pe(2, "dataset:rare", "dataset"), pe(4, "dataset:rare", "dataset")}},
		{"kinds", fxID(1), graph.NeighborhoodQuery{Hops: 2, Kinds: []graph.Kind{graph.Technique}},
			[]string{fxID(1), fxID(6), "technique:lora"},
			[]graph.Edge{pe(1, "technique:lora", "technique"), pe(6, "technique:lora", "technique")}},
		{"limit on a hub", "dataset:hub", graph.NeighborhoodQuery{Hops: 1, Limit: 5},
			[]string{fxID(1), fxID(3), fxID(4), fxID(5), "dataset:hub"},
			[]graph.Edge{pe(1, "dataset:hub", "dataset"), pe(3, "dataset:hub", "dataset"), pe(4, "dataset:hub", "dataset"), pe(5, "dataset:hub", "dataset")}},
		{"taxonomy", "dataset:osworld-g", graph.NeighborhoodQuery{Hops: 1},
			[]string{fxID(20), fxID(23), "dataset:osworld", "dataset:osworld-g"},
			[]graph.Edge{pe(20, "dataset:osworld-g", "dataset"), pe(23, "dataset:osworld-g", "dataset"),
				{From: "dataset:osworld-g", To: "dataset:osworld", Kind: graph.BroaderEdge}}},
		{"taxonomy 2 hops", "dataset:osworld", graph.NeighborhoodQuery{Hops: 2},
			[]string{fxID(20), fxID(21), fxID(22), fxID(23), "dataset:osworld", "dataset:osworld-g", "dataset:osworld-verified"},
			[]graph.Edge{pe(20, "dataset:osworld-g", "dataset"), pe(21, "dataset:osworld-verified", "dataset"),
				pe(22, "dataset:osworld", "dataset"), pe(23, "dataset:osworld-g", "dataset"),
				{From: "dataset:osworld-g", To: "dataset:osworld", Kind: graph.BroaderEdge},
				{From: "dataset:osworld-verified", To: "dataset:osworld", Kind: graph.BroaderEdge}}},
		{"isolated", fxID(30), graph.NeighborhoodQuery{Hops: 3}, []string{fxID(30)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := s.Neighborhood(ctx, tt.id, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if ids := subgraphIDs(g); !slices.Equal(ids, tt.wantNodes) {
				t.Errorf("Neighborhood(%q, %+v) nodes = %v; want %v", tt.id, tt.q, ids, tt.wantNodes)
			}
			if diff := gocmp.Diff(tt.wantEdges, g.Edges); diff != "" {
				t.Errorf("Neighborhood(%q, %+v) edges (-want +got):\n%s", tt.id, tt.q, diff)
			}
		})
	}
}

func TestNeighborhoodErrors(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		id   string
		hops int
		want error
	}{
		{fxID(1), 0, graph.ErrBadArgument},
		{fxID(1), 5, graph.ErrBadArgument},
		{"nope", 1, graph.ErrBadID},
		{fxID(99), 1, graph.ErrNotFound},
		{"dataset:none", 1, graph.ErrNotFound},
	}
	for _, tt := range tests {
		if _, err := s.Neighborhood(ctx, tt.id, graph.NeighborhoodQuery{Hops: tt.hops}); !errors.Is(err, tt.want) {
			t.Errorf("Neighborhood(%q, hops %d) error = %v; want %v", tt.id, tt.hops, err, tt.want)
		}
	}
}
