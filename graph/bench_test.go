package graph

import (
	"context"
	"slices"
	"testing"
)

// ingestCorpus is the generated corpus of the ingest benchmarks: abstracts
// of 150 terms, as long as real ones.
func ingestCorpus(b *testing.B, n int) []Paper {
	b.Helper()
	return genCorpus(9, n, 150)
}

// benchPut writes papers in batches of 4000 into a fresh store, the way
// the ingest command does, and reports papers per second.
func benchPut(b *testing.B, papers []Paper) {
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		s, err := Open(b.TempDir(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for batch := range slices.Chunk(papers, 4000) {
			if _, err := s.PutPapers(ctx, batch); err != nil {
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

// benchLoad bulk-loads papers in batches of 4000 into a fresh store, the
// way the ingest command does into an empty database, and reports papers
// per second.
func benchLoad(b *testing.B, papers []Paper) {
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		s, err := Open(b.TempDir(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		l, err := s.NewLoader()
		if err != nil {
			b.Fatal(err)
		}
		for batch := range slices.Chunk(papers, 4000) {
			if err := l.Add(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := l.Finish(ctx); err != nil {
			b.Fatal(err)
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
func BenchmarkLoad(b *testing.B) { benchLoad(b, ingestCorpus(b, 10_000)) }

// BenchmarkLoad100k bulk-loads 100,000 generated papers. Run it alone:
// go test -run XXX -bench Load100k -benchtime 1x ./graph
func BenchmarkLoad100k(b *testing.B) { benchLoad(b, ingestCorpus(b, 100_000)) }

// BenchmarkPutPapers ingests 10,000 generated papers.
func BenchmarkPutPapers(b *testing.B) { benchPut(b, ingestCorpus(b, 10_000)) }

// BenchmarkPutPapers100k ingests 100,000 generated papers, the size the
// performance target is set for (>= 5,000 papers/s, peak RSS <= 1.5 GiB).
// Run it alone: go test -run XXX -bench PutPapers100k -benchtime 1x ./graph
func BenchmarkPutPapers100k(b *testing.B) { benchPut(b, ingestCorpus(b, 100_000)) }

// storeWith returns a fresh store holding papers, closed when b ends.
func storeWith(b *testing.B, papers []Paper) *Store {
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
