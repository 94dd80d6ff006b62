package server

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql/handler/transport"
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
