package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// The fixture: hand-built papers whose answers follow from their
// construction (the seed graph built by the real extractor is tested end to
// end in package main, cmd_serve_test.go).
//
//	paper | datasets           | other entities
//	------+--------------------+-------------------------
//	 1    | Rare, Hub          | technique LoRA, task QA
//	 2    | Rare               |
//	 3    | Hub                |
//	 4    | Rare, Hub          |
//	20    | OSWorld-G          |
//	21    | OSWorld-Verified   |
//	22    | OSWorld            |
//	40    | (none)             | abstract about zebras
//	100+i | Bulk (i < bulk)    | papers for the dataloader test
//
// OSWorld-G and OSWorld-Verified have broader OSWorld.
func fixturePapers(bulk int) []graph.Paper {
	ds := func(name string, broader ...string) graph.Entity {
		return graph.Entity{Kind: graph.Dataset, Name: name, Broader: broader}
	}
	lora := graph.Entity{Kind: graph.Technique, Name: "LoRA", Aliases: []string{"low-rank adaptation"}}
	qa := graph.Entity{Kind: graph.Task, Name: "question answering"}
	rare, hub := ds("Rare"), ds("Hub")
	osw, owg, owv := ds("OSWorld"), ds("OSWorld-G", "OSWorld"), ds("OSWorld-Verified", "OSWorld")
	ps := []graph.Paper{
		fxPaper(1, "", qa, rare, hub, lora),
		fxPaper(2, "", rare),
		fxPaper(3, "", hub),
		fxPaper(4, "", rare, hub),
		fxPaper(20, "", owg),
		fxPaper(21, "", owv),
		fxPaper(22, "", osw),
		fxPaper(40, "The zebra zebra zebra quagga."),
	}
	for i := range bulk {
		ps = append(ps, fxPaper(100+i, "", ds("Bulk"), ds(fmt.Sprintf("Bulk %d", i%7))))
	}
	for i := range ps {
		ps[i].Source = "fixture.jsonl"
		ps[i].Index = i + 1
		ps[i].Ancestors = nil
		for _, e := range ps[i].Entities {
			for _, b := range e.Broader {
				ps[i].Ancestors = append(ps[i].Ancestors, ds(b))
			}
		}
	}
	return ps
}

// fxID is the id of fixture paper n.
func fxID(n int) string { return fmt.Sprintf("%016x", n) }

func fxPaper(n int, abstract string, es ...graph.Entity) graph.Paper {
	if abstract == "" {
		abstract = fmt.Sprintf("Fixture abstract number %d.", n)
	}
	return graph.Paper{ID: fxID(n), Label: fmt.Sprintf("fixture %d", n), Abstract: abstract, Entities: es}
}

// fixtureExtract stands in for the extractor, which package server may
// not import: it names the paper by its title and links the fixture's
// datasets named in the abstract. It panics on an abstract of "panic", so
// that tests can see a resolver's panic recovered.
func fixtureExtract(ctx context.Context, title, abstract string) (graph.Paper, error) {
	if abstract == "panic" {
		panic("fixture extractor asked to panic")
	}
	p := graph.Paper{ID: fmt.Sprintf("%016x", len(abstract)+1000), Title: title, Label: title, Abstract: abstract}
	for _, name := range []string{"Hub", "Rare"} {
		if strings.Contains(abstract, name) {
			p.Entities = append(p.Entities, graph.Entity{Kind: graph.Dataset, Name: name})
		}
	}
	return p, nil
}

// testServer is a Server over the fixture in a real Badger database,
// behind a real HTTP server.
type testServer struct {
	*httptest.Server
	logs *bytes.Buffer
}

func newTestServer(tb testing.TB, bulk int, opts Options) *testServer {
	tb.Helper()
	st, err := store.Open(tb.TempDir(), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return serveFixture(tb, st, bulk, opts)
}

// serveFixture is newTestServer over st, which it fills with the fixture.
func serveFixture(tb testing.TB, st Store, bulk int, opts Options) *testServer {
	tb.Helper()
	if _, err := st.PutPapers(context.Background(), fixturePapers(bulk)); err != nil {
		tb.Fatal(err)
	}
	logs := &bytes.Buffer{}
	opts.Store = st
	if opts.Extract == nil {
		opts.Extract = fixtureExtract
	}
	opts.Logger = slog.New(slog.NewTextHandler(&syncWriter{w: logs}, nil))
	srv, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	tb.Cleanup(ts.Close)
	return &testServer{Server: ts, logs: logs}
}

// syncWriter serialises writes from concurrent requests.
type syncWriter struct {
	mu chan struct{}
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	if s.mu == nil {
		s.mu = make(chan struct{}, 1)
	}
	s.mu <- struct{}{}
	defer func() { <-s.mu }()
	return s.w.Write(p)
}

// gqlResponse is a GraphQL response as a client sees it.
type gqlResponse struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// codes returns the extensions.code of each error.
func (r gqlResponse) codes() []string {
	var out []string
	for _, e := range r.Errors {
		c, _ := e.Extensions["code"].(string)
		out = append(out, c)
	}
	return out
}

// post sends query (and variables, when not nil) to /query, with header
// lines "Name: value".
func (ts *testServer) post(tb testing.TB, query string, vars map[string]any, header ...string) gqlResponse {
	tb.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		tb.Fatal(err)
	}
	return ts.do(tb, http.MethodPost, "/query", bytes.NewReader(body), append(header, "Content-Type: application/json")...)
}

func (ts *testServer) do(tb testing.TB, method, path string, body io.Reader, header ...string) gqlResponse {
	tb.Helper()
	req, err := http.NewRequest(method, ts.URL+path, body)
	if err != nil {
		tb.Fatal(err)
	}
	for _, h := range header {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	r := gqlResponse{Status: resp.StatusCode}
	if strings.Contains(resp.Header.Get("Content-Type"), "json") {
		if err := json.Unmarshal(b, &r); err != nil {
			tb.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return r
}

// sameJSON reports the difference between two JSON texts, "" when they
// hold the same value.
func sameJSON(tb testing.TB, got json.RawMessage, want string) string {
	tb.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Sprintf("got invalid JSON %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		tb.Fatalf("want invalid JSON %s: %v", want, err)
	}
	return cmp.Diff(w, g)
}

func TestQueries(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ts := b.serve(t, 0, Options{})
			for _, tt := range queryTests() {
				if b.skip[tt.name] != "" {
					continue
				}
				t.Run(tt.name, func(t *testing.T) {
					r := ts.post(t, tt.query, nil)
					if r.Status != http.StatusOK || len(r.Errors) > 0 {
						t.Fatalf("status %d, errors %+v", r.Status, r.Errors)
					}
					if d := sameJSON(t, r.Data, tt.want); d != "" {
						t.Errorf("data differs (-want +got):\n%s", d)
					}
				})
			}
		})
	}
}

// queryTests are TestQueries' cases: each query and its answer on the
// fixture, the same on every backend.
func queryTests() []struct{ name, query, want string } {
	p := func(n int) string { return fxID(n) }
	return []struct{ name, query, want string }{
		{
			"paper",
			`{ paper(id: "` + p(1) + `") { id name label title source index year authors
				datasets { id name paperCount } tasks { name } techniques { name aliases }
				modalities { name } entities(kind: TASK) { id } } }`,
			`{"paper": {"id": "` + p(1) + `", "name": null, "label": "fixture 1", "title": null,
				"source": "fixture.jsonl", "index": 1, "year": null, "authors": [],
				"datasets": [{"id": "dataset:hub", "name": "Hub", "paperCount": 3},
					{"id": "dataset:rare", "name": "Rare", "paperCount": 3}],
				"tasks": [{"name": "question answering"}],
				"techniques": [{"name": "LoRA", "aliases": ["low-rank adaptation"]}],
				"modalities": [], "entities": [{"id": "task:question-answering"}]}}`,
		},
		{
			"unknown paper is null",
			`{ paper(id: "00000000000000ff") { id } }`,
			`{"paper": null}`,
		},
		{
			"node of each kind",
			`{ a: node(id: "` + p(2) + `") { id ... on Paper { label } }
			   b: node(id: "dataset:rare") { id ... on Entity { kind name } }
			   c: node(id: "dataset:nothing") { id } }`,
			`{"a": {"id": "` + p(2) + `", "label": "fixture 2"},
			  "b": {"id": "dataset:rare", "kind": "DATASET", "name": "Rare"}, "c": null}`,
		},
		{
			"entity by name, case-insensitively, with taxonomy",
			`{ entity(kind: DATASET, name: "osworld-g") { id name broader { id narrower { id } } paperCount
				papers { totalCount edges { node { id } } } } }`,
			`{"entity": {"id": "dataset:osworld-g", "name": "OSWorld-G", "paperCount": 1,
				"broader": [{"id": "dataset:osworld", "narrower": [{"id": "dataset:osworld-g"}, {"id": "dataset:osworld-verified"}]}],
				"papers": {"totalCount": 1, "edges": [{"node": {"id": "` + p(20) + `"}}]}}}`,
		},
		{
			"entity by alias",
			`{ entity(kind: TECHNIQUE, name: "Low-Rank Adaptation") { id } }`,
			`{"entity": {"id": "technique:lora"}}`,
		},
		{
			"papers filtered by entity",
			`{ papers(first: 2, filter: {entity: "dataset:hub"}) { totalCount pageInfo { hasNextPage }
				edges { node { id } } } }`,
			`{"papers": {"totalCount": 3, "pageInfo": {"hasNextPage": true},
				"edges": [{"node": {"id": "` + p(1) + `"}}, {"node": {"id": "` + p(3) + `"}}]}}`,
		},
		{
			"entities by degree",
			`{ entities(kind: DATASET, first: 2) { totalCount edges { node { name paperCount } } } }`,
			`{"entities": {"totalCount": 5, "edges": [{"node": {"name": "Hub", "paperCount": 3}},
				{"node": {"name": "Rare", "paperCount": 3}}]}}`,
		},
		{
			"papers sharing datasets",
			`{ papersSharing(paper: "` + p(2) + `") { paper { id } shared { id } } }`,
			`{"papersSharing": [{"paper": {"id": "` + p(1) + `"}, "shared": [{"id": "dataset:rare"}]},
				{"paper": {"id": "` + p(4) + `"}, "shared": [{"id": "dataset:rare"}]}]}`,
		},
		{
			"papers sharing through the taxonomy",
			`{ direct: papersSharing(paper: "` + p(20) + `") { paper { id } }
			   family: papersSharing(paper: "` + p(20) + `", family: true) { paper { id } shared { id } } }`,
			`{"direct": [], "family": [
				{"paper": {"id": "` + p(21) + `"}, "shared": [{"id": "dataset:osworld"}]},
				{"paper": {"id": "` + p(22) + `"}, "shared": [{"id": "dataset:osworld"}]}]}`,
		},
		{
			"neighborhood",
			`{ neighborhood(id: "dataset:rare") { nodes { id } edges { from to kind } } }`,
			`{"neighborhood": {"nodes": [{"id": "` + p(1) + `"}, {"id": "` + p(2) + `"}, {"id": "` + p(4) + `"}, {"id": "dataset:rare"}],
				"edges": [{"from": "` + p(1) + `", "to": "dataset:rare", "kind": "DATASET"},
					{"from": "` + p(2) + `", "to": "dataset:rare", "kind": "DATASET"},
					{"from": "` + p(4) + `", "to": "dataset:rare", "kind": "DATASET"}]}}`,
		},
		{
			"neighborhood truncated",
			`{ whole: neighborhood(id: "dataset:rare", limit: 4) { truncated } cut: neighborhood(id: "dataset:rare", limit: 3) { truncated nodes { id } } }`,
			`{"whole": {"truncated": false}, "cut": {"truncated": true, "nodes": [{"id": "` + p(1) + `"}, {"id": "` + p(2) + `"}, {"id": "dataset:rare"}]}}`,
		},
		{
			"path",
			`{ path(from: "` + p(2) + `", to: "dataset:hub") { nodes { id } edges { from to kind } } none: path(from: "` + p(2) + `", to: "` + p(40) + `") { nodes { id } } }`,
			// In path order, edges in their own direction.
			`{"path": {"nodes": [{"id": "` + p(2) + `"}, {"id": "dataset:rare"}, {"id": "` + p(1) + `"}, {"id": "dataset:hub"}],
				"edges": [{"from": "` + p(2) + `", "to": "dataset:rare", "kind": "DATASET"}, {"from": "` + p(1) + `", "to": "dataset:rare", "kind": "DATASET"},
					{"from": "` + p(1) + `", "to": "dataset:hub", "kind": "DATASET"}]}, "none": null}`,
		},
		{
			"search",
			`{ search(query: "zebra", first: 1) { node { id ... on Paper { label } } } }`,
			`{"search": [{"node": {"id": "` + p(40) + `", "label": "fixture 40"}}]}`,
		},
		{
			"co-occurring",
			`{ coOccurring(entity: "dataset:rare", kind: DATASET) { entity { id } count } }`,
			`{"coOccurring": [{"entity": {"id": "dataset:hub"}, "count": 2}]}`,
		},
		{
			"stats",
			`{ stats { papers edges entities entitiesByKind { kind count } } }`,
			`{"stats": {"papers": 8, "edges": 11, "entities": 7, "entitiesByKind": [
				{"kind": "TASK", "count": 1}, {"kind": "MODALITY", "count": 0},
				{"kind": "DATASET", "count": 5}, {"kind": "TECHNIQUE", "count": 1}]}}`,
		},
		{
			"extract stores nothing",
			`{ extract(text: "We train on Hub.", title: "A title") { title datasets { name } } stats { papers } }`,
			`{"extract": {"title": "A title", "datasets": [{"name": "Hub"}]}, "stats": {"papers": 8}}`,
		},
	}
}

func TestSubgraphDOT(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	r := ts.post(t, `{ neighborhood(id: "dataset:rare") { dot } }`, nil)
	var data struct{ Neighborhood struct{ DOT string } }
	if err := json.Unmarshal(r.Data, &data); err != nil || len(r.Errors) > 0 {
		t.Fatalf("errors %+v, %v", r.Errors, err)
	}
	if dot := data.Neighborhood.DOT; !strings.HasPrefix(dot, "digraph") || !strings.Contains(dot, "dataset:rare") {
		t.Errorf("dot = %q; want a digraph naming dataset:rare", dot)
	}
}

func TestPagination(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	const q = `query($after: String) { papers(first: 3, after: $after) {
		edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`
	var ids []string
	var after any
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("more than 5 pages of 3 for 8 papers")
		}
		r := ts.post(t, q, map[string]any{"after": after})
		var data struct {
			Papers struct {
				Edges []struct {
					Cursor string
					Node   struct{ ID string }
				}
				PageInfo struct {
					HasNextPage, HasPreviousPage bool
					StartCursor, EndCursor       *string
				}
				TotalCount int
			}
		}
		if err := json.Unmarshal(r.Data, &data); err != nil || len(r.Errors) > 0 {
			t.Fatalf("errors %+v, %v", r.Errors, err)
		}
		pi, es := data.Papers.PageInfo, data.Papers.Edges
		if pi.HasPreviousPage != (pages > 0) {
			t.Errorf("page %d: hasPreviousPage = %v; want %v", pages, pi.HasPreviousPage, pages > 0)
		}
		if len(es) == 0 || pi.StartCursor == nil || *pi.StartCursor != es[0].Cursor || pi.EndCursor == nil || *pi.EndCursor != es[len(es)-1].Cursor {
			t.Errorf("page %d: startCursor %v, endCursor %v; want the first and last edges' cursors of %+v", pages, pi.StartCursor, pi.EndCursor, es)
		}
		if data.Papers.TotalCount != 8 {
			t.Errorf("totalCount = %d; want 8", data.Papers.TotalCount)
		}
		for _, e := range data.Papers.Edges {
			ids = append(ids, e.Node.ID)
		}
		if !data.Papers.PageInfo.HasNextPage {
			break
		}
		after = *data.Papers.PageInfo.EndCursor
	}
	want := []string{fxID(1), fxID(2), fxID(3), fxID(4), fxID(20), fxID(21), fxID(22), fxID(40)}
	if d := cmp.Diff(want, ids); d != "" {
		t.Errorf("papers across pages differ (-want +got):\n%s", d)
	}
}

func TestHealth(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	resp, err := ts.Client().Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(b) != "ok\n" {
		t.Errorf("GET /healthz = %d %q; want 200 \"ok\\n\"", resp.StatusCode, b)
	}
}

// TestExportMounted checks that /export/ reaches the export handler (tested
// in export_test.go).
func TestExportMounted(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	resp, err := ts.Client().Get(ts.URL + "/export/dataset:rare.dot")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(b), "digraph") {
		t.Errorf("GET /export/dataset:rare.dot = %d %.40q; want 200 and a digraph", resp.StatusCode, b)
	}
}

func TestCORS(t *testing.T) {
	ts := newTestServer(t, 0, Options{CORSOrigins: []string{"https://app.example"}})
	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, ts.URL+"/query", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := preflight("https://app.example")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Errorf("allowed preflight = %d %v; want 204 with Allow-Origin and Allow-Methods", resp.StatusCode, resp.Header)
	}
	if resp := preflight("https://evil.example"); resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("other origin's preflight = %d %v; want 403 without Allow-Origin", resp.StatusCode, resp.Header)
	}

	body := strings.NewReader(`{"query": "{ stats { papers } }"}`)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/query", body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://app.example")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example" {
		t.Errorf("POST from allowed origin: Allow-Origin = %q; want https://app.example", got)
	}
}

func TestGET(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	r := ts.do(t, http.MethodGet, "/query?query="+url.QueryEscape(`{ stats { papers } }`), nil)
	if d := sameJSON(t, r.Data, `{"stats": {"papers": 8}}`); r.Status != http.StatusOK || d != "" {
		t.Errorf("GET /query = %d %s", r.Status, d)
	}
}

// BenchmarkServe measures requests through the real handler over real HTTP
// on the fixture with 60 Bulk papers, where every papersSharing answer has
// ten matches and the store's share of the work is small: it is the
// server's cost per request (gqlgen, limits, metrics, loaders, encoding).
// The client sends a prepared body and only checks the answer, so that
// little of the time is the client's. "sharing" is a small papersSharing
// query; "frontend" is what a paper page asks for: the paper with its
// datasets and tasks, and the papers sharing its datasets.
func BenchmarkServe(b *testing.B) {
	ts := newTestServer(b, 60, Options{})
	queries := []struct{ name, query string }{
		{"sharing", `query Sharing($p: ID!) { papersSharing(paper: $p, first: 10) { score paper { id label } shared { id name } } }`},
		{"frontend", `query PaperPage($p: ID!) {
			paper(id: $p) { id label title year source datasets { id name paperCount } tasks { id name } }
			papersSharing(paper: $p, first: 10) { score paper { id label title year } shared { id kind name } } }`},
	}
	for _, q := range queries {
		body, err := json.Marshal(map[string]any{"query": q.query, "variables": map[string]any{"p": fxID(100)}})
		if err != nil {
			b.Fatal(err)
		}
		post := func() error {
			resp, err := ts.Client().Post(ts.URL+"/query", "application/json", bytes.NewReader(body))
			if err != nil {
				return err
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK || bytes.Contains(got, []byte(`"errors"`)) || !bytes.Contains(got, []byte(`"score"`)) {
				return fmt.Errorf("%s: status %d, %v: %s", q.name, resp.StatusCode, err, got)
			}
			return nil
		}
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if err := post(); err != nil {
					b.Fatal(err)
				}
			}
		})
		// Concurrent clients, as in production: contention and the
		// scheduler's cost show here.
		b.Run(q.name+"-parallel", func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := post(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// reportCPU starts measuring the process's CPU time (user and system, all
// threads) and returns the function that reports it per operation as
// cpu-ns/op. On a shared machine it varies less than ns/op, which counts
// the time other processes hold the cores; it includes the client's share.
func reportCPU(b *testing.B) func() {
	start := cpuTime(b)
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
