// Package graph is papergraph's knowledge graph: papers and the tasks,
// modalities, datasets and techniques they link to, stored in Badger with
// adjacency in both directions, a name index, the taxonomy, degree
// counters and a full-text index, all kept exact in the same transactions
// as the edges (see keys.go for the on-disk layout). It is the only
// package that imports Badger.
//
// The main path opens a database, writes what the extractor found and
// reads it back:
//
//	s, err := graph.Open(dir, graph.Options{})
//	if err != nil {
//		return err // wraps ErrLocked when another process has dir open
//	}
//	defer s.Close()
//	res, err := s.PutPapers(ctx, papers) // atomic per paper; re-putting is a no-op
//	...
//	p, err := s.Paper(ctx, id)                   // with its entities
//	e, err := s.Lookup(ctx, graph.Dataset, "gsm8k") // names and aliases
//	st, err := s.Stats(ctx)                      // counts, O(1)
//	v, err := s.Check(ctx)                       // invariants; empty when consistent
//
// A Store is safe for concurrent use: reads run on snapshots while writes
// go on, so a server can ingest while it answers queries.
package graph
