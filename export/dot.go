package export

import (
	"bufio"
	"errors"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/papergraph/papergraph/graph"
)

// DOTOptions configures a DOTWriter and WriteDOT. The zero value writes
// the nodes and edges alone.
type DOTOptions struct {
	// Cluster groups the entities of each kind in a cluster subgraph,
	// "cluster_dataset" and so on; papers stay outside.
	Cluster bool
	// Legend adds a cluster subgraph "cluster_legend" with one sample
	// node per node kind. Its nodes are not graph nodes: their ids start
	// with LegendPrefix, which no paper or entity id does, and they have
	// no edges.
	Legend bool
}

// LegendPrefix starts the id of every legend node ("legend:dataset").
const LegendPrefix = "legend:"

// labelWidth is the width in characters that labels wrap to: a paper
// title becomes a box of a few short lines instead of one long one.
const labelWidth = 30

// dotStyle is how a node kind looks: its shape, style and fill colour.
type dotStyle struct{ shape, style, fill string }

// dotStyles is indexed by NodeKind. The colours are a pastel qualitative
// palette, readable with black text and distinct in greyscale print.
var dotStyles = [...]dotStyle{
	graph.PaperNode:     {"box", "rounded,filled", "#eeeeee"},
	graph.TaskNode:      {"ellipse", "filled", "#fdd49e"},
	graph.ModalityNode:  {"hexagon", "filled", "#bcd7f0"},
	graph.DatasetNode:   {"cylinder", "filled", "#c7e9c0"},
	graph.TechniqueNode: {"octagon", "filled", "#dadaeb"},
}

// dotHeader sets the defaults shared by every node and edge.
const dotHeader = `digraph papergraph {
	graph [rankdir=LR, fontname="Helvetica", fontsize=10];
	node [fontname="Helvetica", fontsize=10, penwidth=0.8];
	edge [color="#808080", arrowsize=0.6];
`

// A DOTWriter writes a graph as a Graphviz DOT digraph, node by node and
// edge by edge (see GraphWriter), so the whole graph streams in bounded
// memory. Papers are rounded boxes labelled with their label wrapped to
// about 30 characters a line, in full as their tooltip; each entity kind has its own shape and
// colour; taxonomy edges are dashed. Node ids are the graph's ids, quoted.
// Every node and edge carries its kind as the class attribute, which
// Graphviz copies to SVG. A DOTWriter is not safe for concurrent use.
type DOTWriter struct {
	w       *bufio.Writer
	opts    DOTOptions
	cluster graph.NodeKind // the entity kind whose cluster is open, or PaperNode for none
	edges   bool           // an edge was written: no more nodes
	closed  bool
	buf     []byte
}

// NewDOTWriter returns a DOTWriter writing to w.
func NewDOTWriter(w io.Writer, opts DOTOptions) *DOTWriter {
	dw := &DOTWriter{w: bufio.NewWriter(w), opts: opts}
	dw.w.WriteString(dotHeader)
	if opts.Legend {
		dw.writeLegend()
	}
	return dw
}

// writeLegend writes the legend cluster. Errors stick in the bufio.Writer
// and surface on the next write.
func (dw *DOTWriter) writeLegend() {
	dw.w.WriteString("\tsubgraph cluster_legend {\n\t\tlabel=\"legend\";\n\t\tstyle=dashed;\n\t\tcolor=\"#aaaaaa\";\n")
	for _, k := range []graph.NodeKind{graph.PaperNode, graph.TaskNode, graph.ModalityNode, graph.DatasetNode, graph.TechniqueNode} {
		dw.buf = append(dw.buf[:0], "\t\t"...)
		dw.buf = appendDOTNode(dw.buf, LegendPrefix+k.String(), k.String(), "", k)
		dw.w.Write(dw.buf)
	}
	dw.w.WriteString("\t}\n")
}

// WriteNode writes one node. With Cluster set it opens and closes the
// kind clusters as the kinds change, so entities should come grouped by
// kind (entity ids sorted do so). It fails once an edge was written.
func (dw *DOTWriter) WriteNode(n graph.Node) error {
	if dw.edges || dw.closed {
		return errors.New("dot: node written after edges")
	}
	k := n.Kind()
	indent := "\t"
	if dw.opts.Cluster {
		if k != dw.cluster {
			dw.closeCluster()
			if k != graph.PaperNode {
				dw.w.WriteString("\tsubgraph cluster_" + k.String() + " {\n\t\tlabel=\"" + graph.Kind(k).Plural() + "\";\n\t\tstyle=rounded;\n\t\tcolor=\"#aaaaaa\";\n")
				dw.cluster = k
			}
		}
		if k != graph.PaperNode {
			indent = "\t\t"
		}
	}
	label := n.Label()
	if strings.TrimSpace(cleanText(label)) == "" {
		label = n.ID()
	}
	tooltip := ""
	if k == graph.PaperNode {
		tooltip = wrapLabel(label, math.MaxInt)
	}
	dw.buf = append(dw.buf[:0], indent...)
	dw.buf = appendDOTNode(dw.buf, n.ID(), wrapLabel(label, labelWidth), tooltip, k)
	_, err := dw.w.Write(dw.buf)
	return err
}

func (dw *DOTWriter) closeCluster() {
	if dw.cluster != graph.PaperNode {
		dw.w.WriteString("\t}\n")
		dw.cluster = graph.PaperNode
	}
}

// appendDOTNode appends a node statement with the look of kind k, and a
// tooltip unless it is empty.
func appendDOTNode(b []byte, id, label, tooltip string, k graph.NodeKind) []byte {
	st := dotStyles[k]
	b = appendDOTString(b, id)
	b = append(b, " [label="...)
	b = appendDOTString(b, label)
	b = append(b, ", shape="...)
	b = append(b, st.shape...)
	b = append(b, ", style=\""...)
	b = append(b, st.style...)
	b = append(b, "\", fillcolor=\""...)
	b = append(b, st.fill...)
	b = append(b, "\", class=\""...)
	b = append(b, k.String()...)
	b = append(b, '"')
	if tooltip != "" {
		b = append(b, ", tooltip="...)
		b = appendDOTString(b, tooltip)
	}
	return append(b, "];\n"...)
}

// WriteEdge writes one edge, after every node.
func (dw *DOTWriter) WriteEdge(e graph.Edge) error {
	if dw.closed {
		return errors.New("dot: edge written after Close")
	}
	if !dw.edges {
		dw.closeCluster()
		dw.edges = true
	}
	b := append(dw.buf[:0], '\t')
	b = appendDOTString(b, e.From)
	b = append(b, " -> "...)
	b = appendDOTString(b, e.To)
	b = append(b, " [class="...)
	b = appendDOTString(b, e.Kind)
	if e.Kind == graph.BroaderEdge {
		b = append(b, ", style=dashed, arrowhead=empty"...)
	}
	b = append(b, "];\n"...)
	dw.buf = b
	_, err := dw.w.Write(b)
	return err
}

// Close ends the digraph and flushes. It does not close the underlying
// writer.
func (dw *DOTWriter) Close() error {
	if dw.closed {
		return nil
	}
	dw.closeCluster()
	dw.closed = true
	dw.w.WriteString("}\n")
	return dw.w.Flush()
}

// WriteDOT writes g as a DOT digraph: the in-memory form of DOTWriter,
// with the nodes and edges in Export's order, so the same subgraph gives
// the same bytes either way.
func WriteDOT(w io.Writer, g graph.Subgraph, opts DOTOptions) error {
	dw := NewDOTWriter(w, opts)
	if err := graph.WriteSubgraph(dw, g); err != nil {
		return err
	}
	return dw.Close()
}

// appendDOTString appends s as a DOT double-quoted string whose value,
// read as a Graphviz label, is s: a quote becomes \", a backslash \\ (a
// lone backslash would start a label escape such as \N or \l), a newline
// \n; other control characters and characters XML forbids (Graphviz
// writes labels into SVG) are dropped, and invalid UTF-8 becomes U+FFFD.
func appendDOTString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s, dotEscaper)
	return append(b, '"')
}

// wrapLabel cleans s (see cleanText), collapses its white space and breaks
// it into lines of at most width characters at word boundaries, joined by
// newlines; a word longer than width gets a line of its own.
func wrapLabel(s string, width int) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(cleanText(s)) {
		n := utf8.RuneCountInString(w)
		switch {
		case line == 0:
		case line+1+n > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += n
	}
	return b.String()
}
