package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

func TestWalk(t *testing.T) {
	s := openTest(t)
	papers := corpus.Papers(7, 60, 10)
	put(t, s, papers...)
	var ids []string
	edges, entities := 0, 0
	err := s.Walk(context.Background(), func(p graph.Paper) error {
		ids = append(ids, p.ID)
		edges += len(p.Entities)
		return nil
	}, func(e graph.Entity) error {
		entities++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stats(context.Background())
	n := 0
	for _, c := range st.Entities {
		n += c
	}
	if !slices.IsSorted(ids) || len(ids) != st.Papers || edges != st.Edges || entities != n {
		t.Errorf("Walk saw %d papers (sorted %v), %d edges, %d entities; want %d, %d, %d",
			len(ids), slices.IsSorted(ids), edges, entities, st.Papers, st.Edges, n)
	}
	stop := errors.New("stop")
	if err := s.Walk(context.Background(), func(graph.Paper) error { return stop }, nil); !errors.Is(err, stop) {
		t.Errorf("Walk error = %v; want the callback's", err)
	}
}
