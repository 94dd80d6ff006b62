package server

import "github.com/papergraph/papergraph/graph"

// Node is the Go side of the schema's Node interface: a *graph.Paper or a
// *graph.Entity. graph.Node, a struct with one of the two set, is the
// traversal's form; nodeOf converts it.
type Node any

// nodeOf returns n's paper or entity as a Node.
func nodeOf(n graph.Node) Node {
	if n.Paper != nil {
		return n.Paper
	}
	return n.Entity
}
