package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

func TestCoOccurring(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	type co struct {
		id string
		n  int
	}
	tests := []struct {
		id    string
		kind  graph.Kind
		limit int
		want  []co
	}{
		{"dataset:hub", 0, 0, []co{{"dataset:rare", 2}, {"technique:lora", 2}, {"task:question-answering", 1}}},
		{"dataset:hub", graph.Technique, 0, []co{{"technique:lora", 2}}},
		{"dataset:hub", 0, 1, []co{{"dataset:rare", 2}}},
		{"technique:lora", graph.Dataset, 0, []co{{"dataset:hub", 2}, {"dataset:rare", 1}}},
		{"dataset:osworld-g", 0, 0, nil},
	}
	for _, tt := range tests {
		got, err := s.CoOccurring(ctx, tt.id, graph.CoOccurrenceQuery{Kind: tt.kind, Limit: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		var cos []co
		for _, c := range got {
			cos = append(cos, co{c.Entity.ID(), c.Count})
		}
		if !slices.Equal(cos, tt.want) {
			t.Errorf("CoOccurring(%q, %v, %d) = %v; want %v", tt.id, tt.kind, tt.limit, cos, tt.want)
		}
	}
	if _, err := s.CoOccurring(ctx, "dataset:none", graph.CoOccurrenceQuery{Kind: 0, Limit: 1}); !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("CoOccurring(missing) error = %v; want ErrNotFound", err)
	}
	if _, err := s.CoOccurring(ctx, fxID(1), graph.CoOccurrenceQuery{Kind: 0, Limit: 1}); !errors.Is(err, graph.ErrBadID) {
		t.Errorf("CoOccurring(paper id) error = %v; want ErrBadID", err)
	}
}

func TestCoOccurringHub(t *testing.T) {
	// Big has 2502 papers: a sample of coPapers is read and scaled.
	s := openFixture(t, hubPapers())
	got, err := s.CoOccurring(context.Background(), "dataset:big", graph.CoOccurrenceQuery{Kind: 0, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Entity.ID() != "dataset:big2" || !got[0].Estimated {
		t.Fatalf("CoOccurring(big) = %+v; want big2 first, estimated", got)
	}
	// Big2 is on 2202 of Big's 2502 papers; the sample is the first 500 by
	// id, all of which have Big2, so the estimate is high but bounded.
	if n := got[0].Count; n < 2202 || n > 2502 {
		t.Errorf("CoOccurring(big) count of big2 = %d; want within [2202, 2502]", n)
	}
}
