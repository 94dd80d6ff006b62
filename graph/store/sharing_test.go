package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// bruteSharing ranks, by brute force over papers, the papers sharing
// entities of kinds with paper id (no taxonomy): the answer Sharing must
// give when it is exact.
func bruteSharing(papers []graph.Paper, id string, kinds []graph.Kind, minShared, limit int) []string {
	degree := make(map[string]uint64)
	var own map[string]bool
	for _, p := range papers {
		for _, e := range p.Entities {
			degree[e.ID()]++
		}
		if p.ID == id {
			own = make(map[string]bool)
			for _, e := range p.Entities {
				if slices.Contains(kinds, e.Kind) {
					own[e.ID()] = true
				}
			}
		}
	}
	// Sum in Sharing's order (degree, then id) so that scores compare
	// exactly.
	order := make([]string, 0, len(own))
	for e := range own {
		order = append(order, e)
	}
	slices.SortFunc(order, func(a, b string) int { return cmp.Or(cmp.Compare(degree[a], degree[b]), strings.Compare(a, b)) })
	type scored struct {
		id    string
		score float64
	}
	var all []scored
	for _, p := range papers {
		if p.ID == id {
			continue
		}
		has := make(map[string]bool)
		for _, e := range p.Entities {
			has[e.ID()] = true
		}
		n, score := 0, 0.0
		for _, e := range order {
			if has[e] {
				n++
				score += adamicAdar(degree[e])
			}
		}
		if n > 0 && n >= minShared {
			all = append(all, scored{p.ID, score})
		}
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.id, b.id)) })
	var out []string
	for _, s := range all[:min(limit, len(all))] {
		out = append(out, s.id)
	}
	return out
}

func TestSharing(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	hubs := fxIDs(3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
	tests := []struct {
		name   string
		id     int
		q      graph.SharingQuery
		want   []string
		shared map[string][]string // paper id -> names of shared entities
	}{
		{"rare before hub", 1, graph.SharingQuery{}, append(fxIDs(4, 2), hubs...),
			map[string][]string{fxID(4): {"Hub", "Rare"}, fxID(2): {"Rare"}, fxID(3): {"Hub"}}},
		{"limit", 1, graph.SharingQuery{Limit: 3}, fxIDs(4, 2, 3), nil},
		{"min shared", 1, graph.SharingQuery{MinShared: 2}, fxIDs(4), nil},
		{"technique", 1, graph.SharingQuery{Kinds: []graph.Kind{graph.Technique}}, fxIDs(6),
			map[string][]string{fxID(6): {"LoRA"}}},
		{"two kinds", 1, graph.SharingQuery{Kinds: []graph.Kind{graph.Dataset, graph.Technique}, Limit: 4}, fxIDs(6, 4, 2, 3),
			map[string][]string{fxID(6): {"Hub", "LoRA"}}},
		{"ties by id", 2, graph.SharingQuery{}, fxIDs(1, 4), nil},
		{"no family", 20, graph.SharingQuery{}, fxIDs(23), nil},
		{"family", 20, graph.SharingQuery{Family: true}, fxIDs(23, 21, 22),
			map[string][]string{fxID(23): {"OSWorld-G"}, fxID(21): {"OSWorld"}, fxID(22): {"OSWorld"}}},
		{"family from parent", 22, graph.SharingQuery{Family: true}, fxIDs(20, 21, 23),
			map[string][]string{fxID(20): {"OSWorld"}}},
		{"no entities", 30, graph.SharingQuery{}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Sharing(ctx, fxID(tt.id), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if ids := matchIDs(got); !slices.Equal(ids, tt.want) {
				t.Fatalf("Sharing(%q, %+v) = %v; want %v", fxID(tt.id), tt.q, ids, tt.want)
			}
			for _, m := range got {
				want, ok := tt.shared[m.Paper.ID]
				if !ok {
					continue
				}
				var names []string
				score := 0.0
				for _, e := range m.Shared {
					names = append(names, e.Name)
					score += 1 / math.Log(float64(max(e.PaperCount, 2)))
				}
				if !slices.Equal(names, want) {
					t.Errorf("Sharing(%q) match %s shares %v; want %v", fxID(tt.id), m.Paper.ID, names, want)
				}
				if !tt.q.Family && math.Abs(score-m.Score) > 1e-9 {
					t.Errorf("Sharing(%q) match %s score %v; want %v", fxID(tt.id), m.Paper.ID, m.Score, score)
				}
			}
			if !tt.q.Family {
				kinds := tt.q.Kinds
				if kinds == nil {
					kinds = []graph.Kind{graph.Dataset}
				}
				limit := cmp.Or(tt.q.Limit, 20)
				if want := bruteSharing(fixture(), fxID(tt.id), kinds, tt.q.MinShared, limit); !slices.Equal(matchIDs(got), want) {
					t.Errorf("Sharing(%q) = %v; brute force gives %v", fxID(tt.id), matchIDs(got), want)
				}
			}
		})
	}
	// The family score uses the family's degree: OSWorld, -G, -Verified
	// have 4 papers.
	got, err := s.Sharing(ctx, fxID(20), graph.SharingQuery{Family: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 / math.Log(4); len(got) < 2 || math.Abs(got[1].Score-want) > 1e-9 {
		t.Errorf("Sharing(%q, family) = %+v; want the second scored %v", fxID(20), got, want)
	}
}

func TestSharingErrors(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		id   string
		q    graph.SharingQuery
		want error
	}{
		{"dataset:rare", graph.SharingQuery{}, graph.ErrBadID},
		{"xyz", graph.SharingQuery{}, graph.ErrBadID},
		{fxID(99), graph.SharingQuery{}, graph.ErrNotFound},
		{fxID(1), graph.SharingQuery{Kinds: []graph.Kind{9}}, graph.ErrBadKind},
	}
	for _, tt := range tests {
		if _, err := s.Sharing(ctx, tt.id, tt.q); !errors.Is(err, tt.want) {
			t.Errorf("Sharing(%q, %+v) error = %v; want %v", tt.id, tt.q, err, tt.want)
		}
	}
}

// hubPapers is a graph with two hubs above sharingHub, so that Sharing's
// bounded path (window and point reads) runs: papers 100..2599 link to Big,
// 100..2299 to Big2; paper 1 (the query) links to Rare, Big and Big2,
// paper 2 to the same, paper 3 to Rare, paper 2500 to Rare too, beyond the
// hub window.
func hubPapers() []graph.Paper {
	ds := func(name string) graph.Entity { return graph.Entity{Kind: graph.Dataset, Name: name} }
	rare, big, big2 := ds("Rare"), ds("Big"), ds("Big2")
	ps := []graph.Paper{
		fxPaper(1, "", rare, big, big2),
		fxPaper(2, "", rare, big, big2),
		fxPaper(3, "", rare),
	}
	for n := 100; n < 2600; n++ {
		es := []graph.Entity{big}
		if n < 2300 {
			es = append(es, big2)
		}
		if n == 2500 {
			es = append(es, rare)
		}
		ps = append(ps, fxPaper(n, "", es...))
	}
	return ps
}

func TestSharingHubs(t *testing.T) {
	papers := hubPapers()
	s := openFixture(t, papers)
	ctx := context.Background()
	tests := []struct {
		id   int
		q    graph.SharingQuery
		want []string
	}{
		{1, graph.SharingQuery{Limit: 5}, fxIDs(2, 2500, 3, 100, 101)},
		{1, graph.SharingQuery{Limit: 5, MinShared: 2}, fxIDs(2, 2500, 100, 101, 102)},
		{1, graph.SharingQuery{MinShared: 3}, fxIDs(2)},
		{3, graph.SharingQuery{Limit: 3}, fxIDs(1, 2, 2500)},
		// Hub-only: all tie, so the answer is the smallest ids.
		{2400, graph.SharingQuery{Limit: 4}, fxIDs(1, 2, 100, 101)},
		{2000, graph.SharingQuery{Limit: 4}, fxIDs(1, 2, 100, 101)},
	}
	// Cached, the hubs' papers are read whole and checked in memory;
	// without the cache, by the bounded checks of checkHubs.
	for _, cached := range []bool{true, false} {
		if !cached {
			s.cache = nil
		}
		for _, tt := range tests {
			got, err := s.Sharing(ctx, fxID(tt.id), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if ids := matchIDs(got); !slices.Equal(ids, tt.want) {
				t.Errorf("cached %v: Sharing(%q, %+v) = %v; want %v", cached, fxID(tt.id), tt.q, ids, tt.want)
			}
			limit := cmp.Or(tt.q.Limit, 20)
			if want := bruteSharing(papers, fxID(tt.id), []graph.Kind{graph.Dataset}, tt.q.MinShared, limit); !slices.Equal(matchIDs(got), want) {
				t.Errorf("cached %v: Sharing(%q, %+v) = %v; brute force gives %v", cached, fxID(tt.id), tt.q, matchIDs(got), want)
			}
		}
	}
}

func TestSharingHubsRandom(t *testing.T) {
	// hubPapers with small datasets drawn at random (some popular, most
	// rare): for any query paper the bounded search must agree with brute
	// force, since every hub-only candidate sharing both hubs lies in the
	// window.
	papers := hubPapers()
	rng := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(rng, 1.3, 1, 80)
	for i := range papers {
		for range rng.IntN(3) {
			e := graph.Entity{Kind: graph.Dataset, Name: fmt.Sprintf("small %d", zipf.Uint64())}
			if !slices.ContainsFunc(papers[i].Entities, func(x graph.Entity) bool { return x.ID() == e.ID() }) {
				papers[i].Entities = append(papers[i].Entities, e)
			}
		}
	}
	s := openFixture(t, papers)
	ctx := context.Background()
	for i := range 80 {
		if i == 40 {
			s.cache = nil // the bounded checks of checkHubs
		}
		id := papers[rng.IntN(len(papers))].ID
		q := graph.SharingQuery{Limit: 10, MinShared: 1 + i%3}
		got, err := s.Sharing(ctx, id, q)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteSharing(papers, id, []graph.Kind{graph.Dataset}, q.MinShared, q.Limit); !slices.Equal(matchIDs(got), want) {
			t.Errorf("query %d: Sharing(%q, %+v) = %v; brute force gives %v", i, id, q, matchIDs(got), want)
		}
	}
}
