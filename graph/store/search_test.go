package store

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

func hitIDs(hs []graph.Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Node.ID())
	}
	return out
}

func TestSearch(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		query string
		limit int
		want  []string
	}{
		// Three occurrences in a short abstract beat one in a long one.
		{"zebra", 0, fxIDs(40, 41)},
		{"ZEBRA quagga", 0, fxIDs(40, 41)},
		// An exact name ranks above every paper; a prefix by how much of
		// the name it covers.
		{"osworld", 0, []string{"dataset:osworld", "dataset:osworld-g", "dataset:osworld-verified"}},
		{"LoRA", 0, []string{"technique:lora"}},
		{"low-rank adaptation", 1, []string{"technique:lora"}},
		{"horses", 0, fxIDs(42)},
		{"", 0, nil},
		{"the of", 0, nil},
		{"okapi", 0, nil},
	}
	for _, tt := range tests {
		got, err := s.Search(ctx, tt.query, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if ids := hitIDs(got); !slices.Equal(ids, tt.want) {
			t.Errorf("Search(%q) = %v; want %v", tt.query, ids, tt.want)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Score > got[i-1].Score {
				t.Errorf("Search(%q): scores not falling: %v then %v", tt.query, got[i-1].Score, got[i].Score)
			}
		}
	}
	// An entity whose name the query only begins ranks by coverage; a
	// paper matching a word ranks too.
	got, err := s.Search(ctx, "fixture", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Node.Paper == nil {
		t.Errorf("Search(fixture, 3) = %v; want 3 papers", hitIDs(got))
	}
}

// textPapers is a corpus for BM25 with a term above textFullTerm: every
// paper says "common"; "zebra" is in papers 0..39 with n%4+1 occurrences
// and abstracts of varying length.
func textPapers() []graph.Paper {
	var ps []graph.Paper
	for n := range textFullTerm + 200 {
		var b strings.Builder
		b.WriteString("common")
		for range n % 7 {
			b.WriteString(" filler")
		}
		if n < 40 {
			for range n%4 + 1 {
				b.WriteString(" zebra")
			}
		}
		if n%3 == 0 {
			b.WriteString(" common")
		}
		ps = append(ps, graph.Paper{ID: fxID(n + 1), Label: "p", Abstract: b.String()})
	}
	return ps
}

// bruteBM25 ranks papers for query by BM25 over everything: the answer
// rankText must give when no bound cuts in.
func bruteBM25(papers []graph.Paper, query string, n int) []string {
	df := make(map[string]int)
	tfs := make([]map[string]uint32, len(papers))
	lens := make([]int, len(papers))
	total := 0
	for i := range papers {
		tfs[i], lens[i] = termFreqs(&papers[i])
		total += lens[i]
		for t := range tfs[i] {
			df[t]++
		}
	}
	avgdl := float64(total) / float64(len(papers))
	type scored struct {
		id    string
		score float64
	}
	var all []scored
	for i, p := range papers {
		score := 0.0
		for _, t := range slices.Compact(slices.Sorted(slices.Values(terms(query)))) {
			if tf := tfs[i][t]; tf > 0 {
				idf := math.Log(1 + (float64(len(papers))-float64(df[t])+0.5)/(float64(df[t])+0.5))
				score += idf * tfWeight(tf, 1-bm25B+bm25B*float64(lens[i])/avgdl)
			}
		}
		if score > 0 {
			all = append(all, scored{p.ID, score})
		}
	}
	slices.SortFunc(all, func(a, b scored) int {
		if math.Abs(a.score-b.score) < 1e-12 {
			return strings.Compare(a.id, b.id)
		}
		return cmp.Compare(b.score, a.score)
	})
	var out []string
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.id)
	}
	return out
}

func TestSearchCommonTerms(t *testing.T) {
	papers := textPapers()
	s := openFixture(t, papers)
	ctx := context.Background()
	for _, q := range []string{"zebra", "common zebra", "zebra filler", "common"} {
		t.Run(q, func(t *testing.T) {
			got, err := s.Search(ctx, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteBM25(papers, q, 10)
			if ids := hitIDs(got); !slices.Equal(ids, want) {
				t.Errorf("Search(%q) = %v; want %v", q, ids, want)
			}
		})
	}
	page, err := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Text: "common zebra"}, First: 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(papers); page.Total != min(want, maxTotal) {
		t.Errorf("ListPapers(common zebra).Total = %d; want %d", page.Total, want)
	}
}

func ExampleStore_Search() {
	dir, err := os.MkdirTemp("", "papergraph-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	ctx := context.Background()
	s.PutPapers(ctx, []graph.Paper{
		{ID: "00000000000000a1", Label: "Zebra counting", Abstract: "We count zebra herds from drone video."},
		{ID: "00000000000000a2", Label: "Horse pose", Abstract: "Pose estimation for horses; a zebra appears once."},
	})
	hits, _ := s.Search(ctx, "zebra", 5)
	for _, h := range hits {
		fmt.Println(h.Node.Label())
	}
	// Output:
	// Zebra counting
	// Horse pose
}

// TestSearchStems checks that a word and its inflections find the same
// papers and entities: terms and names are stemmed on both sides.
func TestSearchStems(t *testing.T) {
	agent := graph.Entity{Kind: graph.Technique, Name: "LLM agent"}
	bench := graph.Entity{Kind: graph.Dataset, Name: "agent benchmarks"}
	s := openFixture(t, []graph.Paper{
		fxPaper(1, "An agent acts on a benchmark.", agent),
		fxPaper(2, "Agents act on benchmarks.", bench),
		fxPaper(3, "Benchmarking agentless baselines."),
		fxPaper(4, "Horses only."),
	})
	ctx := context.Background()
	tests := []struct{ a, b string }{
		{"agent", "agents"},
		{"benchmark", "benchmarks"},
		{"benchmarks", "benchmarking"},
		{"LLM agents", "llm agent"},
		{"agent benchmark", "Agent Benchmarks"},
	}
	for _, tt := range tests {
		a, err := s.Search(ctx, tt.a, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Search(ctx, tt.b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if ga, gb := hitIDs(a), hitIDs(b); len(ga) == 0 || !slices.Equal(ga, gb) {
			t.Errorf("Search(%q) = %v, Search(%q) = %v; want the same, not empty", tt.a, ga, tt.b, gb)
		}
	}
	// The entity named in the plural is found from the singular.
	got, err := s.Search(ctx, "agent benchmark", 1)
	if err != nil {
		t.Fatal(err)
	}
	if ids := hitIDs(got); !slices.Equal(ids, []string{bench.ID()}) {
		t.Errorf("Search(%q, 1) = %v; want [%s]", "agent benchmark", ids, bench.ID())
	}
}
