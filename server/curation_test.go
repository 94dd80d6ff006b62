package server

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// TestCurationMutations checks that deletePapers, mergeEntities and
// addAlias need the write token exactly as addPapers does, and that they
// change what queries answer, the response cache included.
func TestCurationMutations(t *testing.T) {
	ts := newTestServer(t, 0, Options{WriteToken: "s3cret"})
	auth := "Authorization: Bearer s3cret"
	const (
		merge  = `mutation { mergeEntities(from: "dataset:rare", into: "dataset:Hub") { id paperCount aliases } }`
		alias  = `mutation { addAlias(entity: "dataset:hub", alias: "The Hub") { id aliases } }`
		del    = `mutation { deletePapers(ids: ["0000000000000003"]) }`
		counts = `{ stats { papers edges } entity(kind: DATASET, name: "Rare") { id paperCount } }`
	)
	for _, q := range []string{merge, alias, del} {
		for _, h := range [][]string{nil, {"Authorization: Bearer guess"}} {
			if r := ts.post(t, q, nil, h...); !slices.Equal(r.codes(), []string{"UNAUTHENTICATED"}) {
				t.Errorf("%s with %q: codes %q; want UNAUTHENTICATED", q, h, r.codes())
			}
		}
	}
	noWrites := newTestServer(t, 0, Options{})
	if r := noWrites.post(t, del, nil, auth); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
		t.Errorf("deletePapers without a write token configured: codes %q; want FORBIDDEN", r.codes())
	}

	// Before: Rare has papers 1, 2, 4; Hub 1, 3, 4.
	if r := ts.post(t, counts, nil); sameJSON(t, r.Data, `{"stats": {"papers": 8, "edges": 11}, "entity": {"id": "dataset:rare", "paperCount": 3}}`) != "" {
		t.Fatalf("before: %s %+v", r.Data, r.Errors)
	}
	r := ts.post(t, merge, nil, auth)
	if d := sameJSON(t, r.Data, `{"mergeEntities": {"id": "dataset:hub", "paperCount": 4, "aliases": ["Rare"]}}`); d != "" {
		t.Errorf("mergeEntities: %s (errors %+v)", d, r.Errors)
	}
	// Rare is an alias of Hub now: the lookup finds Hub.
	if r := ts.post(t, counts, nil); sameJSON(t, r.Data, `{"stats": {"papers": 8, "edges": 9}, "entity": {"id": "dataset:hub", "paperCount": 4}}`) != "" {
		t.Errorf("after merge: %s %+v", r.Data, r.Errors)
	}
	r = ts.post(t, alias, nil, auth)
	if d := sameJSON(t, r.Data, `{"addAlias": {"id": "dataset:hub", "aliases": ["Rare", "The Hub"]}}`); d != "" {
		t.Errorf("addAlias: %s (errors %+v)", d, r.Errors)
	}
	r = ts.post(t, del, nil, auth)
	if d := sameJSON(t, r.Data, `{"deletePapers": 1}`); d != "" {
		t.Errorf("deletePapers: %s (errors %+v)", d, r.Errors)
	}
	if r := ts.post(t, counts, nil); sameJSON(t, r.Data, `{"stats": {"papers": 7, "edges": 8}, "entity": {"id": "dataset:hub", "paperCount": 3}}`) != "" {
		t.Errorf("after delete: %s %+v", r.Data, r.Errors)
	}
	for _, tt := range []struct{ query, code string }{
		{`mutation { deletePapers(ids: ["0000000000000003"]) }`, "NOT_FOUND"},
		{`mutation { deletePapers(ids: ["nope"]) }`, "BAD_USER_INPUT"},
		{`mutation { mergeEntities(from: "dataset:hub", into: "dataset:Rare") { id } }`, "BAD_USER_INPUT"},
		{`mutation { addAlias(entity: "dataset:nothing", alias: "x") { id } }`, "NOT_FOUND"},
	} {
		if r := ts.post(t, tt.query, nil, auth); !slices.Equal(r.codes(), []string{tt.code}) {
			t.Errorf("%s: codes %q; want %s", tt.query, r.codes(), tt.code)
		}
	}
}

func TestDuplicatesQuery(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	if r := ts.post(t, `{ duplicates { reason } }`, nil); sameJSON(t, r.Data, `{"duplicates": []}`) != "" || len(r.Errors) > 0 {
		t.Errorf("duplicates of the fixture: %s %+v; want none", r.Data, r.Errors)
	}
	if r := ts.post(t, `{ duplicates(first: 0) { reason } }`, nil); !slices.Equal(r.codes(), []string{"BAD_USER_INPUT"}) {
		t.Errorf("duplicates(first: 0): codes %q; want BAD_USER_INPUT", r.codes())
	}

	st, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	_, err = st.PutPapers(context.Background(), []graph.Paper{
		fxPaper(1, "", graph.Entity{Kind: graph.Task, Name: "watermarking"}, graph.Entity{Kind: graph.Technique, Name: "PEFT"}),
		fxPaper(2, "", graph.Entity{Kind: graph.Technique, Name: "watermarking"}, graph.Entity{Kind: graph.Technique, Name: "parameter-efficient fine-tuning"}),
		fxPaper(3, "", graph.Entity{Kind: graph.Technique, Name: "watermarking"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Store: st, Extract: fixtureExtract})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	ts = &testServer{Server: hs}
	const q = `query($r: DuplicateReason) { duplicates(kind: TECHNIQUE, reason: $r) { a { id paperCount } b { id paperCount } reason detail } }`
	r := ts.post(t, q, nil)
	want := `{"duplicates": [
		{"a": {"id": "technique:parameter-efficient-fine-tuning", "paperCount": 1}, "b": {"id": "technique:peft", "paperCount": 1},
		 "reason": "ACRONYM", "detail": "PEFT is an acronym of parameter-efficient fine-tuning"},
		{"a": {"id": "task:watermarking", "paperCount": 1}, "b": {"id": "technique:watermarking", "paperCount": 2},
		 "reason": "ACROSS_KINDS", "detail": "watermarking is a task and a technique"}]}`
	if d := sameJSON(t, r.Data, want); d != "" || len(r.Errors) > 0 {
		t.Errorf("duplicates(kind: TECHNIQUE): %s %+v", d, r.Errors)
	}
	r = ts.post(t, q, map[string]any{"r": "ACRONYM"})
	if len(r.Errors) > 0 || !strings.Contains(string(r.Data), "ACRONYM") || strings.Contains(string(r.Data), "ACROSS_KINDS") {
		t.Errorf("duplicates(reason: ACRONYM): %s %+v", r.Data, r.Errors)
	}
}
