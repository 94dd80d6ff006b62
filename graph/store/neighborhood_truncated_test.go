package store

import (
	"context"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// TestNeighborhoodTruncated checks that Truncated says exactly when the
// node cap left nodes out.
func TestNeighborhoodTruncated(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	for _, id := range []string{"dataset:rare", "dataset:hub", fxID(1)} {
		for _, hops := range []int{1, 2} {
			full, err := s.Neighborhood(ctx, id, graph.NeighborhoodQuery{Hops: hops, Limit: graph.MaxNodes})
			if err != nil {
				t.Fatal(err)
			}
			n := len(full.Nodes)
			if full.Truncated || n < 2 {
				t.Fatalf("Neighborhood(%s, %d) = %d nodes, truncated %v; want the whole of at least 2", id, hops, n, full.Truncated)
			}
			for _, tt := range []struct {
				limit int
				want  bool
			}{{n, false}, {n - 1, true}, {1, true}} {
				g, err := s.Neighborhood(ctx, id, graph.NeighborhoodQuery{Hops: hops, Limit: tt.limit})
				if err != nil {
					t.Fatal(err)
				}
				if g.Truncated != tt.want || len(g.Nodes) != tt.limit {
					t.Errorf("Neighborhood(%s, %d, limit %d) = %d nodes, truncated %v; want %d, %v", id, hops, tt.limit, len(g.Nodes), g.Truncated, tt.limit, tt.want)
				}
			}
		}
	}
}
