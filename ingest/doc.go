// Package ingest is papergraph's one ingest pipeline: documents from a
// Source are extracted on every core in batches kept in input order, each
// paper is validated, and the batches are written to a store, bulk loaded
// when the store is empty and by PutPapers when it holds data, ending
// with a Summary. The ingest command, bench and serve's seeding all run
// Run, so the benchmark measures what users run and a fix reaches all
// three.
//
//	src := ingest.Files(ctx, names, extract.ReaderOptions{Format: extract.Auto})
//	defer src.Close()
//	defer ingest.LimitMemory()()
//	sum, err := ingest.Run(ctx, st, x, src, ingest.Options{})
//	// sum.Added, sum.Updated, sum.Unchanged, sum.Skipped, sum.Elapsed
package ingest
