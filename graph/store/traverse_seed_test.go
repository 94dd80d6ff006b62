package store_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"testing"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/seeds"
)

// seedGraph ingests the seed abstracts, extracted with the embedded
// vocabulary, into a store in a temporary directory. The answers on it are
// not known by construction (the vocabulary changes), so the tests below
// check what must hold whatever was extracted, against the store's own
// records.
func seedGraph(t *testing.T) (*store.Store, []graph.Paper) {
	t.Helper()
	x, err := extract.New(extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(seeds.FS, "*.txt")
	if err != nil || len(names) == 0 {
		t.Fatalf("no seed files: %v", err)
	}
	var papers []graph.Paper
	for _, name := range names {
		f, err := seeds.FS.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := extract.NewReader(f, name, extract.ReaderOptions{})
		for {
			d, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := x.Extract(t.Context(), d)
			if err != nil {
				t.Fatal(err)
			}
			papers = append(papers, p)
		}
		f.Close()
	}
	s, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	if _, err := s.PutPapers(ctx, papers); err != nil {
		t.Fatal(err)
	}
	stored := make([]graph.Paper, 0, len(papers))
	err = s.Walk(ctx, func(p graph.Paper) error { stored = append(stored, p); return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, stored
}

func entitySet(p graph.Paper) map[string]graph.Kind {
	m := make(map[string]graph.Kind)
	for _, e := range p.Entities {
		m[e.ID()] = e.Kind
	}
	return m
}

func TestSeedTraversals(t *testing.T) {
	s, papers := seedGraph(t)
	ctx := context.Background()
	byID := make(map[string]graph.Paper)
	for _, p := range papers {
		byID[p.ID] = p
	}
	pairs := 0
	defer func() { t.Logf("seed graph: %d papers, %d pairs sharing an entity", len(papers), pairs) }()
	for _, p := range papers {
		own := entitySet(p)

		// Sharing, all kinds: every match shares what it lists, ordered by
		// score; and no paper sharing an entity is left out.
		ms, err := s.Sharing(ctx, p.ID, graph.SharingQuery{Kinds: graph.Kinds, Limit: graph.MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		var sharing []string
		for _, q := range papers {
			if q.ID == p.ID {
				continue
			}
			for id := range entitySet(q) {
				if _, ok := own[id]; ok {
					sharing = append(sharing, q.ID)
					break
				}
			}
		}
		var got []string
		for i, m := range ms {
			got = append(got, m.Paper.ID)
			if i > 0 && m.Score > ms[i-1].Score {
				t.Errorf("Sharing(%s): scores rise at %d", p.ID, i)
			}
			other := entitySet(byID[m.Paper.ID])
			for _, e := range m.Shared {
				if _, ok := own[e.ID()]; !ok || other[e.ID()] == 0 {
					t.Errorf("Sharing(%s): %s listed as shared with %s", p.ID, e.ID(), m.Paper.ID)
				}
			}
		}
		pairs += len(sharing)
		slices.Sort(got)
		slices.Sort(sharing)
		if !slices.Equal(got, sharing) {
			t.Errorf("Sharing(%s) = %v; want the papers sharing an entity %v", p.ID, got, sharing)
		}

		// Neighborhood, one hop: the paper and its entities, one edge each.
		g, err := s.Neighborhood(ctx, p.ID, graph.NeighborhoodQuery{Hops: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{p.ID}
		for id := range own {
			want = append(want, id)
		}
		slices.Sort(want)
		var ids []string
		for _, n := range g.Nodes {
			ids = append(ids, n.ID())
		}
		if !slices.Equal(ids, want) {
			t.Errorf("Neighborhood(%s, 1) = %v; want %v", p.ID, ids, want)
		}
		paperEdges := 0
		for _, e := range g.Edges {
			if e.From == p.ID {
				paperEdges++
			}
		}
		if paperEdges != len(own) {
			t.Errorf("Neighborhood(%s, 1): %d edges from the paper; want %d", p.ID, paperEdges, len(own))
		}

		// Path to each paper sharing an entity: two hops.
		for _, q := range sharing {
			g, ok, err := s.Path(ctx, p.ID, q, 4)
			if err != nil || !ok || len(g.Edges) != 2 {
				t.Errorf("Path(%s, %s) = %d edges, %v, %v; want 2 edges", p.ID, q, len(g.Edges), ok, err)
			}
		}
	}

	// Top is ordered by paper count, which matches the papers' edges.
	page, err := s.ListEntities(ctx, graph.EntityQuery{Order: graph.ByDegree, First: 20})
	top := page.Entities
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range top {
		n := 0
		for _, p := range papers {
			if _, ok := entitySet(p)[e.ID()]; ok {
				n++
			}
		}
		if e.PaperCount != n || (i > 0 && e.PaperCount > top[i-1].PaperCount) {
			t.Errorf("Top: %s has PaperCount %d (%d papers), at %d", e.ID(), e.PaperCount, n, i)
		}
	}

	// Search by a paper's full label finds it among the first hits.
	for _, p := range papers[:min(10, len(papers))] {
		hits, err := s.Search(ctx, p.Label, 5)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range hits {
			found = found || h.Node.ID() == p.ID
		}
		if !found {
			t.Errorf("Search(%q) does not find paper %s in its first 5 hits", p.Label, p.ID)
		}
	}
}
