// Package corpus generates the corpora papergraph is measured and tested
// on, deterministically from a seed: a Stream of abstracts shaped like
// real ones, naming entities of the extractor's vocabulary with Zipf
// popularity (or a real corpus file, repeated), for bench and for
// `bench --write-corpus`; and Papers, papers as the extractor would have
// made them, for the store's tests and benchmarks.
//
//	s, err := corpus.Open(x.Vocabulary(), seed, "")
//	defer s.Close()
//	sum, err := ingest.Run(ctx, st, x, corpus.Take(s, 100000), ingest.Options{})
//
//	papers := corpus.Papers(seed, 1000, 150) // []graph.Paper
package corpus
