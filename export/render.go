package export

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/goccy/go-graphviz"

	"github.com/papergraph/papergraph/graph"
)

// renderSlot serialises calls into go-graphviz, which runs Graphviz in one
// WebAssembly instance per process that is not safe for concurrent use. A
// channel rather than a mutex, so that a call waiting for it gives up when
// its context ends.
var renderSlot = make(chan struct{}, 1)

// Render lays out the DOT digraph dot with Graphviz's dot layout and
// writes it to w as SVG or PNG. Graphviz runs in-process
// (compiled to WebAssembly by github.com/goccy/go-graphviz): no system
// Graphviz is needed. Calls are serialised. Unparsable DOT is an error.
//
// SVG is Graphviz's own output. PNG is drawn by go-graphviz's Go
// rasteriser, which since v0.2.1 loses strokes (node outlines, thin edges:
// goccy/go-graphviz issue #106); prefer SVG, or Graphviz's own dot -Tpng
// on the DOT, for pictures.
func Render(ctx context.Context, w io.Writer, dot []byte, format Format) error {
	var f graphviz.Format
	switch format {
	case SVG:
		f = graphviz.SVG
	case PNG:
		f = graphviz.PNG
	default:
		return fmt.Errorf("render: %w: format %s (want svg or png)", graph.ErrBadArgument, format)
	}
	select {
	case renderSlot <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("render: waiting for Graphviz: %w", ctx.Err())
	}
	defer func() { <-renderSlot }()
	if err := ctx.Err(); err != nil {
		return err
	}
	gv, err := graphviz.New(ctx)
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	defer gv.Close()
	g, err := graphviz.ParseBytes(dot)
	if g == nil && err == nil {
		err = errors.New("graphviz could not parse the DOT")
	}
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	defer g.Close()
	if err := gv.Render(ctx, g, f, w); err != nil {
		return fmt.Errorf("render %s: %w", format, err)
	}
	return nil
}
