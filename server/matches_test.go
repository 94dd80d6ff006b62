package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// seenDirect is directMatches counting the lists it writes itself.
type seenDirect struct {
	directMatches
	n *atomic.Int32
}

func (s seenDirect) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	res, err := s.directMatches.InterceptField(ctx, next)
	if _, ok := res.(*matchList); ok {
		s.n.Add(1)
	}
	return res, err
}

// gqlgenServer serves st's API with gqlgen's generated code, the one
// transport tr and the extensions exts, over real HTTP; the request state
// the resolvers' loaders need is in every request's context, as Server
// puts it there.
func gqlgenServer(tb testing.TB, st Store, tr graphql.Transport, exts ...graphql.HandlerExtension) *httptest.Server {
	tb.Helper()
	h := handler.New(NewExecutableSchema(Config{Resolvers: &Resolver{store: st, extract: fixtureExtract}, Complexity: complexity()}))
	h.AddTransport(tr)
	h.Use(extension.Introspection{})
	for _, ext := range exts {
		h.Use(ext)
	}
	f := newFetchers(st, newMetrics(prometheus.NewRegistry()), time.Millisecond)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := &request{loaders: loaders{fetch: f}}
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, rq)))
	}))
	tb.Cleanup(ts.Close)
	return ts
}

// escapingStore is a store of the fixture and of a paper with every
// nullable field set and strings to escape (quotes, control characters,
// <, > and &), sharing Rare with fixture paper 1.
func escapingStore(tb testing.TB) Store {
	tb.Helper()
	st, err := store.Open(tb.TempDir(), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	full := fxPaper(50, "An abstract with \"quotes\", a tab\tand a \\ backslash,\nover two lines \x01 ünïcode\u2028.",
		graph.Entity{Kind: graph.Dataset, Name: "Rare"}, graph.Entity{Kind: graph.Task, Name: "question answering"})
	full.Name, full.Title, full.URL, full.Venue, full.Year = "Zebra", `The "Zebra" <model> & co`, "https://example.org/z?a=1&b=2", "ICLR 2025", 2025
	full.Source, full.Index = "extra.jsonl", 7
	if _, err := st.PutPapers(context.Background(), append(fixturePapers(30), full)); err != nil {
		tb.Fatal(err)
	}
	return st
}

// TestDirectMatchesAsGenerated checks that papersSharing answers byte for
// byte what gqlgen's generated code answers, for selections that
// directMatches writes and for those it leaves to gqlgen.
func TestDirectMatchesAsGenerated(t *testing.T) {
	st := escapingStore(t)
	want := gqlgenServer(t, st, transport.POST{})
	var direct atomic.Int32
	got := gqlgenServer(t, st, transport.POST{}, seenDirect{n: &direct})

	p1 := map[string]any{"p": fxID(1)}
	for _, tc := range []struct {
		name   string
		query  string
		vars   map[string]any
		direct bool
	}{
		{"bench's query", `query($p: ID!) { papersSharing(paper: $p) { score paper { id label } shared { id name } } }`, p1, true},
		{"every plain field", `query($p: ID!) { papersSharing(paper: $p, kinds: [DATASET, TASK, TECHNIQUE], first: 100) {
			__typename score paper { __typename id name label title abstract source index url venue year }
			shared { __typename id kind name } } }`, p1, true},
		{"aliases and repeats", `query($p: ID!) { m: papersSharing(paper: $p, kinds: [DATASET, TASK]) {
			s: score score paper { id } paper { label l: label } who: shared { n: name } shared { id } } }`, p1, true},
		{"fragments", `query($p: ID!) { papersSharing(paper: $p) { ...M paper { ... on Node { id } ... on Paper { year } } } }
			fragment M on PaperMatch { score shared { ... on Entity { name } ...E } }
			fragment E on Node { id }`, p1, true},
		{"skip and include", `query($p: ID!, $yes: Boolean!) { papersSharing(paper: $p) {
			score @skip(if: $yes) paper { id @include(if: $yes) label @include(if: false) } shared { name @skip(if: false) } } }`,
			map[string]any{"p": fxID(1), "yes": true}, true},
		{"family", `query($p: ID!) { papersSharing(paper: $p, family: true) { score paper { id label } shared { id name kind } } }`,
			map[string]any{"p": fxID(20)}, true},
		{"minShared", `query($p: ID!) { papersSharing(paper: $p, minShared: 2, first: 3) { score paper { id } } }`, p1, true},
		{"no match", `query($p: ID!) { papersSharing(paper: $p) { score paper { id } } }`, map[string]any{"p": fxID(40)}, true},
		{"entity through its loader", `query($p: ID!) { papersSharing(paper: $p) { score shared { name paperCount aliases } } }`, p1, false},
		{"paper lists", `query($p: ID!) { papersSharing(paper: $p) { paper { id authors datasets { name } } } }`, p1, false},
		{"field arguments", `query($p: ID!) { papersSharing(paper: $p) { paper { entities(kind: DATASET) { id } } } }`, p1, false},
		{"not found", `query($p: ID!) { papersSharing(paper: $p) { score } }`, map[string]any{"p": fxID(999)}, false},
		{"bad argument", `query($p: ID!) { papersSharing(paper: $p, first: 0) { score } }`, p1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := direct.Load()
			body, err := json.Marshal(map[string]any{"query": tc.query, "variables": tc.vars})
			if err != nil {
				t.Fatal(err)
			}
			_, _, w := send(t, want.URL, string(body), "")
			_, _, g := send(t, got.URL, string(body), "")
			if !bytes.Equal(g, w) {
				t.Errorf("papersSharing with directMatches =\n%s\nwant (gqlgen's code)\n%s", g, w)
			}
			if wrote := direct.Load() > before; wrote != tc.direct {
				t.Errorf("directMatches wrote the list: %v; want %v (response %s)", wrote, tc.direct, g)
			}
		})
	}
}

// FuzzAppendQuoted checks that appendQuoted writes any string as gqlgen's
// MarshalString does.
func FuzzAppendQuoted(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "tab\tnew\nline\rret", "\x00\x1f\x7f", "ünïcode ✓", "bad \xff\xfe utf-8 \xe2\x22"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		graphql.MarshalString(s).MarshalGQL(&want)
		if got := appendQuoted(nil, s); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("appendQuoted(%q) = %s; want %s", s, got, want.Bytes())
		}
	})
}
