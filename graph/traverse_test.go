package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

var (
	fixtureOnce sync.Once
	fixtureList []Paper
)

// fixture returns the traversal fixture's papers, built once.
func fixture() []Paper {
	fixtureOnce.Do(func() { fixtureList = fixturePapers() })
	return fixtureList
}

func matchIDs(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Paper.ID)
	}
	return out
}

func idsOf(ps []Paper) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// bruteSharing ranks, by brute force over papers, the papers sharing
// entities of kinds with paper id (no taxonomy): the answer Sharing must
// give when it is exact.
func bruteSharing(papers []Paper, id string, kinds []Kind, minShared, limit int) []string {
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
		q      SharingQuery
		want   []string
		shared map[string][]string // paper id -> names of shared entities
	}{
		{"rare before hub", 1, SharingQuery{}, append(fxIDs(4, 2), hubs...),
			map[string][]string{fxID(4): {"Hub", "Rare"}, fxID(2): {"Rare"}, fxID(3): {"Hub"}}},
		{"limit", 1, SharingQuery{Limit: 3}, fxIDs(4, 2, 3), nil},
		{"min shared", 1, SharingQuery{MinShared: 2}, fxIDs(4), nil},
		{"technique", 1, SharingQuery{Kinds: []Kind{Technique}}, fxIDs(6),
			map[string][]string{fxID(6): {"LoRA"}}},
		{"two kinds", 1, SharingQuery{Kinds: []Kind{Dataset, Technique}, Limit: 4}, fxIDs(6, 4, 2, 3),
			map[string][]string{fxID(6): {"Hub", "LoRA"}}},
		{"ties by id", 2, SharingQuery{}, fxIDs(1, 4), nil},
		{"no family", 20, SharingQuery{}, fxIDs(23), nil},
		{"family", 20, SharingQuery{Family: true}, fxIDs(23, 21, 22),
			map[string][]string{fxID(23): {"OSWorld-G"}, fxID(21): {"OSWorld"}, fxID(22): {"OSWorld"}}},
		{"family from parent", 22, SharingQuery{Family: true}, fxIDs(20, 21, 23),
			map[string][]string{fxID(20): {"OSWorld"}}},
		{"no entities", 30, SharingQuery{}, nil, nil},
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
					kinds = []Kind{Dataset}
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
	got, err := s.Sharing(ctx, fxID(20), SharingQuery{Family: true})
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
		q    SharingQuery
		want error
	}{
		{"dataset:rare", SharingQuery{}, ErrBadID},
		{"xyz", SharingQuery{}, ErrBadID},
		{fxID(99), SharingQuery{}, ErrNotFound},
		{fxID(1), SharingQuery{Kinds: []Kind{9}}, ErrBadKind},
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
func hubPapers() []Paper {
	ds := func(name string) Entity { return Entity{Kind: Dataset, Name: name} }
	rare, big, big2 := ds("Rare"), ds("Big"), ds("Big2")
	ps := []Paper{
		fxPaper(1, "", rare, big, big2),
		fxPaper(2, "", rare, big, big2),
		fxPaper(3, "", rare),
	}
	for n := 100; n < 2600; n++ {
		es := []Entity{big}
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
		q    SharingQuery
		want []string
	}{
		{1, SharingQuery{Limit: 5}, fxIDs(2, 2500, 3, 100, 101)},
		{1, SharingQuery{Limit: 5, MinShared: 2}, fxIDs(2, 2500, 100, 101, 102)},
		{1, SharingQuery{MinShared: 3}, fxIDs(2)},
		{3, SharingQuery{Limit: 3}, fxIDs(1, 2, 2500)},
		// Hub-only: all tie, so the answer is the smallest ids.
		{2400, SharingQuery{Limit: 4}, fxIDs(1, 2, 100, 101)},
		{2000, SharingQuery{Limit: 4}, fxIDs(1, 2, 100, 101)},
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
			if want := bruteSharing(papers, fxID(tt.id), []Kind{Dataset}, tt.q.MinShared, limit); !slices.Equal(matchIDs(got), want) {
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
			e := Entity{Kind: Dataset, Name: fmt.Sprintf("small %d", zipf.Uint64())}
			if !slices.ContainsFunc(papers[i].Entities, func(x Entity) bool { return x.ID() == e.ID() }) {
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
		q := SharingQuery{Limit: 10, MinShared: 1 + i%3}
		got, err := s.Sharing(ctx, id, q)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteSharing(papers, id, []Kind{Dataset}, q.MinShared, q.Limit); !slices.Equal(matchIDs(got), want) {
			t.Errorf("query %d: Sharing(%q, %+v) = %v; brute force gives %v", i, id, q, matchIDs(got), want)
		}
	}
}

func subgraphIDs(g Subgraph) []string {
	var out []string
	for _, n := range g.Nodes {
		out = append(out, n.ID())
	}
	return out
}

func pe(paper int, entity, kind string) Edge { return Edge{From: fxID(paper), To: entity, Kind: kind} }

func TestNeighborhood(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		name      string
		id        string
		q         NeighborhoodQuery
		wantNodes []string
		wantEdges []Edge
	}{
		{"paper 1 hop", fxID(2), NeighborhoodQuery{Hops: 1},
			[]string{fxID(2), "dataset:rare"},
			[]Edge{pe(2, "dataset:rare", "dataset")}},
		{"paper 2 hops", fxID(2), NeighborhoodQuery{Hops: 2},
			[]string{fxID(1), fxID(2), fxID(4), "dataset:rare"},
			[]Edge{pe(1, "dataset:rare", "dataset"), pe(2, "dataset:rare", "dataset"), pe(4, "dataset:rare", "dataset")}},
		{"kinds", fxID(1), NeighborhoodQuery{Hops: 2, Kinds: []Kind{Technique}},
			[]string{fxID(1), fxID(6), "technique:lora"},
			[]Edge{pe(1, "technique:lora", "technique"), pe(6, "technique:lora", "technique")}},
		{"limit on a hub", "dataset:hub", NeighborhoodQuery{Hops: 1, Limit: 5},
			[]string{fxID(1), fxID(3), fxID(4), fxID(5), "dataset:hub"},
			[]Edge{pe(1, "dataset:hub", "dataset"), pe(3, "dataset:hub", "dataset"), pe(4, "dataset:hub", "dataset"), pe(5, "dataset:hub", "dataset")}},
		{"taxonomy", "dataset:osworld-g", NeighborhoodQuery{Hops: 1},
			[]string{fxID(20), fxID(23), "dataset:osworld", "dataset:osworld-g"},
			[]Edge{pe(20, "dataset:osworld-g", "dataset"), pe(23, "dataset:osworld-g", "dataset"),
				{From: "dataset:osworld-g", To: "dataset:osworld", Kind: BroaderEdge}}},
		{"taxonomy 2 hops", "dataset:osworld", NeighborhoodQuery{Hops: 2},
			[]string{fxID(20), fxID(21), fxID(22), fxID(23), "dataset:osworld", "dataset:osworld-g", "dataset:osworld-verified"},
			[]Edge{pe(20, "dataset:osworld-g", "dataset"), pe(21, "dataset:osworld-verified", "dataset"),
				pe(22, "dataset:osworld", "dataset"), pe(23, "dataset:osworld-g", "dataset"),
				{From: "dataset:osworld-g", To: "dataset:osworld", Kind: BroaderEdge},
				{From: "dataset:osworld-verified", To: "dataset:osworld", Kind: BroaderEdge}}},
		{"isolated", fxID(30), NeighborhoodQuery{Hops: 3}, []string{fxID(30)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := s.Neighborhood(ctx, tt.id, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if ids := subgraphIDs(g); !slices.Equal(ids, tt.wantNodes) {
				t.Errorf("Neighborhood(%q, %+v) nodes = %v; want %v", tt.id, tt.q, ids, tt.wantNodes)
			}
			if diff := gocmp.Diff(tt.wantEdges, g.Edges); diff != "" {
				t.Errorf("Neighborhood(%q, %+v) edges (-want +got):\n%s", tt.id, tt.q, diff)
			}
		})
	}
}

func TestNeighborhoodErrors(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		id   string
		hops int
		want error
	}{
		{fxID(1), 0, ErrBadArgument},
		{fxID(1), 5, ErrBadArgument},
		{"nope", 1, ErrBadID},
		{fxID(99), 1, ErrNotFound},
		{"dataset:none", 1, ErrNotFound},
	}
	for _, tt := range tests {
		if _, err := s.Neighborhood(ctx, tt.id, NeighborhoodQuery{Hops: tt.hops}); !errors.Is(err, tt.want) {
			t.Errorf("Neighborhood(%q, hops %d) error = %v; want %v", tt.id, tt.hops, err, tt.want)
		}
	}
}

// pathOrder returns the nodes of path g from from, following its edges;
// it fails the test if g is not a simple path from from.
func pathOrder(t *testing.T, g Subgraph, from string) []string {
	t.Helper()
	adj := make(map[string][]string)
	for _, e := range g.Edges {
		adj[e.From] = append(adj[e.From], e.To)
		adj[e.To] = append(adj[e.To], e.From)
	}
	order := []string{from}
	seen := map[string]bool{from: true}
	for {
		var next []string
		for _, v := range adj[order[len(order)-1]] {
			if !seen[v] {
				next = append(next, v)
			}
		}
		if len(next) == 0 {
			break
		}
		if len(next) > 1 {
			t.Fatalf("path %v branches at %s", g.Edges, order[len(order)-1])
		}
		seen[next[0]] = true
		order = append(order, next[0])
	}
	if len(order) != len(g.Nodes) || len(g.Edges) != len(g.Nodes)-1 {
		t.Fatalf("path nodes %v edges %v: not a simple path from %s", subgraphIDs(g), g.Edges, from)
	}
	return order
}

func TestPath(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		from, to string
		maxHops  int
		want     []string // nil: none; else the nodes in order, "*" for any node
	}{
		{fxID(2), fxID(4), 4, []string{fxID(2), "dataset:rare", fxID(4)}},
		{fxID(2), fxID(3), 4, []string{fxID(2), "dataset:rare", "*", "dataset:hub", fxID(3)}},
		{fxID(2), fxID(3), 3, nil},
		{fxID(20), fxID(21), 8, []string{fxID(20), "dataset:osworld-g", "dataset:osworld", "dataset:osworld-verified", fxID(21)}},
		{"dataset:rare", "dataset:hub", 2, []string{"dataset:rare", "*", "dataset:hub"}},
		{"dataset:rare", "technique:lora", 8, []string{"dataset:rare", fxID(1), "technique:lora"}},
		{fxID(2), fxID(30), 8, nil},
		{fxID(2), fxID(2), 1, []string{fxID(2)}},
	}
	for _, tt := range tests {
		g, ok, err := s.Path(ctx, tt.from, tt.to, tt.maxHops)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (tt.want != nil) {
			t.Errorf("Path(%q, %q, %d) ok = %v; want %v", tt.from, tt.to, tt.maxHops, ok, tt.want != nil)
			continue
		}
		if !ok {
			continue
		}
		got := pathOrder(t, g, tt.from)
		match := len(got) == len(tt.want)
		for i := 0; match && i < len(got); i++ {
			match = tt.want[i] == "*" || tt.want[i] == got[i]
		}
		if !match {
			t.Errorf("Path(%q, %q, %d) = %v; want %v", tt.from, tt.to, tt.maxHops, got, tt.want)
		}
		if ids := subgraphIDs(g); !slices.Equal(ids, got) {
			t.Errorf("Path(%q, %q) nodes %v; want them in path order %v", tt.from, tt.to, ids, got)
		}
		for i, e := range g.Edges {
			a, b := g.Nodes[i].ID(), g.Nodes[i+1].ID()
			if (e.From != a || e.To != b) && (e.From != b || e.To != a) {
				t.Errorf("Path(%q, %q) edge %d = %v; want it between %s and %s", tt.from, tt.to, i, e, a, b)
			}
		}
	}
	for _, hops := range []int{0, 9} {
		if _, _, err := s.Path(ctx, fxID(1), fxID(2), hops); !errors.Is(err, ErrBadArgument) {
			t.Errorf("Path(max hops %d) error = %v; want ErrBadArgument", hops, err)
		}
	}
	if _, _, err := s.Path(ctx, fxID(1), "bad", 2); !errors.Is(err, ErrBadID) {
		t.Errorf("Path(to bad) error = %v; want ErrBadID", err)
	}
	if _, _, err := s.Path(ctx, fxID(1), fxID(99), 2); !errors.Is(err, ErrNotFound) {
		t.Errorf("Path(to missing) error = %v; want ErrNotFound", err)
	}
}

func TestPathThroughHub(t *testing.T) {
	// Papers 2599 and 2598 meet only through Big, linked to 2502 papers:
	// more than pathFanout, and 2598 is not among the first. Within 2 hops
	// the search expands Big from 2599's side only, so the meeting must be
	// found by checking 2598 with a point read.
	s := openFixture(t, hubPapers())
	g, ok, err := s.Path(context.Background(), fxID(2599), fxID(2598), 2)
	if err != nil || !ok {
		t.Fatalf("Path(2599, 2598, 2) = %v, %v; want a path", ok, err)
	}
	if got, want := pathOrder(t, g, fxID(2599)), []string{fxID(2599), "dataset:big", fxID(2598)}; !slices.Equal(got, want) {
		t.Errorf("Path(2599, 2598, 2) = %v; want %v", got, want)
	}
}

// allPages collects every page of a listing, failing on a duplicate.
func allPages(t *testing.T, page func(after string) (ids []string, end string, next bool, err error)) []string {
	t.Helper()
	var all []string
	seen := make(map[string]bool)
	after := ""
	for range 1000 {
		ids, end, next, err := page(after)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("%s listed twice", id)
			}
			seen[id] = true
		}
		all = append(all, ids...)
		if !next {
			return all
		}
		after = end
	}
	t.Fatal("listing does not end")
	return nil
}

func TestPapersOf(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	want := fxIDs(1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
	for _, first := range []int{1, 4, 5, 13, 100} {
		got := allPages(t, func(after string) ([]string, string, bool, error) {
			p, err := s.PapersOf(ctx, "dataset:hub", first, after)
			if err == nil && p.Total != 13 {
				t.Errorf("PapersOf(hub).Total = %d; want 13", p.Total)
			}
			if err == nil && len(p.Papers) > 0 && p.Cursors[len(p.Cursors)-1] != p.EndCursor {
				t.Errorf("PapersOf(hub): last cursor %q != end cursor %q", p.Cursors[len(p.Cursors)-1], p.EndCursor)
			}
			return idsOf(p.Papers), p.EndCursor, p.HasNext, err
		})
		if !slices.Equal(got, want) {
			t.Errorf("PapersOf(hub, first %d) = %v; want %v", first, got, want)
		}
	}
	// A cursor resumes right after its paper.
	p, err := s.PapersOf(ctx, "dataset:hub", 3, "")
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.PapersOf(ctx, "dataset:hub", 2, p.Cursors[1])
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(q.Papers); !slices.Equal(got, fxIDs(4, 5)) {
		t.Errorf("PapersOf(hub, after 2nd) = %v; want %v", got, fxIDs(4, 5))
	}

	other, err := s.ListPapers(ctx, PaperFilter{}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	rare, err := s.PapersOf(ctx, "dataset:rare", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		entity string
		first  int
		after  string
		want   error
	}{
		{"dataset:hub", 0, "", ErrBadArgument},
		{"dataset:hub", 101, "", ErrBadArgument},
		{"dataset:hub", 5, "%%%", ErrBadCursor},
		{"dataset:hub", 5, other.EndCursor, ErrBadCursor},
		{"dataset:hub", 5, rare.EndCursor, ErrBadCursor},
		{"dataset:none", 5, "", ErrNotFound},
		{"hub", 5, "", ErrBadID},
	}
	for _, tt := range bad {
		if _, err := s.PapersOf(ctx, tt.entity, tt.first, tt.after); !errors.Is(err, tt.want) {
			t.Errorf("PapersOf(%q, %d, %q) error = %v; want %v", tt.entity, tt.first, tt.after, err, tt.want)
		}
	}
}

func TestListPapers(t *testing.T) {
	papers := fixture()
	s := openFixture(t, papers)
	ctx := context.Background()
	var all, source []string
	for _, p := range papers {
		all = append(all, p.ID)
		source = append(source, p.ID)
	}
	slices.Sort(all)
	tests := []struct {
		name      string
		f         PaperFilter
		want      []string
		wantTotal int
		anyOrder  bool
	}{
		{"all", PaperFilter{}, all, len(all), false},
		{"kind", PaperFilter{Kind: Technique}, fxIDs(1, 6), 2, false},
		{"task", PaperFilter{Kind: Task}, fxIDs(1), 1, false},
		{"entity", PaperFilter{Entity: "dataset:rare"}, fxIDs(1, 2, 4), 3, false},
		{"entity and kind", PaperFilter{Entity: "dataset:hub", Kind: Technique}, fxIDs(1, 6), 2, false},
		{"source", PaperFilter{Source: "fixture.jsonl"}, source, len(source), false},
		{"source and kind", PaperFilter{Source: "fixture.jsonl", Kind: Technique}, fxIDs(1, 6), 2, false},
		{"other source", PaperFilter{Source: "other.jsonl"}, nil, 0, false},
		{"text", PaperFilter{Text: "zebra"}, fxIDs(40, 41), 2, false},
		{"text and entity", PaperFilter{Text: "zebra", Entity: "dataset:rare"}, nil, 0, false},
		{"text paging", PaperFilter{Text: "fixture"}, all, len(all), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := allPages(t, func(after string) ([]string, string, bool, error) {
				p, err := s.ListPapers(ctx, tt.f, 3, after)
				if err == nil && p.Total != tt.wantTotal {
					t.Errorf("ListPapers(%+v).Total = %d; want %d", tt.f, p.Total, tt.wantTotal)
				}
				return idsOf(p.Papers), p.EndCursor, p.HasNext, err
			})
			if tt.anyOrder {
				slices.Sort(got)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ListPapers(%+v) = %v; want %v", tt.f, got, tt.want)
			}
		})
	}
	text, err := s.ListPapers(ctx, PaperFilter{Text: "fixture"}, 2, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListPapers(ctx, PaperFilter{Text: "zebra"}, 2, text.EndCursor); !errors.Is(err, ErrBadCursor) {
		t.Errorf("ListPapers(zebra, cursor of another query) error = %v; want ErrBadCursor", err)
	}
	if _, err := s.ListPapers(ctx, PaperFilter{Text: "fixture", Kind: Dataset}, 2, text.EndCursor); !errors.Is(err, ErrBadCursor) {
		t.Errorf("ListPapers(fixture, kind, cursor without kind) error = %v; want ErrBadCursor", err)
	}
	if _, err := s.ListPapers(ctx, PaperFilter{Kind: 7}, 2, ""); !errors.Is(err, ErrBadKind) {
		t.Errorf("ListPapers(kind 7) error = %v; want ErrBadKind", err)
	}
}

func entityIDList(es []Entity) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID())
	}
	return out
}

func TestListEntities(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		kind   Kind
		search string
		order  EntityOrder
		want   []string
	}{
		{Dataset, "", ByDegree, []string{"dataset:hub", "dataset:rare", "dataset:osworld-g", "dataset:osworld", "dataset:osworld-verified"}},
		{0, "", ByDegree, []string{"dataset:hub", "dataset:rare", "dataset:osworld-g", "technique:lora",
			"dataset:osworld", "dataset:osworld-verified", "task:question-answering"}},
		{0, "", ByName, []string{"dataset:hub", "dataset:osworld", "dataset:osworld-g", "dataset:osworld-verified",
			"dataset:rare", "task:question-answering", "technique:lora"}},
		{Technique, "", ByName, []string{"technique:lora"}},
		{0, "osw", ByName, []string{"dataset:osworld", "dataset:osworld-g", "dataset:osworld-verified"}},
		{0, "OSWORLD-V", ByDegree, []string{"dataset:osworld-verified"}},
		// As a slug "OSWorld-" is "osworld": the punctuation is ignored.
		{Dataset, "OSWorld-", ByDegree, []string{"dataset:osworld-g", "dataset:osworld", "dataset:osworld-verified"}},
		{Technique, "low", ByName, []string{"technique:lora"}},
		{Dataset, "low", ByName, nil},
		{0, "Lo", ByDegree, []string{"technique:lora"}},
	}
	for _, tt := range tests {
		for _, first := range []int{1, 2, 100} {
			got := allPages(t, func(after string) ([]string, string, bool, error) {
				p, err := s.ListEntities(ctx, tt.kind, tt.search, tt.order, first, after)
				if err == nil && p.Total != len(tt.want) {
					t.Errorf("ListEntities(%v, %q, %v).Total = %d; want %d", tt.kind, tt.search, tt.order, p.Total, len(tt.want))
				}
				return entityIDList(p.Entities), p.EndCursor, p.HasNext, err
			})
			if !slices.Equal(got, tt.want) {
				t.Errorf("ListEntities(%v, %q, %v, first %d) = %v; want %v", tt.kind, tt.search, tt.order, first, got, tt.want)
			}
		}
	}
	byName, err := s.ListEntities(ctx, 0, "", ByName, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		kind  Kind
		order EntityOrder
		first int
		after string
		want  error
	}{
		{0, ByDegree, 1, byName.EndCursor, ErrBadCursor},
		{0, ByDegree, 1, "AAAA", ErrBadCursor},
		{0, ByDegree, 0, "", ErrBadArgument},
		{0, 7, 1, "", ErrBadArgument},
		{9, ByName, 1, "", ErrBadKind},
	}
	for _, tt := range bad {
		if _, err := s.ListEntities(ctx, tt.kind, "", tt.order, tt.first, tt.after); !errors.Is(err, tt.want) {
			t.Errorf("ListEntities(%v, %v, %d, %q) error = %v; want %v", tt.kind, tt.order, tt.first, tt.after, err, tt.want)
		}
	}
}

func TestCoOccurring(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	type co struct {
		id string
		n  int
	}
	tests := []struct {
		id    string
		kind  Kind
		limit int
		want  []co
	}{
		{"dataset:hub", 0, 0, []co{{"dataset:rare", 2}, {"technique:lora", 2}, {"task:question-answering", 1}}},
		{"dataset:hub", Technique, 0, []co{{"technique:lora", 2}}},
		{"dataset:hub", 0, 1, []co{{"dataset:rare", 2}}},
		{"technique:lora", Dataset, 0, []co{{"dataset:hub", 2}, {"dataset:rare", 1}}},
		{"dataset:osworld-g", 0, 0, nil},
	}
	for _, tt := range tests {
		got, err := s.CoOccurring(ctx, tt.id, tt.kind, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		var cos []co
		for _, c := range got {
			cos = append(cos, co{c.Entity.ID(), c.Count})
		}
		if !slices.Equal(cos, tt.want) {
			t.Errorf("CoOccurring(%q, %v, %d) = %v; want %v", tt.id, tt.kind, tt.limit, cos, tt.want)
		}
	}
	if _, err := s.CoOccurring(ctx, "dataset:none", 0, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("CoOccurring(missing) error = %v; want ErrNotFound", err)
	}
	if _, err := s.CoOccurring(ctx, fxID(1), 0, 1); !errors.Is(err, ErrBadID) {
		t.Errorf("CoOccurring(paper id) error = %v; want ErrBadID", err)
	}
}

func TestCoOccurringHub(t *testing.T) {
	// Big has 2502 papers: a sample of coPapers is read and scaled.
	s := openFixture(t, hubPapers())
	got, err := s.CoOccurring(context.Background(), "dataset:big", 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Entity.ID() != "dataset:big2" || !got[0].Estimated {
		t.Fatalf("CoOccurring(big) = %+v; want big2 first, estimated", got)
	}
	// Big2 is on 2202 of Big's 2502 papers; the sample is the first 500 by
	// id, all of which have Big2, so the estimate is high but bounded.
	if n := got[0].Count; n < 2202 || n > 2502 {
		t.Errorf("CoOccurring(big) count of big2 = %d; want within [2202, 2502]", n)
	}
}

func TestTop(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		kind  Kind
		limit int
		want  []string
	}{
		{Dataset, 2, []string{"dataset:hub", "dataset:rare"}},
		{0, 4, []string{"dataset:hub", "dataset:rare", "dataset:osworld-g", "technique:lora"}},
		{Task, 0, []string{"task:question-answering"}},
		{Modality, 5, nil},
	}
	for _, tt := range tests {
		got, err := s.Top(ctx, tt.kind, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if ids := entityIDList(got); !slices.Equal(ids, tt.want) {
			t.Errorf("Top(%v, %d) = %v; want %v", tt.kind, tt.limit, ids, tt.want)
		}
		for _, e := range got {
			if e.PaperCount == 0 {
				t.Errorf("Top(%v): %s has PaperCount 0", tt.kind, e.ID())
			}
		}
	}
}

func TestPapersOfEach(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	first, err := s.PapersOf(ctx, "dataset:hub", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	reqs := []PageOf{
		{Entity: "dataset:hub", First: 2},
		{Entity: "dataset:hub", First: 3, After: first.EndCursor},
		{Entity: "dataset:rare", First: 5},
		{Entity: "dataset:none", First: 5},
		{Entity: "hub", First: 5},
		{Entity: "dataset:rare", First: 0},
		{Entity: "dataset:rare", First: 5, After: first.EndCursor},
	}
	wantErr := []error{nil, nil, nil, ErrNotFound, ErrBadID, ErrBadArgument, ErrBadCursor}
	pages, errs, err := s.PapersOfEach(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range reqs {
		if !errors.Is(errs[i], wantErr[i]) || (wantErr[i] == nil) != (errs[i] == nil) {
			t.Errorf("PapersOfEach(%+v) error = %v; want %v", r, errs[i], wantErr[i])
			continue
		}
		if errs[i] != nil {
			continue
		}
		want, err := s.PapersOf(ctx, r.Entity, r.First, r.After)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want, pages[i]); diff != "" {
			t.Errorf("PapersOfEach(%+v) differs from PapersOf (-want +got):\n%s", r, diff)
		}
	}
}
