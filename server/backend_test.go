package server

import (
	"context"
	"errors"
	"testing"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/dgraph/dgraphtest"
	"github.com/papergraph/papergraph/graph/store"
)

// serve is newTestServer over a new store of b.
func (b backend) serve(tb testing.TB, bulk int, opts Options) *testServer {
	tb.Helper()
	return serveFixture(tb, b.open(tb), bulk, opts)
}

// backend is a store the server's tests run against.
type backend struct {
	name string
	// open returns a new, empty store of the backend.
	open func(tb testing.TB) Store
	// skip names the query tests the backend does not answer, each with
	// the reason (documented on its Store method).
	skip map[string]string
}

// backends returns the embedded Badger store and, when a Dgraph binary is
// given (see dgraphtest), a Dgraph store on a cluster of the test's own,
// one database each call of serve.
func backends(t *testing.T) []backend {
	bs := []backend{{name: "badger", open: func(tb testing.TB) Store {
		st, err := store.Open(tb.TempDir(), store.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { st.Close() })
		return st
	}}}
	if dgraphtest.Binary() == "" {
		t.Log("no Dgraph binary: the queries run on Badger only (set PAPERGRAPH_DGRAPH)")
		return bs
	}
	var c *dgraphtest.Cluster
	return append(bs, backend{
		name: "dgraph",
		open: func(tb testing.TB) Store {
			if c == nil {
				c = dgraphtest.Start(t)
			}
			st, err := dgraph.Open(context.Background(), c.Addr, dgraph.Options{})
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { st.Close() })
			if err := st.DropAll(context.Background()); err != nil {
				tb.Fatal(err)
			}
			return st
		},
		skip: map[string]string{
			"path": "of two shortest paths, Dgraph picks its own",
		},
	})
}

// TestLookupForms checks that both stores resolve KIND:NAME alike where a
// name's normalised form and its slug point to different entities: the
// normalised form first, then the slug, each the first entity by id of
// those with a name or alias of that form, whichever is canonical.
func TestLookupForms(t *testing.T) {
	tech := func(name string, aliases ...string) graph.Entity {
		return graph.Entity{Kind: graph.Technique, Name: name, Aliases: aliases}
	}
	papers := []graph.Paper{
		fxPaper(1, "", tech("GPT-4")),
		// Before technique:gpt-4 by id: its alias is GPT-4's slug.
		fxPaper(2, "", tech("Aardvark", "GPT 4")),
		// After technique:gpt-4o by id: only its alias's normalised form
		// differs from GPT-4o's.
		fxPaper(3, "", tech("Zebra", "gpt 4o")),
		fxPaper(4, "", tech("GPT-4o")),
		fxPaper(5, "", graph.Entity{Kind: graph.Dataset, Name: "Mamba 2"}, tech("Mamba-2")),
	}
	tests := []struct {
		name string
		kind graph.Kind
		ref  string
		want string // entity id, "" for not found
	}{
		{"normalised form of an alias", graph.Technique, "gpt 4", "technique:aardvark"},
		{"alias's slug beats the name of a later id", graph.Technique, "GPT-4", "technique:aardvark"},
		{"normalised form before slug", graph.Technique, "GPT  4o", "technique:zebra"},
		{"name by normalised form", graph.Technique, "gpt-4O", "technique:gpt-4o"},
		{"slug when no normalised form matches", graph.Technique, "gpt_4o", "technique:gpt-4o"},
		{"within the kind", graph.Technique, "mamba 2", "technique:mamba-2"},
		{"other kind", graph.Dataset, "Mamba-2", "dataset:mamba-2"},
		{"no such name", graph.Technique, "gpt-5", ""},
	}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st := b.open(t)
			if _, err := st.PutPapers(ctx, papers); err != nil {
				t.Fatal(err)
			}
			for _, tt := range tests {
				e, err := st.Lookup(ctx, tt.kind, tt.ref)
				switch {
				case tt.want == "" && !errors.Is(err, graph.ErrNotFound):
					t.Errorf("%s: Lookup(%v, %q) = %s, %v; want ErrNotFound", tt.name, tt.kind, tt.ref, e.ID(), err)
				case tt.want != "" && (err != nil || e.ID() != tt.want):
					t.Errorf("%s: Lookup(%v, %q) = %s, %v; want %s", tt.name, tt.kind, tt.ref, e.ID(), err, tt.want)
				}
				// A selection by KIND:NAME resolves the same way.
				g, err := st.Select(ctx, graph.Selection{Entity: tt.kind.String() + ":" + tt.ref})
				switch {
				case tt.want == "" && !errors.Is(err, graph.ErrNotFound):
					t.Errorf("%s: Select(%s:%s) = %v; want ErrNotFound", tt.name, tt.kind, tt.ref, err)
				case tt.want != "" && (err != nil || len(g.Nodes) == 0 || g.Nodes[0].ID() != tt.want):
					t.Errorf("%s: Select(%s:%s) = %v, %v; want root %s", tt.name, tt.kind, tt.ref, g.Nodes, err, tt.want)
				}
			}
		})
	}
}
