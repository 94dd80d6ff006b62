package store

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

func TestPaperErrors(t *testing.T) {
	s := openTest(t)
	put(t, s, graph.Paper{ID: corpus.PaperID(1), Abstract: "x"})
	tests := []struct {
		id   string
		want error
	}{
		{corpus.PaperID(1), nil},
		{corpus.PaperID(2), graph.ErrNotFound},
		{"dataset:gsm8k", graph.ErrBadID},
		{"", graph.ErrBadID},
	}
	for _, tt := range tests {
		_, err := s.Paper(context.Background(), tt.id)
		if !errors.Is(err, tt.want) {
			t.Errorf("Paper(%q) error = %v; want %v", tt.id, err, tt.want)
		}
	}
	got, err := s.Papers(context.Background(), []string{corpus.PaperID(2), corpus.PaperID(1), "bad"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != nil || got[1] == nil || got[1].ID != corpus.PaperID(1) || got[2] != nil {
		t.Errorf("Papers = %v; want [nil, paper 1, nil]", got)
	}
}

func TestEntityAndLookup(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	osg := graph.Entity{Kind: graph.Dataset, Name: "OSWorld-G", Aliases: []string{"OSWorld G"}, Broader: []string{"OSWorld"}}
	put(t, s,
		graph.Paper{ID: corpus.PaperID(1), Abstract: "a", Entities: []graph.Entity{osg, {Kind: graph.Technique, Name: "Vision-Language Model", Aliases: []string{"VLM"}}}},
		graph.Paper{ID: corpus.PaperID(2), Abstract: "b", Entities: []graph.Entity{{Kind: graph.Dataset, Name: "OSWorld-Verified", Broader: []string{"OSWorld"}}}},
		// A later paper adds an alias to a known entity.
		graph.Paper{ID: corpus.PaperID(3), Abstract: "c", Entities: []graph.Entity{{Kind: graph.Dataset, Name: "OSWorld-G", Aliases: []string{"OSW-G"}}}},
	)
	e, err := s.Entity(ctx, "dataset:osworld")
	if err != nil {
		t.Fatal(err)
	}
	want := graph.Entity{Kind: graph.Dataset, Name: "OSWorld", Narrower: []string{"OSWorld-G", "OSWorld-Verified"}}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Entity(dataset:osworld) mismatch (-want +got):\n%s", diff)
	}
	e, err = s.Entity(ctx, "dataset:osworld-g")
	if err != nil {
		t.Fatal(err)
	}
	want = graph.Entity{Kind: graph.Dataset, Name: "OSWorld-G", Aliases: []string{"OSWorld G", "OSW-G"}, Broader: []string{"OSWorld"}, PaperCount: 2}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Entity(dataset:osworld-g) mismatch (-want +got):\n%s", diff)
	}

	lookups := []struct {
		kind graph.Kind
		name string
		want string // entity id, "" for ErrNotFound
	}{
		{graph.Dataset, "osworld-g", "dataset:osworld-g"},
		{graph.Dataset, "OSW-G", "dataset:osworld-g"},
		{graph.Dataset, "  osworld   g ", "dataset:osworld-g"},
		{graph.Technique, "vlm", "technique:vision-language-model"},
		{graph.Technique, "vision language model", "technique:vision-language-model"},
		{graph.Dataset, "vlm", ""},
		{graph.Task, "nothing", ""},
	}
	for _, tt := range lookups {
		e, err := s.Lookup(ctx, tt.kind, tt.name)
		if tt.want == "" {
			if !errors.Is(err, graph.ErrNotFound) {
				t.Errorf("Lookup(%v, %q) = %v, %v; want ErrNotFound", tt.kind, tt.name, e.ID(), err)
			}
			continue
		}
		if err != nil || e.ID() != tt.want {
			t.Errorf("Lookup(%v, %q) = %q, %v; want %q", tt.kind, tt.name, e.ID(), err, tt.want)
		}
	}
	for _, id := range []string{"paper:x", "dataset", "1234567890abcdef"} {
		if _, err := s.Entity(ctx, id); !errors.Is(err, graph.ErrBadID) {
			t.Errorf("Entity(%q) error = %v; want ErrBadID", id, err)
		}
	}
	if _, err := s.Entity(ctx, "task:missing"); !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("Entity(task:missing) error = %v; want ErrNotFound", err)
	}
	mustCheck(t, s)
}
