package server

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// examplePattern finds the example query in the playground page.
var examplePattern = regexp.MustCompile(`(?s)<script type="application/json" id="example">(.*?)</script>`)

// pageExample returns the example query of the playground page.
func pageExample(tb testing.TB, page string) string {
	tb.Helper()
	m := examplePattern.FindStringSubmatch(page)
	if m == nil {
		tb.Fatalf("playground page has no example:\n%s", page)
	}
	var q string
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &q); err != nil {
		tb.Fatalf("playground example %s: %v", m[1], err)
	}
	return q
}

func TestPlaygroundPage(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	status, ctype, b := get(t, ts.Server, "/")
	page := string(b)
	if status != http.StatusOK || !strings.HasPrefix(ctype, "text/html") {
		t.Fatalf("GET / = %d %s; want 200 text/html", status, ctype)
	}
	for _, want := range []string{`src="/playground/graphiql.min.js"`, `src="/playground/start.js"`, `href="/playground/graphiql.min.css"`} {
		if !strings.Contains(page, want) {
			t.Errorf("GET / page lacks %s", want)
		}
	}
	// Every script and style is the server's own: nothing from a CDN.
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(m[1], "/") {
			t.Errorf("playground page loads %s, not from the server", m[1])
		}
	}
	// The example has answers on the graph served.
	r := ts.post(t, pageExample(t, page), nil)
	var data struct{ PapersSharing []json.RawMessage }
	if err := json.Unmarshal(r.Data, &data); err != nil || len(r.Errors) > 0 {
		t.Fatalf("example query: %v %v", err, r.Errors)
	}
	if len(data.PapersSharing) == 0 {
		t.Errorf("example query has no papersSharing answers: %s", r.Data)
	}
}

func TestPlaygroundAssets(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "start.js"), []byte("// replaced\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		opts       Options
		status     int
		ctype      string
		body       string // a prefix of the body
	}{
		{"graphiql", "/playground/graphiql.min.js", Options{}, 200, "text/javascript", "!function"},
		{"styles", "/playground/graphiql.min.css", Options{}, 200, "text/css", ""},
		{"react", "/playground/react.production.min.js", Options{}, 200, "text/javascript", ""},
		{"react-dom", "/playground/react-dom.production.min.js", Options{}, 200, "text/javascript", ""},
		{"licence", "/playground/LICENSE.graphiql", Options{}, 200, "", "MIT License"},
		{"missing", "/playground/nothing.js", Options{}, 404, "", ""},
		{"override", "/playground/start.js", Options{PlaygroundAssets: dir}, 200, "text/javascript", "// replaced"},
		{"not overridden", "/playground/graphiql.min.js", Options{PlaygroundAssets: dir}, 200, "text/javascript", "!function"},
		{"outside the directory", "/playground/../go.mod", Options{PlaygroundAssets: dir}, 404, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, 0, tt.opts)
			status, ctype, body := get(t, ts.Server, tt.path)
			if status != tt.status || !strings.HasPrefix(ctype, tt.ctype) || !strings.HasPrefix(string(body), tt.body) {
				t.Errorf("GET %s = %d %q %.20q; want %d %q %q", tt.path, status, ctype, body, tt.status, tt.ctype, tt.body)
			}
		})
	}
}

func TestExampleQuery(t *testing.T) {
	ds := func(name string) graph.Entity { return graph.Entity{Kind: graph.Dataset, Name: name} }
	tech := func(name string) graph.Entity { return graph.Entity{Kind: graph.Technique, Name: name} }
	tests := []struct {
		name   string
		papers []graph.Paper
		want   string // in the query
	}{
		{"empty graph", nil, "stats"},
		{"no entity shared", []graph.Paper{fxPaper(1, "", ds("A")), fxPaper(2, "", ds("B"))}, "stats"},
		{"a shared dataset", []graph.Paper{fxPaper(1, "", ds("A")), fxPaper(2, "", ds("A"))}, "kinds: [DATASET]"},
		// As on the seed graph: every dataset has one paper.
		{"only a shared technique", []graph.Paper{fxPaper(1, "", ds("A"), tech("T")), fxPaper(2, "", ds("B"), tech("T"))}, "kinds: [TECHNIQUE]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := store.Open(t.TempDir(), store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if len(tt.papers) > 0 {
				if _, err := st.PutPapers(context.Background(), tt.papers); err != nil {
					t.Fatal(err)
				}
			}
			got, err := exampleQuery(context.Background(), st)
			if err != nil || !strings.Contains(got, tt.want) {
				t.Errorf("exampleQuery() = %q, %v; want a query with %q", got, err, tt.want)
			}
		})
	}
}
