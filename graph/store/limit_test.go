package store

import (
	"context"
	"errors"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// TestLimitPolicy checks that every list and subgraph of the store follows
// the one policy of graph.DefaultLimit: 0 is the default, a negative bound
// or one above the maximum is ErrBadArgument, the maximum itself is fine.
func TestLimitPolicy(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	paper := fxID(1)
	calls := []struct {
		name string
		max  int
		call func(n int) error
	}{
		{"Sharing", graph.MaxLimit, func(n int) error {
			_, err := s.Sharing(ctx, paper, graph.SharingQuery{Limit: n})
			return err
		}},
		{"Search", graph.MaxLimit, func(n int) error {
			_, err := s.Search(ctx, "zebra", n)
			return err
		}},
		{"CoOccurring", graph.MaxLimit, func(n int) error {
			_, err := s.CoOccurring(ctx, "dataset:hub", graph.CoOccurrenceQuery{Limit: n})
			return err
		}},
		{"ListPapers", graph.MaxLimit, func(n int) error {
			_, err := s.ListPapers(ctx, graph.PaperQuery{First: n})
			return err
		}},
		{"ListEntities", graph.MaxLimit, func(n int) error {
			_, err := s.ListEntities(ctx, graph.EntityQuery{First: n})
			return err
		}},
		{"PapersOf", graph.MaxLimit, func(n int) error {
			_, err := s.PapersOf(ctx, graph.PageOf{Entity: "dataset:hub", First: n})
			return err
		}},
		{"Neighborhood", graph.MaxNodes, func(n int) error {
			_, err := s.Neighborhood(ctx, "dataset:hub", graph.NeighborhoodQuery{Hops: 1, Limit: n})
			return err
		}},
		{"Select", graph.MaxNodes, func(n int) error {
			_, err := s.Select(ctx, graph.Selection{Entity: "dataset:hub", Hops: 1, Limit: n})
			return err
		}},
	}
	for _, c := range calls {
		for _, n := range []int{-1, 0, 1, c.max, c.max + 1} {
			err := c.call(n)
			if bad := n < 0 || n > c.max; bad != errors.Is(err, graph.ErrBadArgument) || !bad && err != nil {
				t.Errorf("%s(limit %d) = %v; want ErrBadArgument: %v", c.name, n, err, bad)
			}
		}
	}
}

// TestReadsHonourContext checks that the point reads, like the
// traversals, give up on a context that has ended.
func TestReadsHonourContext(t *testing.T) {
	s := openFixture(t, fixture())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	paper := fxID(1)
	for name, call := range map[string]func() error{
		"Paper":    func() error { _, err := s.Paper(ctx, paper); return err },
		"Papers":   func() error { _, err := s.Papers(ctx, []string{paper}); return err },
		"Entity":   func() error { _, err := s.Entity(ctx, "dataset:hub"); return err },
		"Entities": func() error { _, err := s.Entities(ctx, []string{"dataset:hub"}); return err },
		"Lookup":   func() error { _, err := s.Lookup(ctx, graph.Dataset, "Hub"); return err },
		"Select":   func() error { _, err := s.Select(ctx, graph.Selection{Entity: "dataset:hub", Hops: 1}); return err },
	} {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s(canceled ctx) = %v; want context.Canceled", name, err)
		}
	}
}
