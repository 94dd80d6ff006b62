package export

import (
	"bufio"
	"errors"
	"io"
	"strconv"

	"github.com/papergraph/papergraph/graph"
)

// A CytoscapeWriter writes a graph as Cytoscape.js elements JSON,
//
//	{"elements": {"nodes": [{"data": {"id", "label", "kind", ...}}, ...],
//	              "edges": [{"data": {"id", "source", "target", "kind", ...}}, ...]}}
//
// node by node and edge by edge (see GraphWriter), one element a line, so
// the whole graph streams in bounded memory. Beside id, label and kind, a
// node's data has, when set, name, and for a paper title, year, venue,
// url, authors (an array) and source, for an entity aliases and broader
// (arrays) and paperCount. An edge's data has kind and, for a
// paper-entity edge, evidence: its mentions as {"text", "start", "end",
// "inTitle"}, byte offsets in the abstract, or the title when inTitle.
// Edge ids are "FROM->TO". A CytoscapeWriter is not safe for concurrent
// use.
type CytoscapeWriter struct {
	w      *bufio.Writer
	buf    []byte
	n      int  // elements written in the current array
	edges  bool // the edges array is open
	closed bool
}

// NewCytoscapeWriter returns a CytoscapeWriter writing to w.
func NewCytoscapeWriter(w io.Writer) *CytoscapeWriter {
	cw := &CytoscapeWriter{w: bufio.NewWriterSize(w, 64<<10)}
	cw.w.WriteString(`{"elements": {"nodes": [`)
	return cw
}

// start begins an element of the open array in cw.buf, up to the data
// object's first field.
func (cw *CytoscapeWriter) start() []byte {
	b := cw.buf[:0]
	if cw.n > 0 {
		b = append(b, ',')
	}
	cw.n++
	return append(b, "\n{\"data\": {"...)
}

// finish ends the element in b and writes it.
func (cw *CytoscapeWriter) finish(b []byte) error {
	b = append(b, "}}"...)
	cw.buf = b
	_, err := cw.w.Write(b)
	return err
}

// WriteNode writes one node; it fails once an edge was written.
func (cw *CytoscapeWriter) WriteNode(n graph.Node) error {
	if cw.edges || cw.closed {
		return errors.New("cytoscape: node written after edges")
	}
	b := cw.start()
	b = appendJSONField(b, "id", n.ID(), true)
	b = appendJSONField(b, "label", n.Label(), true)
	b = appendJSONField(b, "kind", n.Kind().String(), true)
	if p := n.Paper; p != nil {
		b = appendJSONField(b, "name", p.Name, false)
		b = appendJSONField(b, "title", p.Title, false)
		if p.Year != 0 {
			b = append(b, `, "year": `...)
			b = strconv.AppendInt(b, int64(p.Year), 10)
		}
		b = appendJSONField(b, "venue", p.Venue, false)
		b = appendJSONField(b, "url", p.URL, false)
		b = appendJSONList(b, "authors", p.Authors)
		b = appendJSONField(b, "source", p.Source, false)
	} else {
		e := n.Entity
		b = appendJSONList(b, "aliases", e.Aliases)
		b = append(b, `, "paperCount": `...)
		b = strconv.AppendInt(b, int64(e.PaperCount), 10)
		b = appendJSONList(b, "broader", e.Broader)
	}
	return cw.finish(b)
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
	b := cw.start()
	b = append(b, `"id": "`...)
	b = appendEscaped(b, e.From, jsonEscaper)
	b = append(b, "->"...)
	b = appendEscaped(b, e.To, jsonEscaper)
	b = append(b, '"')
	b = appendJSONField(b, "source", e.From, false)
	b = appendJSONField(b, "target", e.To, false)
	b = appendJSONField(b, "kind", e.Kind, false)
	if len(e.Evidence) > 0 {
		b = append(b, `, "evidence": [`...)
		for i, m := range e.Evidence {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, '{')
			b = appendJSONField(b, "text", m.Text, true)
			b = append(b, `, "start": `...)
			b = strconv.AppendInt(b, int64(m.Start), 10)
			b = append(b, `, "end": `...)
			b = strconv.AppendInt(b, int64(m.End), 10)
			if m.InTitle {
				b = append(b, `, "inTitle": true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return cw.finish(b)
}

// appendJSONField appends `, "key": "s"`, s escaped, without the comma
// at the start of an object; an empty s is left out unless always.
func appendJSONField(b []byte, key, s string, always bool) []byte {
	if s == "" && !always {
		return b
	}
	if len(b) > 0 && b[len(b)-1] != '{' {
		b = append(b, ", "...)
	}
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `": "`...)
	b = appendEscaped(b, s, jsonEscaper)
	return append(b, '"')
}

// appendJSONList appends `, "key": ["a", ...]`, or nothing for an empty
// list.
func appendJSONList(b []byte, key string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(b, `, "`...)
	b = append(b, key...)
	b = append(b, `": [`...)
	for i, s := range list {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '"')
		b = appendEscaped(b, s, jsonEscaper)
		b = append(b, '"')
	}
	return append(b, ']')
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
