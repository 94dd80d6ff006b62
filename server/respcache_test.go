package server

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// cacheCount reads papergraph_response_cache_total{result} from /metrics;
// 0 when the series is absent.
func (ts *testServer) cacheCount(tb testing.TB, result string) int {
	tb.Helper()
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	prefix := `papergraph_response_cache_total{result="` + result + `"} `
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				tb.Fatalf("metric %s%s: %v", prefix, v, err)
			}
			return int(n)
		}
	}
	io.Copy(io.Discard, resp.Body)
	return 0
}

func TestResponseCache(t *testing.T) {
	ts := newTestServer(t, 0, Options{WriteToken: "s3cret"})
	const q = `query($id: ID!) { paper(id: $id) { id } stats { papers } }`
	vars := map[string]any{"id": fxID(1)}
	type counts struct{ hits, misses int }
	check := func(step string, want counts) {
		t.Helper()
		if got := (counts{ts.cacheCount(t, "hit"), ts.cacheCount(t, "miss")}); got != want {
			t.Errorf("%s: cache %+v; want %+v", step, got, want)
		}
	}
	want := `{"paper": {"id": "` + fxID(1) + `"}, "stats": {"papers": 8}}`
	for i := range 2 {
		r := ts.post(t, q, vars)
		if d := sameJSON(t, r.Data, want); d != "" || len(r.Errors) > 0 {
			t.Errorf("query %d: errors %+v, (-want +got):\n%s", i, r.Errors, d)
		}
	}
	check("the same query twice", counts{1, 1})
	ts.post(t, q, map[string]any{"id": fxID(2)})
	check("other variables", counts{1, 2})

	// Responses with errors are not kept.
	for range 2 {
		if r := ts.post(t, q, map[string]any{"id": "not an id"}); len(r.Errors) == 0 {
			t.Errorf("malformed id: no error")
		}
	}
	check("a query failing twice", counts{1, 4})

	// A write retires every response; a request with an Authorization
	// header (this mutation) is neither looked up nor kept.
	const add = `mutation($in: [PaperInput!]!) { addPapers(input: $in) { added } }`
	in := map[string]any{"in": []map[string]any{{"title": "New", "abstract": "We evaluate on Hub and Rare."}}}
	if r := ts.post(t, add, in, "Authorization: Bearer s3cret"); len(r.Errors) > 0 {
		t.Fatalf("addPapers: %+v", r.Errors)
	}
	check("a mutation", counts{1, 4})
	r := ts.post(t, q, vars)
	if d := sameJSON(t, r.Data, `{"paper": {"id": "`+fxID(1)+`"}, "stats": {"papers": 9}}`); d != "" {
		t.Errorf("after addPapers (-want +got):\n%s", d)
	}
	check("after a write", counts{1, 5})
	ts.post(t, q, vars)
	check("again after the write", counts{2, 5})
	get := "/query?query=" + url.QueryEscape(`{ stats { papers } }`)
	for range 2 {
		if r := ts.do(t, http.MethodGet, get, nil); sameJSON(t, r.Data, `{"stats": {"papers": 9}}`) != "" {
			t.Errorf("GET %s: %s", get, r.Data)
		}
	}
	check("GET twice", counts{3, 6})

	off := newTestServer(t, 0, Options{Limits: Limits{ResponseCacheSize: -1}})
	off.post(t, q, vars)
	off.post(t, q, vars)
	if h, m := off.cacheCount(t, "hit"), off.cacheCount(t, "miss"); h+m != 0 {
		t.Errorf("cache disabled: %d hits, %d misses counted", h, m)
	}
}

// TestResponseCacheAccept checks that a cached response is served only to
// requests asking for its Content-Type.
func TestResponseCacheAccept(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	body := `{"query": "{ stats { papers } }"}`
	tests := []struct{ accept, want string }{
		{"application/graphql-response+json", "application/graphql-response+json"},
		{"application/json", "application/json"},
		{"application/graphql-response+json", "application/graphql-response+json"},
		{"application/json", "application/json"},
	}
	for i, tt := range tests {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/query", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", tt.accept)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if got := resp.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.want) {
			t.Errorf("request %d with Accept %s: Content-Type %s; want %s", i, tt.accept, got, tt.want)
		}
	}
	if h := ts.cacheCount(t, "hit"); h != 2 {
		t.Errorf("cache hits = %d; want 2 (the repeats of each Accept)", h)
	}
}
