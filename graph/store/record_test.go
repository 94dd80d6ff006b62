package store

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/graph"
)

func TestPaperRecord(t *testing.T) {
	abstract := "We train Dolphin with LoRA on OSWorld-G. Invalid \xff byte, emoji 🐬."
	tests := []struct {
		name string
		p    graph.Paper
	}{
		{"empty", graph.Paper{}},
		{"minimal", graph.Paper{ID: fxID(1), Label: "x", Abstract: "y"}},
		{"rich", graph.Paper{
			ID: fxID(77), Name: "Dolphin", Label: "Dolphin: «ünïcode» \"quoted\"", Title: "A title\twith\ncontrol",
			Abstract: abstract, Source: "a.jsonl", Index: 3, URL: "https://example.org/?a=1&b=2", Venue: "ICLR", Year: 2025,
			Authors: []string{"A. Author", ""}, Keywords: []string{"k1"},
			Entities:  []graph.Entity{{Kind: graph.Dataset, Name: "OSWorld-G"}, {Kind: graph.Technique, Name: "LoRA"}},
			Ancestors: []graph.Entity{{Kind: graph.Dataset, Name: "OSWorld"}},
			Mentions: []graph.Mention{
				// Text and entity stored as references.
				{Kind: graph.Technique, Entity: "LoRA", Text: "LoRA", Start: 22, End: 26},
				// Text differs from the abstract there; entity not linked.
				{Kind: graph.Dataset, Entity: "OSWorld", Text: "OSWorld", Start: 30, End: 39},
				// Offsets outside the abstract.
				{Kind: graph.Task, Entity: "agents", Text: "agents", Start: 500, End: 506},
				// In the title, as a reference and as a string.
				{Kind: graph.Task, Entity: "title", Text: "title", Start: 2, End: 7, InTitle: true},
				{Kind: graph.Task, Entity: "agents", Text: "agents", Start: 0, End: 6, InTitle: true},
			},
		}},
		{"negative year", graph.Paper{ID: fxID(2), Year: -5, Index: 1 << 40}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := appendPaperRecord(nil, &tt.p)
			var got graph.Paper
			if err := decodePaperRecord(rec, &got); err != nil {
				t.Fatalf("decodePaperRecord: %v", err)
			}
			if diff := gocmp.Diff(tt.p, got); diff != "" {
				t.Errorf("round trip differs (-want +got):\n%s", diff)
			}
			for omit := graph.PaperParts(1); omit <= graph.AllPaperParts; omit++ {
				want := tt.p
				if omit&graph.PaperLists != 0 {
					want.Authors, want.Keywords = nil, nil
				}
				if omit&graph.PaperEntities != 0 && omit&graph.PaperMentions != 0 {
					want.Entities, want.Ancestors = nil, nil
				}
				if omit&graph.PaperMentions != 0 {
					want.Mentions = nil
				}
				var part graph.Paper
				if err := decodeFrozenRecord(rec, &part, omit); err != nil {
					t.Fatalf("decodeFrozenRecord(omit %03b): %v", omit, err)
				}
				if diff := gocmp.Diff(want, part); diff != "" {
					t.Errorf("decodeFrozenRecord(omit %03b) differs (-want +got):\n%s", omit, diff)
				}
			}
			// Every truncation fails cleanly.
			for n := range rec {
				if err := decodePaperRecord(rec[:n], &got); err == nil {
					t.Errorf("decodePaperRecord of %d of %d bytes succeeded", n, len(rec))
				}
			}
		})
	}
}

// FuzzPaperRecord decodes arbitrary bytes (it must fail, never panic)
// and round-trips what decodes.
func FuzzPaperRecord(f *testing.F) {
	p := graph.Paper{ID: fxID(3), Label: "L", Abstract: "ab LoRA cd", Entities: []graph.Entity{{Kind: graph.Technique, Name: "LoRA"}},
		Mentions: []graph.Mention{{Kind: graph.Technique, Entity: "LoRA", Text: "LoRA", Start: 3, End: 7}}}
	f.Add(appendPaperRecord(nil, &p))
	f.Add([]byte{recordVersion, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, v []byte) {
		var p graph.Paper
		if err := decodePaperRecord(v, &p); err != nil {
			return
		}
		var back graph.Paper
		if err := decodePaperRecord(appendPaperRecord(nil, &p), &back); err != nil {
			t.Fatalf("re-decoding %+v: %v", p, err)
		}
		if diff := gocmp.Diff(p, back); diff != "" {
			t.Errorf("round trip differs (-first +second):\n%s", diff)
		}
	})
}
