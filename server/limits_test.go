package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"

	"github.com/papergraph/papergraph/graph"
)

// TestBadRequests checks that each kind of bad request gets its error code
// or HTTP status, and that the server keeps serving after each.
func TestBadRequests(t *testing.T) {
	ts := newTestServer(t, 0, Options{Limits: Limits{MaxBodyBytes: 4096}, WriteToken: "s3cret"})
	// 14 levels of cheap single-entity fields: under the complexity limit,
	// over the depth limit of 12.
	deep := `{ entity(kind: DATASET, name: "OSWorld-G") {` + strings.Repeat(" broader { narrower {", 6) + ` id ` + strings.Repeat("} } ", 6) + `} }`
	complex := `{ papers(first: 100) { edges { node { datasets { papers(first: 100) { edges { node {
		datasets { papers(first: 100) { edges { node { id } } } } } } } } } } } }`
	addPapers := `mutation { addPapers(input: [{abstract: "We use Hub."}]) { added } }`
	tests := []struct {
		name   string
		query  string
		header []string
		status int
		codes  []string
	}{
		{"syntax error", `{ papers(first: 1 { edges } }`, nil, http.StatusUnprocessableEntity, []string{"GRAPHQL_PARSE_FAILED"}},
		{"unknown field", `{ paper(id: "0000000000000001") { colour } }`, nil, http.StatusUnprocessableEntity, []string{"GRAPHQL_VALIDATION_FAILED"}},
		{"wrong kind", `{ entity(kind: GENRE, name: "x") { id } }`, nil, http.StatusUnprocessableEntity, []string{"GRAPHQL_VALIDATION_FAILED"}},
		{"malformed paper id", `{ paper(id: "not-an-id") { id } }`, nil, http.StatusOK, []string{"BAD_USER_INPUT"}},
		{"malformed node id", `{ node(id: "genre:jazz") { id } }`, nil, http.StatusOK, []string{"BAD_USER_INPUT"}},
		{"unknown paper to share with", `{ papersSharing(paper: "00000000000000ff") { score } }`, nil, http.StatusOK, []string{"NOT_FOUND"}},
		{"unknown entity's neighbours", `{ neighborhood(id: "dataset:nothing") { dot } }`, nil, http.StatusOK, []string{"NOT_FOUND"}},
		{"bad cursor", `{ papers(after: "bogus") { totalCount } }`, nil, http.StatusOK, []string{"BAD_USER_INPUT"}},
		{"page too large", `{ papers(first: 101) { totalCount } }`, nil, http.StatusOK, []string{"BAD_USER_INPUT"}},
		{"nested page too large", `{ entity(kind: DATASET, name: "Hub") { papers(first: 1000) { totalCount } } }`, nil, http.StatusOK, []string{"BAD_USER_INPUT"}},
		{"page size zero", `{ search(query: "zebra", first: 0) { score } }`, nil, http.StatusOK, []string{"BAD_USER_INPUT"}},
		{"too many hops", `{ neighborhood(id: "dataset:hub", hops: 9) { dot } }`, nil, http.StatusOK, []string{"BAD_USER_INPUT"}},
		{"too deep", deep, nil, http.StatusOK, []string{"DEPTH_LIMIT_EXCEEDED"}},
		{"too complex", complex, nil, http.StatusOK, []string{"COMPLEXITY_LIMIT_EXCEEDED"}},
		{"write without token", addPapers, nil, http.StatusOK, []string{"UNAUTHENTICATED"}},
		{"write with wrong token", addPapers, []string{"Authorization: Bearer guess"}, http.StatusOK, []string{"UNAUTHENTICATED"}},
		{"panic in a resolver", `{ extract(text: "panic") { id } }`, nil, http.StatusOK, []string{"INTERNAL_SERVER_ERROR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.post(t, tt.query, nil, tt.header...)
			if r.Status != tt.status || !slices.Equal(r.codes(), tt.codes) {
				t.Errorf("status %d, codes %q; want %d, %q (errors %+v)", r.Status, r.codes(), tt.status, tt.codes, r.Errors)
			}
			if ok := ts.post(t, `{ stats { papers } }`, nil); ok.Status != http.StatusOK || len(ok.Errors) > 0 {
				t.Errorf("after it, a good query got %d %+v", ok.Status, ok.Errors)
			}
		})
	}

	t.Run("internal errors are not shown", func(t *testing.T) {
		r := ts.post(t, `{ extract(text: "panic") { id } }`, nil)
		if len(r.Errors) != 1 || r.Errors[0].Message != "internal error" {
			t.Errorf("errors %+v; want one \"internal error\"", r.Errors)
		}
		if !strings.Contains(ts.logs.String(), "fixture extractor asked to panic") {
			t.Errorf("log lacks the panic:\n%s", ts.logs)
		}
	})

	t.Run("oversized body", func(t *testing.T) {
		big := `{"query": "{ stats { papers } }", "variables": {"pad": "` + strings.Repeat("x", 5000) + `"}}`
		r := ts.do(t, http.MethodPost, "/query", strings.NewReader(big), "Content-Type: application/json")
		if r.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d; want 413", r.Status)
		}
		// Without Content-Length (chunked), the limit still holds.
		r = ts.do(t, http.MethodPost, "/query", struct{ *strings.Reader }{strings.NewReader(big)}, "Content-Type: application/json")
		if r.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked: status %d; want 413", r.Status)
		}
	})

	t.Run("mutation over GET", func(t *testing.T) {
		r := ts.do(t, http.MethodGet, "/query?query="+url.QueryEscape(addPapers), nil, "Authorization: Bearer s3cret")
		if r.Status == http.StatusOK && len(r.Errors) == 0 {
			t.Errorf("GET ran a mutation: %s", r.Data)
		}
	})
}

func TestWrites(t *testing.T) {
	ts := newTestServer(t, 0, Options{WriteToken: "s3cret"})
	const add = `mutation($in: [PaperInput!]!) { addPapers(input: $in) { added updated unchanged papers { id datasets { name } } } }`
	in := map[string]any{"in": []map[string]any{{"title": "New", "abstract": "We evaluate on Hub and Rare."}}}
	r := ts.post(t, add, in, "Authorization: Bearer s3cret")
	if len(r.Errors) > 0 {
		t.Fatalf("addPapers: %+v", r.Errors)
	}
	id := fxID(len("We evaluate on Hub and Rare.") + 1000)
	want := `{"addPapers": {"added": 1, "updated": 0, "unchanged": 0,
		"papers": [{"id": "` + id + `", "datasets": [{"name": "Hub"}, {"name": "Rare"}]}]}}`
	if d := sameJSON(t, r.Data, want); d != "" {
		t.Errorf("addPapers (-want +got):\n%s", d)
	}
	r = ts.post(t, `{ stats { papers } entity(kind: DATASET, name: "Hub") { paperCount } }`, nil)
	if d := sameJSON(t, r.Data, `{"stats": {"papers": 9}, "entity": {"paperCount": 4}}`); d != "" {
		t.Errorf("after addPapers (-want +got):\n%s", d)
	}
	r = ts.post(t, add, in, "Authorization: Bearer s3cret")
	if d := sameJSON(t, r.Data, `{"addPapers": {"added": 0, "updated": 0, "unchanged": 1, "papers": [{"id": "`+id+`", "datasets": [{"name": "Hub"}, {"name": "Rare"}]}]}}`); d != "" {
		t.Errorf("addPapers again (-want +got):\n%s", d)
	}

	// A server without a write token refuses writes whatever the request.
	ro := newTestServer(t, 0, Options{})
	if r := ro.post(t, add, in, "Authorization: Bearer s3cret"); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
		t.Errorf("write to a read-only server: codes %q; want FORBIDDEN", r.codes())
	}
}

func TestIntrospection(t *testing.T) {
	const q = `{ __schema { queryType { name } } }`
	on := newTestServer(t, 0, Options{})
	if r := on.post(t, q, nil); len(r.Errors) > 0 {
		t.Errorf("introspection on: errors %+v", r.Errors)
	}
	off := newTestServer(t, 0, Options{DisableIntrospection: true})
	if r := off.post(t, q, nil); len(r.Errors) == 0 {
		t.Errorf("introspection off: got %s, no error", r.Data)
	}
}

func TestPersistedQueries(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	const q = `{ stats { papers } }`
	sum := sha256.Sum256([]byte(q))
	ext := `{"persistedQuery": {"version": 1, "sha256Hash": "` + hex.EncodeToString(sum[:]) + `"}}`
	get := func() gqlResponse {
		return ts.do(t, http.MethodGet, "/query?extensions="+url.QueryEscape(ext), nil)
	}
	if r := get(); !slices.Equal(r.codes(), []string{"PERSISTED_QUERY_NOT_FOUND"}) {
		t.Errorf("unknown hash: codes %q; want PERSISTED_QUERY_NOT_FOUND", r.codes())
	}
	body := `{"query": "` + q + `", "extensions": ` + ext + `}`
	if r := ts.do(t, http.MethodPost, "/query", bytes.NewReader([]byte(body)), "Content-Type: application/json"); len(r.Errors) > 0 {
		t.Fatalf("registering the query: %+v", r.Errors)
	}
	r := get()
	if d := sameJSON(t, r.Data, `{"stats": {"papers": 8}}`); len(r.Errors) > 0 || d != "" {
		t.Errorf("by hash: errors %+v, data %s", r.Errors, d)
	}
}

func TestDepth(t *testing.T) {
	tests := []struct {
		query string
		want  int
	}{
		{`{ stats { papers } }`, 2},
		{`{ a: stats { papers } b: paper(id: "x") { datasets { papers { edges { node { id } } } } } }`, 6},
		{`query { ...F } fragment F on Query { paper(id: "x") { ... on Paper { tasks { name } } } }`, 3},
		{`{ __schema { types { fields { type { ofType { ofType { name } } } } } } stats { papers } }`, 2},
	}
	for _, tt := range tests {
		doc, errs := gqlparser.LoadQuery(parsedSchema, tt.query)
		if errs != nil {
			t.Fatalf("%s: %v", tt.query, errs)
		}
		if got := depth(doc.Operations[0].SelectionSet); got != tt.want {
			t.Errorf("depth(%s) = %d; want %d", tt.query, got, tt.want)
		}
	}
}

func TestTimeout(t *testing.T) {
	// A nanosecond is over before any request is served.
	ts := newTestServer(t, 0, Options{Limits: Limits{Timeout: time.Nanosecond}})
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/query", strings.NewReader(`{"query": "{ stats { papers } }"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r gqlResponse
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || !slices.Equal(r.codes(), []string{"TIMEOUT"}) {
		t.Errorf("status %d, codes %q; want 503, TIMEOUT", resp.StatusCode, r.codes())
	}
}

// TestTimeoutIgnoredContext shows that a resolver ignoring its context
// cannot hold the client past the deadline: the client gets the timeout
// answer while the resolver still runs, and the server keeps serving.
func TestTimeoutIgnoredContext(t *testing.T) {
	release := make(chan struct{})
	stuck := func(ctx context.Context, title, abstract string) (graph.Paper, error) {
		<-release
		return fixtureExtract(ctx, title, abstract)
	}
	ts := newTestServer(t, 0, Options{Extract: stuck, Limits: Limits{Timeout: 50 * time.Millisecond}})
	// Before the test server's cleanup, which waits for the request.
	defer close(release)
	r := ts.post(t, `{ extract(text: "We use Hub.") { id } }`, nil)
	if r.Status != http.StatusServiceUnavailable || !slices.Equal(r.codes(), []string{"TIMEOUT"}) {
		t.Errorf("status %d, codes %q; want 503, TIMEOUT", r.Status, r.codes())
	}
	if h := ts.do(t, http.MethodGet, "/healthz", nil); h.Status != http.StatusOK {
		t.Errorf("GET /healthz after the timeout = %d; want 200", h.Status)
	}
}
