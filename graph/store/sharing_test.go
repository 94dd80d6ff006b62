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

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// bruteSharing ranks, by brute force over papers, the papers sharing
// entities of kinds with paper id (no taxonomy): the answer Sharing must
// give.
func bruteSharing(papers []graph.Paper, id string, kinds []graph.Kind, minShared, limit int) []string {
	return newBrute(papers).rank(id, graph.SharingQuery{Kinds: kinds, MinShared: minShared, Limit: limit})
}

// brute is a graph held as maps, for bruteSharing and its family form: a
// taxonomy from the entities' Broader names (same kind), followed as
// Sharing's documentation says.
type brute struct {
	papers  []graph.Paper
	has     map[string]map[string]bool // paper -> entity ids
	degree  map[string]uint64
	broader map[string][]string
	narrow  map[string][]string
}

func newBrute(papers []graph.Paper) *brute {
	b := &brute{papers: papers, has: map[string]map[string]bool{}, degree: map[string]uint64{},
		broader: map[string][]string{}, narrow: map[string][]string{}}
	seen := map[[2]string]bool{}
	for _, p := range papers {
		b.has[p.ID] = map[string]bool{}
		for _, e := range p.Entities {
			b.has[p.ID][e.ID()] = true
			b.degree[e.ID()]++
			for _, name := range e.Broader {
				a := graph.EntityID(e.Kind, name)
				if k := [2]string{e.ID(), a}; !seen[k] {
					seen[k] = true
					b.broader[e.ID()] = append(b.broader[e.ID()], a)
					b.narrow[a] = append(b.narrow[a], e.ID())
				}
			}
		}
	}
	return b
}

// bruteWalk returns the entities reachable from id through next within
// graph.FamilyDepth levels, without id.
func bruteWalk(next map[string][]string, id string) []string {
	seen := map[string]bool{id: true}
	var out []string
	frontier := []string{id}
	for range graph.FamilyDepth {
		var nf []string
		for _, u := range frontier {
			for _, v := range next[u] {
				if !seen[v] {
					seen[v] = true
					out = append(out, v)
					nf = append(nf, v)
				}
			}
		}
		frontier = nf
	}
	return out
}

// bruteMatch is a match as brute force finds it.
type bruteMatch struct {
	id     string
	score  float64
	shared []string
}

func (b *brute) rank(id string, q graph.SharingQuery) []string {
	var out []string
	for _, m := range b.matches(id, q) {
		out = append(out, m.id)
	}
	return out
}

func (b *brute) matches(id string, q graph.SharingQuery) []bruteMatch {
	kinds := q.Kinds
	if len(kinds) == 0 {
		kinds = []graph.Kind{graph.Dataset}
	}
	type group struct {
		id        string
		members   []string
		degree    uint64
		ancestors map[string]bool
	}
	var groups []*group
	byID := map[string]bool{}
	add := func(g string) {
		if !byID[g] {
			byID[g] = true
			groups = append(groups, &group{id: g, members: []string{g}})
		}
	}
	for e := range b.has[id] {
		if !slices.Contains(kinds, entityKind(e)) {
			continue
		}
		add(e)
		if q.Family {
			for _, a := range bruteWalk(b.broader, e) {
				add(a)
			}
		}
	}
	for _, g := range groups {
		if q.Family {
			g.members = append(g.members, bruteWalk(b.narrow, g.id)...)
			g.ancestors = map[string]bool{}
			for _, a := range bruteWalk(b.broader, g.id) {
				g.ancestors[a] = true
			}
		}
		for _, m := range g.members {
			g.degree += b.degree[m]
		}
	}
	// Sum in Sharing's order (degree, then id) so that scores compare
	// exactly.
	slices.SortFunc(groups, func(x, y *group) int { return cmp.Or(cmp.Compare(x.degree, y.degree), strings.Compare(x.id, y.id)) })
	var all []bruteMatch
	for _, p := range b.papers {
		if p.ID == id {
			continue
		}
		var in []*group
		for _, g := range groups {
			if slices.ContainsFunc(g.members, func(m string) bool { return b.has[p.ID][m] }) {
				in = append(in, g)
			}
		}
		m := bruteMatch{id: p.ID}
		for _, g := range in {
			if !slices.ContainsFunc(in, func(h *group) bool { return h.ancestors[g.id] }) {
				m.score += graph.AdamicAdar(int(g.degree))
				m.shared = append(m.shared, g.id)
			}
		}
		if len(m.shared) > 0 && len(m.shared) >= q.MinShared {
			all = append(all, m)
		}
	}
	slices.SortFunc(all, func(x, y bruteMatch) int { return cmp.Or(cmp.Compare(y.score, x.score), strings.Compare(x.id, y.id)) })
	return all[:min(cmp.Or(q.Limit, graph.DefaultLimit), len(all))]
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

// hubPapers is a graph with two hubs of thousands of papers, above
// probeMin, ahead of which rankSharing looks for a bound: papers 100..2599
// link to Big, 100..2299 to Big2; paper 1 (the query) links to Rare, Big
// and Big2, paper 2 to the same, paper 3 to Rare, paper 2500 to Rare too.
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
	// With and without the read cache, which only serves records here.
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
	// rare): for any query paper Sharing must agree with brute force.
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
			s.cache = nil
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

// TestSharingExact compares Sharing with brute force on the generated
// corpus, whose hubs (the top dataset and modalities, linked to a third of
// the papers or more) exceed probeMin many times over, for every kind of
// query: from the index as built, from the index after PutPapers changed
// and added papers, and from Badger as during a write.
func TestSharingExact(t *testing.T) {
	papers := corpus.Papers(5, 3000, 3)
	s := openFixture(t, papers)
	ctx := context.Background()
	queries := []graph.SharingQuery{
		{},
		{Limit: 1},
		{Limit: 100},
		{MinShared: 2, Limit: 50},
		{Family: true, Limit: 100},
		{Family: true, MinShared: 2},
		{Kinds: []graph.Kind{graph.Dataset, graph.Technique}, Limit: 100},
		{Kinds: []graph.Kind{graph.Task, graph.Modality}, MinShared: 2, Limit: 30},
		{Kinds: []graph.Kind{graph.Modality}, Limit: 100},
		{Kinds: graph.Kinds, Family: true, MinShared: 3, Limit: 100},
	}
	check := func(t *testing.T, papers []graph.Paper, n int) {
		t.Helper()
		b := newBrute(papers)
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		for i := range n {
			id := papers[rng.IntN(len(papers))].ID
			q := queries[i%len(queries)]
			got, err := s.Sharing(ctx, id, q)
			if err != nil {
				t.Fatal(err)
			}
			want := b.matches(id, q)
			if ids, wids := matchIDs(got), b.rank(id, q); !slices.Equal(ids, wids) {
				t.Fatalf("Sharing(%q, %+v) = %v; brute force gives %v", id, q, ids, wids)
			}
			for k, m := range got {
				var shared []string
				for _, e := range m.Shared {
					shared = append(shared, e.ID())
				}
				slices.Sort(shared)
				slices.Sort(want[k].shared)
				if m.Score != want[k].score || !slices.Equal(shared, want[k].shared) {
					t.Fatalf("Sharing(%q, %+v) match %s: score %v, shared %v; brute force gives %v, %v",
						id, q, m.Paper.ID, m.Score, shared, want[k].score, want[k].shared)
				}
			}
		}
	}
	t.Run("built", func(t *testing.T) { check(t, papers, 200) })

	// Re-ingest a tenth of the papers with other entities, and add some:
	// the index follows PutPapers.
	more := corpus.Papers(6, 400, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	var changed []graph.Paper
	for i := range 300 {
		j := rng.IntN(len(papers))
		p := papers[j]
		p.Entities = more[i].Entities
		papers[j] = p
		changed = append(changed, p)
	}
	changed = append(changed, more[300:]...)
	papers = append(papers, more[300:]...)
	if _, err := s.PutPapers(ctx, changed); err != nil {
		t.Fatal(err)
	}
	t.Run("after write", func(t *testing.T) { check(t, papers, 200) })

	// During a write Sharing reads the postings from its transaction.
	s.shareMu.Lock()
	s.shareWriting = true
	s.shareMu.Unlock()
	t.Run("from Badger", func(t *testing.T) { check(t, papers, 60) })
	s.shareMu.Lock()
	s.shareWriting = false
	s.shareMu.Unlock()
}
