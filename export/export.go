package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// Format is an export file format.
type Format uint8

// The formats. DOT, GraphML and Cytoscape stream; SVG and PNG are laid out
// in memory by Graphviz.
const (
	DOT Format = iota + 1
	SVG
	PNG
	GraphML
	Cytoscape
	RDF // gzipped N-Quads of the whole graph for dgraph bulk (rdf.go)
)

// Formats lists every format in the order messages name them.
var Formats = []Format{DOT, SVG, PNG, GraphML, Cytoscape, RDF}

var formatInfo = [...]struct {
	name, ext, contentType string
}{
	DOT:       {"dot", "dot", "text/vnd.graphviz; charset=utf-8"},
	SVG:       {"svg", "svg", "image/svg+xml"},
	PNG:       {"png", "png", "image/png"},
	GraphML:   {"graphml", "graphml", "application/graphml+xml; charset=utf-8"},
	Cytoscape: {"cytoscape", "json", "application/json"},
	RDF:       {"rdf", "rdf.gz", "application/n-quads"},
}

func (f Format) valid() bool { return f >= DOT && f <= RDF }

// String returns the format's name, as --format takes it ("cytoscape").
func (f Format) String() string {
	if !f.valid() {
		return fmt.Sprintf("format(%d)", uint8(f))
	}
	return formatInfo[f].name
}

// Ext returns the file extension of the format, without the dot ("json"
// for Cytoscape).
func (f Format) Ext() string { return formatInfo[f].ext }

// ContentType returns the format's media type.
func (f Format) ContentType() string { return formatInfo[f].contentType }

// ParseFormat returns the format named name ("dot", "svg", "png",
// "graphml", "cytoscape"). Anything else is graph.ErrBadArgument.
func ParseFormat(name string) (Format, error) {
	for _, f := range Formats {
		if formatInfo[f].name == name {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%w: format %q (want %s)", graph.ErrBadArgument, name, names(Formats))
}

// FormatOfExt returns the format whose file extension is ext, among
// formats; ok is false for none.
func FormatOfExt(ext string, formats []Format) (f Format, ok bool) {
	for _, f := range formats {
		if formatInfo[f].ext == ext {
			return f, true
		}
	}
	return 0, false
}

// names lists the formats' names for a message: "dot, svg or png".
func names(fs []Format) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// MaxRenderNodes is the most nodes SVG and PNG lay out by default:
// Graphviz's layout is superlinear and not streamable, and a picture of
// more nodes is unreadable anyway.
const MaxRenderNodes = 1000

// Options tunes Write.
type Options struct {
	DOT DOTOptions // DOT, SVG and PNG: clusters and legend
	// MaxRender is the most nodes SVG and PNG draw; 0 means
	// MaxRenderNodes.
	MaxRender int
}

// Source is the graph that Write reads: graph/store's Badger Store or
// graph/dgraph's.
type Source interface {
	Stats(ctx context.Context) (graph.Stats, error)
	Select(ctx context.Context, sel graph.Selection) (graph.Subgraph, error)
	Export(ctx context.Context, sel graph.Selection, gw graph.GraphWriter) error
}

// Write writes the subgraph that sel picks from st to w in format f, as
// the export command and the /export endpoint serve it. DOT, GraphML and
// Cytoscape are streamed (the whole graph in bounded memory, see
// store.Export); SVG and PNG are laid out by Graphviz (Render) and refuse
// a subgraph of more than MaxRender nodes, counted before a whole graph
// is loaded, with graph.ErrBadArgument. Errors of the selection are
// store.Select's.
func Write(ctx context.Context, w io.Writer, st Source, sel graph.Selection, f Format, opts Options) error {
	var gw graph.GraphWriter
	switch f {
	case DOT:
		gw = NewDOTWriter(w, opts.DOT)
	case GraphML:
		gw = NewGraphMLWriter(w)
	case Cytoscape:
		gw = NewCytoscapeWriter(w)
	case SVG, PNG:
		return draw(ctx, w, st, sel, f, opts)
	case RDF:
		wk, ok := st.(Walker)
		if !ok || !sel.Whole() {
			return fmt.Errorf("%w: rdf exports the whole graph of a Badger database (no --paper, --entity or --search)", graph.ErrBadArgument)
		}
		return WriteRDF(ctx, w, wk)
	default:
		return fmt.Errorf("%w: format %d", graph.ErrBadArgument, uint8(f))
	}
	if err := st.Export(ctx, sel, gw); err != nil {
		return err
	}
	return gw.Close()
}

// draw writes the selection as SVG or PNG.
func draw(ctx context.Context, w io.Writer, st Source, sel graph.Selection, f Format, opts Options) error {
	limit := opts.MaxRender
	if limit <= 0 {
		limit = MaxRenderNodes
	}
	tooMany := func(n int) error {
		return fmt.Errorf("%w: %d nodes are too many to draw as %s (at most %d): pick a smaller subgraph (a paper, an entity or a search; fewer hops, a lower limit), or export it as dot and lay it out with Graphviz's sfdp",
			graph.ErrBadArgument, n, f, limit)
	}
	if sel.Whole() {
		stats, err := st.Stats(ctx)
		if err != nil {
			return err
		}
		n := stats.Papers
		for k, c := range stats.Entities {
			if len(sel.Kinds) == 0 || slices.Contains(sel.Kinds, k) {
				n += c
			}
		}
		if n > limit {
			return tooMany(n)
		}
	}
	g, err := st.Select(ctx, sel)
	if err != nil {
		return err
	}
	if len(g.Nodes) > limit {
		return tooMany(len(g.Nodes))
	}
	var dot bytes.Buffer
	if err := WriteDOT(&dot, g, opts.DOT); err != nil {
		return err
	}
	return Render(ctx, w, dot.Bytes(), f)
}
