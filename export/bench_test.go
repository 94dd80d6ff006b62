package export

import (
	"context"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// benchStore is a real store of n generated papers, each entity linked
// with a mention as evidence, loaded in bulk as into an empty database.
func benchStore(b *testing.B, n int) *store.Store {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(b.TempDir(), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	papers := corpus.Papers(1, n, 150)
	for i := range papers {
		p := &papers[i]
		for _, e := range p.Entities {
			p.Mentions = append(p.Mentions, graph.Mention{Kind: e.Kind, Entity: e.Name, Text: p.Abstract[:8], Start: 0, End: 8})
		}
	}
	l, err := st.NewLoader()
	if err != nil {
		b.Fatal(err)
	}
	if err := l.Add(ctx, papers); err != nil {
		b.Fatal(err)
	}
	if _, err := l.Finish(ctx); err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkWrite streams the whole graph of a store of
// $PAPERGRAPH_BENCH_PAPERS (default 20,000) generated papers, or of the
// database $PAPERGRAPH_BENCH_DB (as bench --db left it, opened read-only),
// in each streamed format and reports edges per second, the figure
// bench's export_edges_s gives for its corpus.
func BenchmarkWrite(b *testing.B) {
	ctx := context.Background()
	var st *store.Store
	if dir := os.Getenv("PAPERGRAPH_BENCH_DB"); dir != "" {
		var err error
		if st, err = store.Open(dir, store.Options{ReadOnly: true}); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
	} else {
		n := 20000
		if s := os.Getenv("PAPERGRAPH_BENCH_PAPERS"); s != "" {
			var err error
			if n, err = strconv.Atoi(s); err != nil {
				b.Fatalf("PAPERGRAPH_BENCH_PAPERS=%q: %v", s, err)
			}
		}
		st = benchStore(b, n)
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []Format{DOT, GraphML, Cytoscape} {
		b.Run(f.String(), func(b *testing.B) {
			for b.Loop() {
				if err := Write(ctx, io.Discard, st, graph.Selection{}, f, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(stats.Edges*b.N)/b.Elapsed().Seconds(), "edges/s")
		})
	}
}
