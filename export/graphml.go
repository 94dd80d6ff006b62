package export

import (
	"bufio"
	"encoding/xml"
	"errors"
	"io"

	"github.com/papergraph/papergraph/graph"
)

// graphMLHeader declares the attribute keys: a node's label, kind
// ("paper", "dataset", ...) and name (a paper's contribution name or an
// entity's canonical name), and an edge's kind ("dataset", "broader").
// Gephi, yEd and networkx read them as node and edge attributes.
const graphMLHeader = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="label" for="node" attr.name="label" attr.type="string"/>
  <key id="kind" for="node" attr.name="kind" attr.type="string"/>
  <key id="name" for="node" attr.name="name" attr.type="string"/>
  <key id="edgekind" for="edge" attr.name="kind" attr.type="string"/>
  <graph id="papergraph" edgedefault="directed">
`

// A GraphMLWriter writes a graph as GraphML, node by node and edge by edge
// (see GraphWriter), so the whole graph streams in bounded memory. Text is
// escaped with encoding/xml after dropping the characters XML 1.0 forbids.
// Edge ids are "FROM->TO". A GraphMLWriter is not safe for concurrent use.
type GraphMLWriter struct {
	w      *bufio.Writer
	edges  bool
	closed bool
}

// NewGraphMLWriter returns a GraphMLWriter writing to w.
func NewGraphMLWriter(w io.Writer) *GraphMLWriter {
	gw := &GraphMLWriter{w: bufio.NewWriter(w)}
	gw.w.WriteString(graphMLHeader)
	return gw
}

// WriteNode writes one node; it fails once an edge was written.
func (gw *GraphMLWriter) WriteNode(n graph.Node) error {
	if gw.edges || gw.closed {
		return errors.New("graphml: node written after edges")
	}
	name := ""
	if n.Paper != nil {
		name = n.Paper.Name
	} else {
		name = n.Entity.Name
	}
	gw.w.WriteString(`    <node id="`)
	gw.text(n.ID())
	gw.w.WriteString(`"><data key="label">`)
	gw.text(n.Label())
	gw.w.WriteString(`</data><data key="kind">`)
	gw.text(n.Kind().String())
	if name != "" {
		gw.w.WriteString(`</data><data key="name">`)
		gw.text(name)
	}
	_, err := gw.w.WriteString("</data></node>\n")
	return err
}

// WriteEdge writes one edge, after every node.
func (gw *GraphMLWriter) WriteEdge(e graph.Edge) error {
	if gw.closed {
		return errors.New("graphml: edge written after Close")
	}
	gw.edges = true
	gw.w.WriteString(`    <edge id="`)
	gw.text(e.From + "->" + e.To)
	gw.w.WriteString(`" source="`)
	gw.text(e.From)
	gw.w.WriteString(`" target="`)
	gw.text(e.To)
	gw.w.WriteString(`"><data key="edgekind">`)
	gw.text(e.Kind)
	_, err := gw.w.WriteString("</data></edge>\n")
	return err
}

// text writes s escaped for XML text and attribute values alike. Errors
// stick in the bufio.Writer and surface on the next WriteString.
func (gw *GraphMLWriter) text(s string) {
	xml.EscapeText(gw.w, []byte(cleanText(s)))
}

// Close ends the document and flushes. It does not close the underlying
// writer.
func (gw *GraphMLWriter) Close() error {
	if gw.closed {
		return nil
	}
	gw.closed = true
	gw.w.WriteString("  </graph>\n</graphml>\n")
	return gw.w.Flush()
}

// WriteGraphML writes g as GraphML: the in-memory form of GraphMLWriter.
func WriteGraphML(w io.Writer, g graph.Subgraph) error {
	gw := NewGraphMLWriter(w)
	if err := graph.WriteSubgraph(gw, g); err != nil {
		return err
	}
	return gw.Close()
}
