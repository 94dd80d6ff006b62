// Package store keeps papergraph's knowledge graph in Badger: papers and
// the entities they link to with adjacency in both directions, a name
// index, the taxonomy, degree counters and a full-text index, all kept
// exact in the same transactions as the edges (see keys.go for the on-disk
// layout). It is the only package that imports Badger; the types it
// stores and returns are package graph's.
//
// The main path opens a database, writes what the extractor found and
// reads it back:
//
//	s, err := store.Open(dir, store.Options{})
//	if err != nil {
//		return err // wraps graph.ErrLocked when another process has dir open
//	}
//	defer s.Close()
//	res, err := s.PutPapers(ctx, papers) // atomic per paper; re-putting is a no-op
//	...
//	p, err := s.Paper(ctx, id)                      // with its entities
//	e, err := s.Lookup(ctx, graph.Dataset, "gsm8k") // names and aliases
//	st, err := s.Stats(ctx)                         // counts, O(1)
//	v, err := s.Check(ctx)                          // invariants; empty when consistent
//
// Curation (curation.go) corrects what extraction got wrong, exactly and
// for good: DeletePapers, MergeEntities and AddAlias; a merge or an alias
// is kept, and PutPapers applies it to every later paper. Duplicates lists
// the entities that are likely one concept.
//
// Papers returned by the traversals (Sharing, Neighborhood, Path, the
// listings, Search) are the stored records: their Entities are references
// (kind and name) without aliases or counts, since reading every entity
// record of every paper of a page would cost more than the traversal.
// Store.Paper and Store.Papers return them filled.
//
// A Store is safe for concurrent use: reads run on snapshots while writes
// go on, so a server can ingest while it answers queries.
package store
