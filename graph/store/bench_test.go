package store

import (
	"context"
	"slices"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// ingestCorpus is the generated corpus of the ingest benchmarks: abstracts
// of 150 terms, as long as real ones.
func ingestCorpus(b *testing.B, n int) []graph.Paper {
	b.Helper()
	return corpus.Papers(9, n, 150)
}

// benchIngest writes papers in batches of 4000 into a fresh store, the
// way the ingest command does, with PutPapers or, with load, a Loader (as
// into an empty database), and reports papers per second.
func benchIngest(b *testing.B, papers []graph.Paper, load bool) {
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		s, err := Open(b.TempDir(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		write := func(batch []graph.Paper) error {
			_, err := s.PutPapers(ctx, batch)
			return err
		}
		var l *Loader
		if load {
			if l, err = s.NewLoader(); err != nil {
				b.Fatal(err)
			}
			write = func(batch []graph.Paper) error { return l.Add(ctx, batch) }
		}
		for batch := range slices.Chunk(papers, 4000) {
			if err := write(batch); err != nil {
				b.Fatal(err)
			}
		}
		if l != nil {
			if _, err := l.Finish(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(len(papers)*b.N)/b.Elapsed().Seconds(), "papers/s")
}

// BenchmarkLoad bulk-loads 10,000 generated papers.
func BenchmarkLoad(b *testing.B) { benchIngest(b, ingestCorpus(b, 10_000), true) }

// BenchmarkLoad100k bulk-loads 100,000 generated papers. Run it alone:
// go test -run XXX -bench Load100k -benchtime 1x ./graph
func BenchmarkLoad100k(b *testing.B) { benchIngest(b, ingestCorpus(b, 100_000), true) }

// BenchmarkPutPapers ingests 10,000 generated papers.
func BenchmarkPutPapers(b *testing.B) { benchIngest(b, ingestCorpus(b, 10_000), false) }

// BenchmarkPutPapers100k ingests 100,000 generated papers, the size the
// performance target is set for (>= 5,000 papers/s, peak RSS <= 1.5 GiB).
// Run it alone: go test -run XXX -bench PutPapers100k -benchtime 1x ./graph
func BenchmarkPutPapers100k(b *testing.B) { benchIngest(b, ingestCorpus(b, 100_000), false) }

// storeWith returns a fresh store holding papers, closed when b ends.
func storeWith(b *testing.B, papers []graph.Paper) *Store {
	b.Helper()
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if _, err := s.PutPapers(context.Background(), papers); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkPutPapersUnchanged re-ingests 10,000 stored papers: the cost of
// running ingest again over the same input.
func BenchmarkPutPapersUnchanged(b *testing.B) {
	ctx := context.Background()
	papers := ingestCorpus(b, 10_000)
	s := storeWith(b, papers)
	for b.Loop() {
		for batch := range slices.Chunk(papers, 4000) {
			if _, err := s.PutPapers(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(papers)*b.N)/b.Elapsed().Seconds(), "papers/s")
}

// BenchmarkPaper reads one paper with its entities.
func BenchmarkPaper(b *testing.B) {
	ctx := context.Background()
	papers := ingestCorpus(b, 2_000)
	s := storeWith(b, papers)
	i := 0
	for b.Loop() {
		if _, err := s.Paper(ctx, papers[i%len(papers)].ID); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkTextTermsOf counts and sorts the text terms of 2,000 generated
// papers, what a load does for each paper on a helper core.
func BenchmarkTextTermsOf(b *testing.B) {
	papers := ingestCorpus(b, 2000)
	var sc termScratch
	for b.Loop() {
		for i := range papers {
			textTermsOf(&papers[i], &sc)
		}
	}
}
