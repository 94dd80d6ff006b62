package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/goccy/go-graphviz"
)

// MaxRenderNodes is the most nodes Render is asked to lay out by the
// export command and endpoint: Graphviz's layout is superlinear and not
// streamable, and a picture of more nodes is unreadable anyway.
const MaxRenderNodes = 1000

// renderMu serialises calls into go-graphviz, which runs Graphviz in one
// WebAssembly instance per process that is not safe for concurrent use.
var renderMu sync.Mutex

// Render lays out the DOT digraph dot with Graphviz's dot layout and
// writes it to w as format "svg" or "png". Graphviz runs in-process
// (compiled to WebAssembly by github.com/goccy/go-graphviz): no system
// Graphviz is needed. Calls are serialised. Unparsable DOT is an error.
//
// SVG is Graphviz's own output. PNG is drawn by go-graphviz's Go
// rasteriser, which since v0.2.1 loses strokes (node outlines, thin edges:
// goccy/go-graphviz issue #106); prefer SVG, or Graphviz's own dot -Tpng
// on the DOT, for pictures.
func Render(ctx context.Context, w io.Writer, dot []byte, format string) error {
	var f graphviz.Format
	switch format {
	case "svg":
		f = graphviz.SVG
	case "png":
		f = graphviz.PNG
	default:
		return fmt.Errorf("render: unknown format %q (want svg or png)", format)
	}
	renderMu.Lock()
	defer renderMu.Unlock()
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
