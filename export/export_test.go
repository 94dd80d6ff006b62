package export

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// testStore is a real store holding papers of corpus.Papers.
func testStore(tb testing.TB, n int) *store.Store {
	tb.Helper()
	st, err := store.Open(tb.TempDir(), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	if _, err := st.PutPapers(context.Background(), corpus.Papers(7, n, 20)); err != nil {
		tb.Fatal(err)
	}
	return st
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(f.String()); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", f.String(), got, err, f)
		}
		if got, ok := FormatOfExt(f.Ext(), Formats); !ok || got != f {
			t.Errorf("FormatOfExt(%q) = %v, %v; want %v", f.Ext(), got, ok, f)
		}
	}
	if _, err := ParseFormat("pdf"); !errors.Is(err, graph.ErrBadArgument) {
		t.Errorf("ParseFormat(pdf) = %v; want ErrBadArgument", err)
	}
	if _, ok := FormatOfExt("png", []Format{DOT, SVG}); ok {
		t.Error("FormatOfExt(png, [dot svg]) found a format; want none")
	}
}

// TestWrite writes every format of a rooted and of the whole graph, and
// checks that the streamed DOT is WriteDOT of the selection and that a
// drawing past MaxRender is refused.
func TestWrite(t *testing.T) {
	ctx := context.Background()
	st := testStore(t, 60)
	root := corpus.PaperID(7 << 32)
	tests := []struct {
		name    string
		sel     graph.Selection
		format  Format
		opts    Options
		prefix  string // of the output
		wantErr error
	}{
		{"dot", graph.Selection{Paper: root, Hops: 1}, DOT, Options{}, "digraph", nil},
		{"dot whole", graph.Selection{}, DOT, Options{DOT: DOTOptions{Cluster: true}}, "digraph", nil},
		{"graphml", graph.Selection{Paper: root, Hops: 1}, GraphML, Options{}, "<?xml", nil},
		{"cytoscape whole", graph.Selection{}, Cytoscape, Options{}, "{", nil},
		{"svg", graph.Selection{Paper: root, Hops: 1}, SVG, Options{}, "<?xml", nil},
		{"svg too big", graph.Selection{Paper: root, Hops: 2}, SVG, Options{MaxRender: 3}, "", graph.ErrBadArgument},
		{"png whole too big", graph.Selection{}, PNG, Options{MaxRender: 10}, "", graph.ErrBadArgument},
		{"unknown root", graph.Selection{Paper: corpus.PaperID(99999)}, DOT, Options{}, "", graph.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := Write(ctx, &b, st, tt.sel, tt.format, tt.opts)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Write(%+v, %v) = %v; want %v", tt.sel, tt.format, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if !bytes.HasPrefix(bytes.TrimSpace(b.Bytes()), []byte(tt.prefix)) {
				t.Errorf("Write(%+v, %v) = %.40q...; want it to start with %q", tt.sel, tt.format, b.Bytes(), tt.prefix)
			}
			if tt.format != DOT {
				return
			}
			g, err := st.Select(ctx, tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := WriteDOT(&want, g, tt.opts.DOT); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want.Bytes()) {
				t.Errorf("streamed DOT differs from WriteDOT(Select(%+v)):\n%s\n---\n%s", tt.sel, b.Bytes(), want.Bytes())
			}
		})
	}
}
