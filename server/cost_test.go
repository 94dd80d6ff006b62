package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/introspection"
)

// aliases returns a query of n aliased copies of field.
func aliases(n int, field string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " a%d: %s", i, field)
	}
	b.WriteString(" }")
	return b.String()
}

// searchesUnderOneName returns a query of n searches, each of its own
// query, under the one response name "search".
func searchesUnderOneName(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, ` search(query: "q%d") { score }`, i)
	}
	b.WriteString(" }")
	return b.String()
}

// TestCostLimit posts the shapes that used to run on for a minute after
// their timeout: each is rejected before it runs, well within the
// timeout, while a probe query answers; the playground's introspection
// query still passes.
func TestCostLimit(t *testing.T) {
	// The field limit raised, so that the cost limit is what answers.
	ts := newTestServer(t, 0, Options{Limits: Limits{MaxBodyBytes: 4 << 20, MaxFields: 30000}})
	big := strings.Repeat("We use Hub. ", 100<<10/12)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		code  string
	}{
		{"introspection aliases", aliases(10000, `__schema { types { name fields { name type { name } } } }`), nil, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"aliases of a field", aliases(12000, "stats { papers }"), nil, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"extract aliases of a big text", "query($t: String!) " + aliases(9000, `extract(text: $t) { id }`), map[string]any{"t": big}, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"searches under one name", searchesUnderOneName(1000), nil, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"big extract", `query($t: String!) { extract(text: $t) { id } }`, map[string]any{"t": strings.Repeat(big, 20)}, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"big title", `query($t: String!) { extract(text: "Hub", title: $t) { id } }`, map[string]any{"t": strings.Repeat(big, 20)}, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"playground's introspection", introspection.Query, nil, ""},
		{"one extract of 100 KB", `query($t: String!) { extract(text: $t) { id } }`, map[string]any{"t": big}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probe := make(chan time.Duration, 1)
			go func() {
				time.Sleep(50 * time.Millisecond)
				start := time.Now()
				if r := ts.post(t, `{ stats { papers } }`, nil); len(r.Errors) > 0 {
					t.Errorf("probe: %+v", r.Errors)
				}
				probe <- time.Since(start)
			}()
			start := time.Now()
			r := ts.post(t, tt.query, tt.vars)
			took := time.Since(start)
			var want []string
			if tt.code != "" {
				want = []string{tt.code}
			}
			if r.Status != http.StatusOK || !slices.Equal(r.codes(), want) {
				t.Errorf("status %d, codes %q; want 200, %q (errors %.300v)", r.Status, r.codes(), want, r.Errors)
			}
			// Generous bounds for a loaded machine: the timeout is 10 s.
			if took > 5*time.Second {
				t.Errorf("answered in %v; want well under the 10 s timeout", took)
			}
			if d := <-probe; d > 2*time.Second {
				t.Errorf("probe answered in %v meanwhile; want under 1 s", d)
			}
		})
	}
}

// TestIntrospectionDisabledOnce posts 10,000 aliases of __schema to a
// server without introspection: one error, whichever limit answers (the
// field limit by default; the introspection check when the field limit is
// raised past them), and no log line per alias.
func TestIntrospectionDisabledOnce(t *testing.T) {
	for _, tt := range []struct {
		name      string
		maxFields int
		code      string
	}{
		{"default limits", 0, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"field limit raised", 30000, "INTROSPECTION_DISABLED"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, 0, Options{DisableIntrospection: true, Limits: Limits{MaxFields: tt.maxFields}})
			r := ts.post(t, aliases(10000, `__schema { types { name } }`), nil)
			if !slices.Equal(r.codes(), []string{tt.code}) {
				t.Errorf("codes %q (%d errors); want one %s", r.codes()[:min(3, len(r.codes()))], len(r.Errors), tt.code)
			}
			if n := strings.Count(ts.logs.String(), "\n"); n > 1 {
				t.Errorf("%d log lines; want at most 1", n)
			}
		})
	}
	ts := newTestServer(t, 0, Options{DisableIntrospection: true})
	if r := ts.post(t, `{ __typename stats { papers } }`, nil); len(r.Errors) > 0 {
		t.Errorf("__typename with introspection off: %+v", r.Errors)
	}
}
