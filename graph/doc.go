// Package graph is papergraph's model of a knowledge graph: papers and the
// tasks, modalities, datasets and techniques they link to (Paper, Entity,
// Kind, Mention), the subgraphs traversals return (Node, Edge, Subgraph),
// the queries and results of the store's API (SharingQuery, Match,
// PaperFilter, PaperPage, Selection, Stats, ...), the sentinel errors and
// the GraphWriter interface that the file writers of package export
// implement. It imports no database: the extractor builds Papers with it,
// and package graph/store, the only one that imports Badger, stores and
// traverses them.
//
//	p := graph.Paper{ID: id, Abstract: text, Entities: []graph.Entity{
//		{Kind: graph.Dataset, Name: "GSM8K"},
//	}}
//	if err := graph.ValidatePaper(&p); err != nil { ... }
//	graph.EntityID(graph.Dataset, "GSM-8K") // "dataset:gsm-8k"
//	sel := graph.Selection{Entity: "dataset:gsm8k", Hops: 1}
//	if err := sel.Validate(); err != nil { ... } // before any store is asked
package graph
