package store

import (
	"context"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// TestSearchBlend checks where entities land among paper hits: above every
// paper when the query is their name or its first words, by coverage when
// it ends inside a word.
func TestSearchBlend(t *testing.T) {
	dm := graph.Entity{Kind: graph.Technique, Name: "diffusion model"}
	papers := []graph.Paper{
		// Papers saying "diffusion" often in short abstracts score high.
		fxPaper(1, "Diffusion diffusion diffusion.", dm),
		fxPaper(2, "Diffusion of diffusion, diffusion again."),
		fxPaper(3, "We study heat diffusion."),
		fxPaper(4, "Nothing related here."),
	}
	s := openFixture(t, papers)
	tests := []struct {
		query string
		first string // id of the first hit
	}{
		{"diffusion", "technique:diffusion-model"},
		{"Diffusion Model", "technique:diffusion-model"},
	}
	for _, tt := range tests {
		hits, err := s.Search(context.Background(), tt.query, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) < 2 || hits[0].Node.ID() != tt.first || hits[1].Node.Paper == nil || hits[0].Score <= hits[1].Score {
			t.Errorf("Search(%q) = %v; want %s first, above the papers", tt.query, hitIDs(hits), tt.first)
		}
	}
	// Inside a word no paper matches (BM25 is over whole words), and the
	// entity scores its coverage of the name alone.
	hits, err := s.Search(context.Background(), "diffusio", 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := 8.0 / 15; len(hits) != 1 || hits[0].Score != want {
		t.Errorf("Search(diffusio) = %v; want one entity scoring %v", hits, want)
	}
}

func TestWordPrefix(t *testing.T) {
	tests := []struct {
		norm, form string
		want       bool
	}{
		{"diffusion model", "diffusion model", true},
		{"diffusion model", "diffusion", true},
		{"osworld-g", "osworld", true},
		{"diffusion model", "diffus", false},
		{"diffusion model", "diffusion mod", false},
		{"lora", "lorax", false},
	}
	for _, tt := range tests {
		if got := wordPrefix(tt.norm, tt.form); got != tt.want {
			t.Errorf("wordPrefix(%q, %q) = %v; want %v", tt.norm, tt.form, got, tt.want)
		}
	}
}
