// Package export writes subgraphs of the store as files: Graphviz DOT,
// SVG and PNG (laid out in-process by Graphviz compiled to WebAssembly),
// GraphML and Cytoscape.js JSON. Write holds the one switch over the
// formats that the export command and the server's /export endpoint both
// use; the writers stream, so the whole graph is exported in bounded
// memory.
//
//	f, err := export.ParseFormat("svg")
//	err = export.Write(ctx, w, st, graph.Selection{Entity: "dataset:gsm8k", Hops: 1}, f, export.Options{})
package export
