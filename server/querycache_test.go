package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph/store"
)

// TestQueryCacheKeepsWhatRuns posts distinct large documents that the
// cost limit rejects, then ones that run: only the latter are kept, and the
// cache stays within its bytes.
func TestQueryCacheKeepsWhatRuns(t *testing.T) {
	st, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.PutPapers(context.Background(), fixturePapers(0)); err != nil {
		t.Fatal(err)
	}
	const budget = 8 << 20
	srv, err := New(Options{Store: st, Extract: fixtureExtract, Limits: Limits{QueryCacheBytes: budget, ResponseCacheSize: -1}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	ts := &testServer{Server: hs}
	pad := "#" + strings.Repeat("x", 40<<10) + "\n"
	for i := range 30 {
		q := fmt.Sprintf("%s# %d\n%s", pad, i, aliases(300, "papers(first: 100) { totalCount }"))
		if r := ts.post(t, q, nil); len(r.Errors) != 1 || r.codes()[0] != "COMPLEXITY_LIMIT_EXCEEDED" {
			t.Fatalf("codes %q; want COMPLEXITY_LIMIT_EXCEEDED", r.codes())
		}
	}
	if n := srv.queries.lru.Bytes(); n != 0 {
		t.Errorf("%d bytes kept after 30 rejected documents; want 0", n)
	}
	for i := range 100 {
		q := fmt.Sprintf("%s# %d\n{ stats { papers } }", pad, i)
		if r := ts.post(t, q, nil); len(r.Errors) > 0 {
			t.Fatalf("errors %+v", r.Errors)
		}
	}
	if n := srv.queries.lru.Bytes(); n == 0 || n > budget {
		t.Errorf("%d bytes kept after 100 documents of 40 KiB that run; want some, at most %d", n, budget)
	}
}
