package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/dgraph/dgraphtest"
	"github.com/papergraph/papergraph/graph/store"
)

// seedStores returns the seed graph in Badger (in dir, open read-write)
// and, bulk-loaded from its RDF export, in a Dgraph cluster of the test's
// own, with every paper id.
func seedStores(t *testing.T) (bs *store.Store, ds *dgraph.Store, c *dgraphtest.Cluster, ids []string, dir string) {
	t.Helper()
	c = dgraphtest.Zero(t)
	ctx := context.Background()
	sg := newSeedGraph(t)
	rdf := filepath.Join(t.TempDir(), "seeds.rdf.gz")
	sg.mustExport(t, "--format", "rdf", "-o", rdf)
	c.Bulk(rdf, filepath.Join(filepath.Dir(rdf), "seeds.schema"))
	c.Alpha("bulk")
	bs, err := store.Open(sg.dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bs.Close() })
	ds, err = dgraph.Open(ctx, c.Addr, dgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	if err := bs.Walk(ctx, func(p graph.Paper) error { ids = append(ids, p.ID); return nil }, nil); err != nil {
		t.Fatal(err)
	}
	return bs, ds, c, ids, sg.dir
}

// sharer is what compareSharing asks: either store.
type sharer interface {
	Sharing(ctx context.Context, id string, q graph.SharingQuery) ([]graph.Match, error)
}

// compareSharing checks that a and b answer papersSharing alike for every
// paper of ids and every query of qs.
func compareSharing(t *testing.T, a, b sharer, ids []string, qs []graph.SharingQuery) {
	t.Helper()
	ctx := context.Background()
	scores := cmpopts.EquateApprox(0, 1e-9)
	nonEmpty := 0
	for _, q := range qs {
		for _, id := range ids {
			am, err := a.Sharing(ctx, id, q)
			if err != nil {
				t.Fatalf("badger Sharing(%s, %+v): %v", id, q, err)
			}
			bm, err := b.Sharing(ctx, id, q)
			if err != nil {
				t.Fatalf("dgraph Sharing(%s, %+v): %v", id, q, err)
			}
			if len(am) > 0 {
				nonEmpty++
			}
			if d := cmp.Diff(matchIDs(am), matchIDs(bm), scores); d != "" {
				t.Errorf("Sharing(%s, %+v) differs (-badger +dgraph):\n%s", id, q, d)
			}
		}
	}
	if nonEmpty == 0 {
		t.Errorf("every answer was empty: the comparison proves nothing")
	}
}

// TestDgraphSharing compares papersSharing over Dgraph with the Badger
// store's on the seed graph, for every paper, with family true and false,
// and several kinds, minShared and first (a small first cuts among tied
// scores, which both must break by paper id).
func TestDgraphSharing(t *testing.T) {
	bs, ds, _, ids, _ := seedStores(t)
	var qs []graph.SharingQuery
	for _, family := range []bool{true, false} {
		for _, ks := range [][]graph.Kind{nil, {graph.Task}, {graph.Technique}, {graph.Task, graph.Modality, graph.Dataset, graph.Technique}} {
			for _, min := range []int{1, 2, 3} {
				for _, first := range []int{1, 5, graph.MaxLimit} {
					qs = append(qs, graph.SharingQuery{Kinds: ks, MinShared: min, Limit: first, Family: family})
				}
			}
		}
	}
	compareSharing(t, bs, ds, ids, qs)
	t.Logf("%d papers, %d queries each", len(ids), len(qs))
}

// TestDgraphPath compares path over Dgraph with the Badger store's on the
// seed graph, from every other paper to every paper and to every tenth
// entity:
// among equally short paths both must return the same one.
func TestDgraphPath(t *testing.T) {
	ctx := context.Background()
	bs, ds, _, ids, _ := seedStores(t)
	var ends []string
	ends = append(ends, ids...)
	page, err := bs.ListEntities(ctx, graph.EntityQuery{Order: graph.ByName, First: graph.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range page.Entities {
		if i%10 == 0 {
			ends = append(ends, e.ID())
		}
	}
	found := 0
	for i, from := range ids {
		if i%2 == 1 {
			continue
		}
		for _, to := range ends {
			for _, hops := range []int{2, 4} {
				bg, bok, err := bs.Path(ctx, from, to, hops)
				if err != nil {
					t.Fatalf("badger Path(%s, %s, %d): %v", from, to, hops, err)
				}
				dg, dok, err := ds.Path(ctx, from, to, hops)
				if err != nil {
					t.Fatalf("dgraph Path(%s, %s, %d): %v", from, to, hops, err)
				}
				if bok {
					found++
				}
				if bok != dok || !cmp.Equal(pathIDs(bg), pathIDs(dg)) || !cmp.Equal(bg.Edges, dg.Edges) {
					t.Errorf("Path(%s, %s, %d) = %v %v %v; badger %v %v %v", from, to, hops, dok, pathIDs(dg), dg.Edges, bok, pathIDs(bg), bg.Edges)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no path found: the comparison proves nothing")
	}
}

func pathIDs(g graph.Subgraph) []string {
	var out []string
	for _, n := range g.Nodes {
		out = append(out, n.ID())
	}
	return out
}
