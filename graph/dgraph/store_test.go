package dgraph_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/dgraph/dgraphtest"
)

// open returns a store on a new cluster of the test's own.
func open(tb testing.TB) *dgraph.Store {
	tb.Helper()
	c := dgraphtest.Start(tb)
	st, err := dgraph.Open(context.Background(), c.Addr, dgraph.Options{Batch: 2})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

func pid(n int) string { return fmt.Sprintf("%016x", n) }

func paper(n int, es ...graph.Entity) graph.Paper {
	return graph.Paper{ID: pid(n), Label: fmt.Sprint("paper ", n), Abstract: fmt.Sprint("abstract ", n), Entities: es}
}

func ds(name string) graph.Entity { return graph.Entity{Kind: graph.Dataset, Name: name} }

// TestStore checks the writes (idempotent, edges replaced on change) and
// the DQL reads on a small graph whose answers follow from its shape; the
// server's tests compare every query with the Badger store's.
func TestStore(t *testing.T) {
	ctx := context.Background()
	st := open(t)
	ps := []graph.Paper{
		paper(1, ds("A"), ds("B")),
		paper(2, ds("A")),
		paper(3, ds("A"), ds("B")),
		paper(4, ds("C")),
	}
	res, err := st.PutPapers(ctx, ps)
	if err != nil || res != (graph.PutResult{Added: 4}) {
		t.Fatalf("PutPapers = %+v, %v; want 4 added", res, err)
	}
	if res, err := st.PutPapers(ctx, ps); err != nil || res != (graph.PutResult{Unchanged: 4}) {
		t.Fatalf("PutPapers again = %+v, %v; want 4 unchanged", res, err)
	}
	ms, err := st.Sharing(ctx, pid(1), graph.SharingQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%s %d %.4f", m.Paper.ID, len(m.Shared), m.Score))
	}
	t.Log(got)
	// Paper 3 changes its extraction: B is replaced by C.
	if res, err := st.PutPapers(ctx, []graph.Paper{paper(3, ds("A"), ds("C"))}); err != nil || res != (graph.PutResult{Updated: 1}) {
		t.Fatalf("PutPapers changed = %+v, %v; want 1 updated", res, err)
	}
	e, err := st.Entities(ctx, []string{"dataset:b", "dataset:c"})
	if err != nil {
		t.Fatal(err)
	}
	if e[0].PaperCount != 1 || e[1].PaperCount != 2 {
		t.Errorf("paper counts of B, C = %d, %d; want 1, 2", e[0].PaperCount, e[1].PaperCount)
	}
	st2, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (graph.Stats{Papers: 4, Edges: 6, Entities: map[graph.Kind]int{graph.Task: 0, graph.Modality: 0, graph.Dataset: 3, graph.Technique: 0}}); !cmp.Equal(st2, want) {
		t.Errorf("Stats = %+v; want %+v", st2, want)
	}
	if _, err := st.ListEntities(ctx, graph.EntityQuery{Kind: graph.Dataset}); err != nil {
		t.Error(err)
	}
	if _, err := st.CoOccurring(ctx, "dataset:a", graph.CoOccurrenceQuery{}); err != nil {
		t.Error(err)
	}
	g, ok, err := st.Path(ctx, pid(2), "dataset:b", 6)
	t.Log(g, ok, err)
}
