package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// TestPostAsGqlgen checks that post answers every kind of request with
// gqlgen's POST transport's status, content type and bytes.
func TestPostAsGqlgen(t *testing.T) {
	st := escapingStore(t)
	want, got := gqlgenServer(t, st, transport.POST{}), gqlgenServer(t, st, post{})
	sharing := `{"query":"query($p: ID!) { papersSharing(paper: $p, kinds: [DATASET, TASK]) { score paper { id label title abstract url } shared { id } } }","variables":{"p":"` + fxID(1) + `"}}`
	for _, tc := range []struct{ name, body, accept string }{
		{"papersSharing", sharing, ""},
		{"graphql-response+json", sharing, "application/graphql-response+json"},
		{"any application type", sharing, "application/*;q=0.9"},
		{"neither type", sharing, "text/html"},
		{"escaped strings", `{"query":"{ paper(id: \"` + fxID(50) + `\") { name title abstract url } }"}`, ""},
		{"escaped strings in matches", `{"query":"{ papersSharing(paper: \"` + fxID(1) + `\") { paper { title abstract } } }"}`, ""},
		{"typename", `{"query":"{ __typename }"}`, "*/*"},
		{"introspection", `{"query":"{ __schema { queryType { name } } }"}`, ""},
		{"syntax error", `{"query":"{ papersSharing("}`, ""},
		{"syntax error, graphql-response+json", `{"query":"{ papersSharing("}`, "application/graphql-response+json"},
		{"validation error", `{"query":"{ nope }"}`, ""},
		{"unknown operation", `{"query":"query A { __typename }","operationName":"B"}`, ""},
		{"resolver error", `{"query":"{ papersSharing(paper: \"` + fxID(999) + `\") { score } }"}`, ""},
		{"bad JSON", `{"query": `, ""},
		{"bad JSON, graphql-response+json", `{"query": `, "application/graphql-response+json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, wt, wb := send(t, want.URL, tc.body, tc.accept)
			gs, gt, gb := send(t, got.URL, tc.body, tc.accept)
			if strings.HasPrefix(tc.name, "escaped") && !bytes.Contains(gb, []byte(`\u003cmodel\u003e \u0026`)) {
				t.Errorf("post answered %s; want <, > and & escaped", gb)
			}
			if gs != ws || gt != wt || !bytes.Equal(gb, wb) {
				t.Errorf("post answered %d %s\n%s\nwant (gqlgen's POST) %d %s\n%s", gs, gt, gb, ws, wt, wb)
			}
		})
	}
}

// send posts body to url accepting accept (none when empty) and returns
// the response's status, content type and body.
func send(tb testing.TB, url, body, accept string) (int, string, []byte) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// TestWriteResponse checks writeResponse against json.Marshal, and that a
// response without errors or extensions is written without it.
func TestWriteResponse(t *testing.T) {
	yes := true
	for _, tc := range []struct {
		name   string
		resp   graphql.Response
		direct bool
	}{
		{"data", graphql.Response{Data: []byte(`{"a":"<b> & \u2028"}`), Extensions: map[string]any{}}, true},
		{"no extensions map", graphql.Response{Data: []byte(`{"a":1}`)}, true},
		{"null data", graphql.Response{Data: []byte(`null`)}, true},
		{"no data", graphql.Response{Errors: gqlerror.List{{Message: "no"}}}, false},
		{"errors", graphql.Response{Data: []byte(`{"a":null}`), Errors: gqlerror.List{{Message: "x < y"}}}, false},
		{"extensions", graphql.Response{Data: []byte(`{}`), Extensions: map[string]any{"cost": 3}}, false},
		{"deferred", graphql.Response{Data: []byte(`{}`), Label: "l", Path: ast.Path{ast.PathName("a")}, HasNext: &yes}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(&tc.resp)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			writeResponse(&got, &tc.resp)
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("writeResponse = %s; want %s", got.Bytes(), want)
			}
			// json.Marshal allocates its output at least; the direct
			// path reuses a pooled buffer.
			allocs := testing.AllocsPerRun(20, func() { writeResponse(io.Discard, &tc.resp) })
			if direct := allocs < 1; direct != tc.direct {
				t.Errorf("writeResponse made %.0f allocations: written directly %v; want %v", allocs, direct, tc.direct)
			}
		})
	}
}
