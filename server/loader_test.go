package server

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// metricValues reads the server's /metrics and returns the value of each
// sample line, keyed by name and labels as printed.
func (ts *testServer) metricValues(tb testing.TB) map[string]float64 {
	tb.Helper()
	resp, err := ts.Client().Get(ts.URL + "/metrics")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET /metrics = %d", resp.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// TestNoNPlusOne shows that the store calls made for a list of papers,
// each with its datasets and their papers, do not grow with the number of
// papers: the dataloaders make one batch per loader and level.
func TestNoNPlusOne(t *testing.T) {
	// A long wait makes the batches independent of the machine's speed:
	// every resolver of a level asks within it.
	ts := newTestServer(t, 60, Options{Limits: Limits{LoaderWait: 100 * time.Millisecond}})
	const q = `{ papers(first: %d, filter: {entity: "dataset:bulk"}) { edges { node {
		datasets { paperCount papers(first: 5) { edges { node { id } } } } } } } }`
	loaders := []string{"paper", "entity", "papersOf"}
	calls := func(n int) map[string]float64 {
		before := ts.metricValues(t)
		r := ts.post(t, fmt.Sprintf(q, n), nil)
		if len(r.Errors) > 0 {
			t.Fatalf("papers(first: %d): %+v", n, r.Errors)
		}
		if got := strings.Count(string(r.Data), `"paperCount":60`); got != n {
			t.Fatalf("papers(first: %d): %d papers list Bulk with its 60 papers; want %d", n, got, n)
		}
		after := ts.metricValues(t)
		out := map[string]float64{}
		for _, l := range loaders {
			k := `papergraph_dataloader_batches_total{loader="` + l + `"}`
			out[l] = after[k] - before[k]
		}
		return out
	}
	few, many := calls(5), calls(50)
	t.Logf("store calls by loader: 5 papers %v, 50 papers %v", few, many)
	for _, l := range loaders {
		if many[l] > few[l] || many[l] > 1 {
			t.Errorf("%s loader: %v store calls for 5 papers, %v for 50; want at most 1 for both", l, few[l], many[l])
		}
	}
	if many["papersOf"] != 1 {
		t.Errorf("papersOf loader: %v store calls for 50 papers; want 1", many["papersOf"])
	}
}

func TestMetrics(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	ts.post(t, `query Stats { stats { papers } }`, nil)
	ts.post(t, `query Stats { stats { papers } }`, nil)
	ts.post(t, `query Broken { paper(id: "bad") { id } }`, nil)
	ts.post(t, `{ syntax error`, nil)
	long := strings.Repeat("N", 100<<10)
	ts.do(t, http.MethodPost, "/query", strings.NewReader(`{"query": "{ syntax", "operationName": "`+long+`"}`), "Content-Type: application/json")
	ts.post(t, `query `+long+` { stats { papers } }`, nil)
	m := ts.metricValues(t)
	for k, want := range map[string]float64{
		`papergraph_graphql_requests_total{operation="Stats",outcome="ok"}`:               2,
		`papergraph_graphql_requests_total{operation="Broken",outcome="error"}`:           1,
		`papergraph_graphql_requests_total{operation="anonymous",outcome="error"}`:        2,
		`papergraph_graphql_requests_total{operation="other",outcome="ok"}`:               1,
		`papergraph_graphql_request_duration_seconds_count{operation="Stats"}`:            2,
		`papergraph_graphql_request_duration_seconds_bucket{operation="Stats",le="+Inf"}`: 2,
	} {
		if m[k] != want {
			t.Errorf("%s = %v; want %v", k, m[k], want)
		}
	}
	if _, ok := m["go_goroutines"]; !ok {
		t.Error("no go_goroutines: the Go collector is not registered")
	}
}

// BenchmarkPapersSharing measures a papersSharing request through the
// whole server (HTTP, gqlgen, limits, metrics) on the small fixture, where
// the traversal itself is cheap: it is the server's overhead per request.
func BenchmarkPapersSharing(b *testing.B) {
	ts := newTestServer(b, 0, Options{})
	const q = `query Sharing($p: ID!) { papersSharing(paper: $p, first: 10) { score paper { id label } shared { id name } } }`
	vars := map[string]any{"p": fxID(1)}
	b.ReportAllocs()
	for b.Loop() {
		if r := ts.post(b, q, vars); len(r.Errors) > 0 {
			b.Fatal(r.Errors)
		}
	}
}
