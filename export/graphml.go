package export

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// graphMLHeader declares the attribute keys, which Gephi, yEd and networkx
// read as node and edge attributes. Every node has label, kind ("paper",
// "dataset", ...) and, when it has one, name (a paper's contribution name
// or an entity's canonical name). Papers have title, year, venue, url,
// authors and source; entities aliases, paperCount and broader (lists
// joined by "; "). Edges have kind ("dataset", "broader") and, for a
// paper-entity edge with evidence, the first mention's text with its byte
// offsets in the abstract or title (inTitle) and the number of mentions.
const graphMLHeader = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="label" for="node" attr.name="label" attr.type="string"/>
  <key id="kind" for="node" attr.name="kind" attr.type="string"/>
  <key id="name" for="node" attr.name="name" attr.type="string"/>
  <key id="title" for="node" attr.name="title" attr.type="string"/>
  <key id="year" for="node" attr.name="year" attr.type="int"/>
  <key id="venue" for="node" attr.name="venue" attr.type="string"/>
  <key id="url" for="node" attr.name="url" attr.type="string"/>
  <key id="authors" for="node" attr.name="authors" attr.type="string"/>
  <key id="source" for="node" attr.name="source" attr.type="string"/>
  <key id="aliases" for="node" attr.name="aliases" attr.type="string"/>
  <key id="paperCount" for="node" attr.name="paperCount" attr.type="int"/>
  <key id="broader" for="node" attr.name="broader" attr.type="string"/>
  <key id="edgekind" for="edge" attr.name="kind" attr.type="string"/>
  <key id="evidence" for="edge" attr.name="evidence" attr.type="string"/>
  <key id="start" for="edge" attr.name="start" attr.type="int"/>
  <key id="end" for="edge" attr.name="end" attr.type="int"/>
  <key id="inTitle" for="edge" attr.name="inTitle" attr.type="boolean"/>
  <key id="mentions" for="edge" attr.name="mentions" attr.type="int"/>
  <graph id="papergraph" edgedefault="directed">
`

// listSep joins the items of a list attribute in GraphML, which has no
// lists: names and aliases seldom hold a semicolon.
const listSep = "; "

// A GraphMLWriter writes a graph as GraphML, node by node and edge by edge
// (see GraphWriter), so the whole graph streams in bounded memory. Text is
// escaped for XML after dropping the characters XML 1.0 forbids. Edge ids
// are "FROM->TO". A GraphMLWriter is not safe for concurrent use.
type GraphMLWriter struct {
	w      *bufio.Writer
	buf    []byte
	edges  bool
	closed bool
}

// NewGraphMLWriter returns a GraphMLWriter writing to w.
func NewGraphMLWriter(w io.Writer) *GraphMLWriter {
	gw := &GraphMLWriter{w: bufio.NewWriterSize(w, 64<<10)}
	gw.w.WriteString(graphMLHeader)
	return gw
}

// WriteNode writes one node; it fails once an edge was written.
func (gw *GraphMLWriter) WriteNode(n graph.Node) error {
	if gw.edges || gw.closed {
		return errors.New("graphml: node written after edges")
	}
	b := append(gw.buf[:0], `    <node id="`...)
	b = appendEscaped(b, n.ID(), xmlEscaper)
	b = append(b, `">`...)
	b = appendXMLData(b, "label", n.Label())
	b = appendXMLData(b, "kind", n.Kind().String())
	if p := n.Paper; p != nil {
		b = appendXMLData(b, "name", p.Name)
		b = appendXMLData(b, "title", p.Title)
		if p.Year != 0 {
			b = appendXMLData(b, "year", strconv.Itoa(p.Year))
		}
		b = appendXMLData(b, "venue", p.Venue)
		b = appendXMLData(b, "url", p.URL)
		b = appendXMLData(b, "authors", strings.Join(p.Authors, listSep))
		b = appendXMLData(b, "source", p.Source)
	} else {
		e := n.Entity
		b = appendXMLData(b, "name", e.Name)
		b = appendXMLData(b, "aliases", strings.Join(e.Aliases, listSep))
		b = appendXMLData(b, "paperCount", strconv.Itoa(e.PaperCount))
		b = appendXMLData(b, "broader", strings.Join(e.Broader, listSep))
	}
	b = append(b, "</node>\n"...)
	gw.buf = b
	_, err := gw.w.Write(b)
	return err
}

// appendXMLData appends a data element of key holding s, unless s is
// empty.
func appendXMLData(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	b = append(b, `<data key="`...)
	b = append(b, key...)
	b = append(b, `">`...)
	b = appendEscaped(b, s, xmlEscaper)
	return append(b, "</data>"...)
}

// WriteEdge writes one edge, after every node.
func (gw *GraphMLWriter) WriteEdge(e graph.Edge) error {
	if gw.closed {
		return errors.New("graphml: edge written after Close")
	}
	gw.edges = true
	b := append(gw.buf[:0], `    <edge id="`...)
	b = appendEscaped(b, e.From, xmlEscaper)
	b = append(b, "-&gt;"...)
	b = appendEscaped(b, e.To, xmlEscaper)
	b = append(b, `" source="`...)
	b = appendEscaped(b, e.From, xmlEscaper)
	b = append(b, `" target="`...)
	b = appendEscaped(b, e.To, xmlEscaper)
	b = append(b, `">`...)
	b = appendXMLData(b, "edgekind", e.Kind)
	if len(e.Evidence) > 0 {
		m := e.Evidence[0]
		b = appendXMLData(b, "evidence", m.Text)
		b = append(b, `<data key="start">`...)
		b = strconv.AppendInt(b, int64(m.Start), 10)
		b = append(b, `</data><data key="end">`...)
		b = strconv.AppendInt(b, int64(m.End), 10)
		b = append(b, `</data><data key="inTitle">`...)
		b = strconv.AppendBool(b, m.InTitle)
		b = append(b, `</data><data key="mentions">`...)
		b = strconv.AppendInt(b, int64(len(e.Evidence)), 10)
		b = append(b, `</data>`...)
	}
	b = append(b, "</edge>\n"...)
	gw.buf = b
	_, err := gw.w.Write(b)
	return err
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
