// Package dgraph stores the paper graph in a Dgraph cluster and answers
// the same questions as graph/store's embedded Badger Store, in DQL: the
// server is stateless over it, so it can run as many replicas as the
// traffic needs. It is the only package that imports Dgraph's client.
//
//	st, err := dgraph.Open(ctx, "127.0.0.1:9080", dgraph.Options{})
//	if err != nil { ... }
//	defer st.Close()
//	_, err = st.PutPapers(ctx, papers) // upserts keyed by paper and entity ids
//	matches, err := st.Sharing(ctx, id, graph.SharingQuery{Kinds: []graph.Kind{graph.Dataset}})
//
// The schema (schema.DQL) holds papers and entities as nodes with a pg.id
// upsert key, paper -> entity edges as pg.link (reversed and counted, so
// an entity's degree is count(~pg.link)), the taxonomy as pg.broader and
// the curation's corrections as nodes of pg.fix -> pg.fixto, which every
// PutPapers applies.
// Where an answer differs from the Badger store's, the method's comment
// says how.
package dgraph
