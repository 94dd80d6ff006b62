package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

func TestStats(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := graph.Stats{Entities: map[graph.Kind]int{graph.Task: 0, graph.Modality: 0, graph.Dataset: 0, graph.Technique: 0}}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("Stats() of an empty store mismatch (-want +got):\n%s", diff)
	}
	papers := corpus.Papers(1, 300, 40)
	put(t, s, papers...)
	want = graph.Stats{Papers: 300, Entities: map[graph.Kind]int{}}
	ids := map[string]bool{}
	for _, p := range papers {
		want.Edges += len(p.Entities)
		for _, e := range p.Entities {
			for _, id := range append([]string{e.ID()}, broaderIDs(e)...) {
				if !ids[id] {
					ids[id] = true
					want.Entities[e.Kind]++
				}
			}
		}
	}
	for _, k := range graph.Kinds {
		want.Entities[k] += 0
	}
	if st, _ = s.Stats(ctx); !cmp.Equal(st, want) {
		t.Errorf("Stats() = %+v; want %+v", st, want)
	}
	mustCheck(t, s)
}
