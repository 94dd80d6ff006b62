package dgraph_test

import (
	"context"
	"fmt"
	"slices"
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

// TestListPapersPages pages through papers whose ids are spread as
// hashes are, and through a cluster of ids at the start that a range
// sized by the average holds too many of, with and without a filter,
// each page resumed from the last one's cursor: every paper once, in id
// order.
func TestListPapersPages(t *testing.T) {
	ctx := context.Background()
	c := dgraphtest.Start(t)
	st, err := dgraph.Open(ctx, c.Addr, dgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ps []graph.Paper
	var all, withB []string
	for n := 1; n <= 300; n++ {
		id := fmt.Sprintf("%016x", uint64(n)*0x9e3779b97f4a7c15)
		if n <= 40 {
			id = pid(n)
		}
		p := graph.Paper{ID: id, Label: fmt.Sprint("paper ", n), Abstract: fmt.Sprint("abstract ", n), Entities: []graph.Entity{ds("A")}}
		if n%3 == 0 {
			p.Entities = append(p.Entities, graph.Entity{Kind: graph.Task, Name: "B"})
			withB = append(withB, id)
		}
		ps = append(ps, p)
		all = append(all, id)
	}
	slices.Sort(all)
	slices.Sort(withB)
	if _, err := st.PutPapers(ctx, ps); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		filter graph.PaperFilter
		first  int
		want   []string
	}{
		{"all", graph.PaperFilter{}, 7, all},
		{"all, large pages", graph.PaperFilter{}, 100, all},
		{"of a kind", graph.PaperFilter{Kind: graph.Task}, 5, withB},
		{"of an entity", graph.PaperFilter{Entity: "dataset:a"}, 9, all},
	}
	for _, tt := range tests {
		var got []string
		after := ""
		for range len(tt.want) + 1 {
			page, err := st.ListPapers(ctx, graph.PaperQuery{Filter: tt.filter, First: tt.first, After: after})
			if err != nil {
				t.Fatalf("%s: ListPapers(after %q) = %v", tt.name, after, err)
			}
			if page.Total != len(tt.want) {
				t.Errorf("%s: ListPapers(after %q).Total = %d; want %d", tt.name, after, page.Total, len(tt.want))
			}
			for _, p := range page.Papers {
				got = append(got, p.ID)
			}
			if !page.HasNext {
				break
			}
			after = page.EndCursor
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: the pages' papers differ (-want +got):\n%s", tt.name, d)
		}
	}
}
