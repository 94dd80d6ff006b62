package export

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"

	"github.com/papergraph/papergraph/graph"
)

// cytoNode and cytoEdge are the data of a Cytoscape.js element.
type cytoNode struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Kind  string `json:"kind"`
}

type cytoEdge struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Target string `json:"target"`
	Kind   string `json:"kind"`
}

// A CytoscapeWriter writes a graph as Cytoscape.js elements JSON,
//
//	{"elements": {"nodes": [{"data": {"id", "label", "kind"}}, ...],
//	              "edges": [{"data": {"id", "source", "target", "kind"}}, ...]}}
//
// node by node and edge by edge (see GraphWriter), one element a line, so
// the whole graph streams in bounded memory. Edge ids are "FROM->TO". A
// CytoscapeWriter is not safe for concurrent use.
type CytoscapeWriter struct {
	w      *bufio.Writer
	n      int  // elements written in the current array
	edges  bool // the edges array is open
	closed bool
}

// NewCytoscapeWriter returns a CytoscapeWriter writing to w.
func NewCytoscapeWriter(w io.Writer) *CytoscapeWriter {
	cw := &CytoscapeWriter{w: bufio.NewWriter(w)}
	cw.w.WriteString(`{"elements": {"nodes": [`)
	return cw
}

// element writes one element of the open array.
func (cw *CytoscapeWriter) element(data any) error {
	if cw.n > 0 {
		cw.w.WriteByte(',')
	}
	cw.n++
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	cw.w.WriteString("\n{\"data\": ")
	cw.w.Write(b)
	_, err = cw.w.WriteString("}")
	return err
}

// WriteNode writes one node; it fails once an edge was written.
func (cw *CytoscapeWriter) WriteNode(n graph.Node) error {
	if cw.edges || cw.closed {
		return errors.New("cytoscape: node written after edges")
	}
	return cw.element(cytoNode{ID: n.ID(), Label: cleanText(n.Label()), Kind: n.Kind().String()})
}

// WriteEdge writes one edge, after every node.
func (cw *CytoscapeWriter) WriteEdge(e graph.Edge) error {
	if cw.closed {
		return errors.New("cytoscape: edge written after Close")
	}
	if !cw.edges {
		cw.edges = true
		cw.n = 0
		cw.w.WriteString("\n], \"edges\": [")
	}
	return cw.element(cytoEdge{ID: e.From + "->" + e.To, Source: e.From, Target: e.To, Kind: e.Kind})
}

// Close ends the document and flushes. It does not close the underlying
// writer.
func (cw *CytoscapeWriter) Close() error {
	if cw.closed {
		return nil
	}
	if !cw.edges {
		cw.w.WriteString("\n], \"edges\": [")
	}
	cw.closed = true
	cw.w.WriteString("\n]}}\n")
	return cw.w.Flush()
}

// WriteCytoscape writes g as Cytoscape.js elements JSON: the in-memory
// form of CytoscapeWriter.
func WriteCytoscape(w io.Writer, g graph.Subgraph) error {
	cw := NewCytoscapeWriter(w)
	if err := graph.WriteSubgraph(cw, g); err != nil {
		return err
	}
	return cw.Close()
}
