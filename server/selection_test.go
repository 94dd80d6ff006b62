package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// TestPaperFieldParts checks that every list field of Paper names the
// parts of the record it reads: a new one missing from paperFieldParts
// would come back empty from papersSharing.
func TestPaperFieldParts(t *testing.T) {
	for _, f := range parsedSchema.Types["Paper"].Fields {
		if _, ok := paperFieldParts[f.Name]; ok != (f.Type.Elem != nil) {
			t.Errorf("Paper.%s (%s): in paperFieldParts %v; want it there exactly when it is a list", f.Name, f.Type, ok)
		}
	}
}

// TestSharingSelectedParts checks that papersSharing's papers hold every
// field a request selects, however it selects it, as paper(id:) returns
// them.
func TestSharingSelectedParts(t *testing.T) {
	st, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	set := graph.Entity{Kind: graph.Dataset, Name: "Shared Set"}
	lora := graph.Entity{Kind: graph.Technique, Name: "LoRA"}
	rich := func(n int) graph.Paper {
		p := fxPaper(n, "We tune LoRA on Shared Set.", set, lora)
		p.Title, p.Year, p.Authors, p.Keywords = "Rich paper", 2025, []string{"A. Author", "B. Author"}, []string{"tuning"}
		p.Mentions = []graph.Mention{
			{Kind: graph.Technique, Entity: "LoRA", Text: "LoRA", Start: 8, End: 12},
			{Kind: graph.Dataset, Entity: "Shared Set", Text: "Shared Set", Start: 16, End: 26},
		}
		return p
	}
	if _, err := st.PutPapers(context.Background(), []graph.Paper{rich(50), rich(51)}); err != nil {
		t.Fatal(err)
	}
	ts := serveFixture(t, st, 0, Options{})
	tests := []struct {
		name, sel, fragments string
	}{
		{"scalars", `id label title year`, ""},
		{"lists", `authors keywords`, ""},
		{"entities", `datasets { name } techniques { id } entities { id kind }`, ""},
		{"mentions", `mentions { kind entity text start end inTitle }`, ""},
		{"mentions alone", `mentions { entity }`, ""},
		{"everything", `id authors keywords datasets { id } techniques { id } entities(kind: DATASET) { id } mentions { text }`, ""},
		{"inline fragment", `... on Paper { authors mentions { text } }`, ""},
		{"fragment spread", `...P`, `fragment P on Paper { keywords datasets { name } }`},
		{"skip and include", `authors @skip(if: false) keywords @include(if: true)`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sharing := ts.post(t, `{ papersSharing(paper: "`+fxID(50)+`", kinds: [DATASET]) { paper { `+tt.sel+` } } } `+tt.fragments, nil)
			direct := ts.post(t, `{ paper(id: "`+fxID(51)+`") { `+tt.sel+` } } `+tt.fragments, nil)
			if len(sharing.Errors)+len(direct.Errors) > 0 {
				t.Fatalf("errors: %v %v", sharing.Errors, direct.Errors)
			}
			var got struct {
				PapersSharing []struct{ Paper map[string]any }
			}
			var want struct{ Paper map[string]any }
			if err := json.Unmarshal(sharing.Data, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(direct.Data, &want); err != nil {
				t.Fatal(err)
			}
			if len(got.PapersSharing) != 1 {
				t.Fatalf("papersSharing = %s; want paper %s alone", sharing.Data, fxID(51))
			}
			if diff := gocmp.Diff(want.Paper, got.PapersSharing[0].Paper); diff != "" {
				t.Errorf("papersSharing's paper differs from paper(id:) (-want +got):\n%s", diff)
			}
			if strings.Contains(string(direct.Data), "[]") {
				t.Errorf("paper(id:) = %s: the fixture should fill every list", direct.Data)
			}
		})
	}
}
