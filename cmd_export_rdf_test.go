package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/dgraph/dgraphtest"
	"github.com/papergraph/papergraph/graph/store"
)

// TestExportRDFBulk moves the seed graph to Dgraph as a user would: export
// --format rdf, dgraph bulk, an alpha on its output. Every paper must then
// have the same entities and the same papersSharing answers as in Badger,
// and ingesting the seeds again into Dgraph must change nothing.
func TestExportRDFBulk(t *testing.T) {
	c := dgraphtest.Zero(t)
	ctx := context.Background()
	sg := newSeedGraph(t)
	rdf := filepath.Join(t.TempDir(), "seeds.rdf.gz")
	sg.mustExport(t, "--format", "rdf", "-o", rdf)
	c.Bulk(rdf, filepath.Join(filepath.Dir(rdf), "seeds.schema"))
	c.Alpha("bulk")

	bs, err := store.Open(sg.dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	ds, err := dgraph.Open(ctx, c.Addr, dgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()

	bstats, err := bs.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dstats, err := ds.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(bstats, dstats); d != "" {
		t.Errorf("stats differ (-badger +dgraph):\n%s", d)
	}
	var ids []string
	if err := bs.Walk(ctx, func(p graph.Paper) error { ids = append(ids, p.ID); return nil }, nil); err != nil {
		t.Fatal(err)
	}
	bps, err := bs.Papers(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	dps, err := ds.Papers(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	// Dgraph keeps lists as sets: aliases come back sorted.
	sorted := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	scores := cmpopts.EquateApprox(0, 1e-9)
	kinds := [][]graph.Kind{{graph.Dataset}, {graph.Task, graph.Technique}}
	for i, id := range ids {
		if dps[i] == nil {
			t.Errorf("paper %s missing in Dgraph", id)
			continue
		}
		if d := cmp.Diff(bps[i].Entities, dps[i].Entities, sorted); d != "" {
			t.Errorf("paper %s: entities differ (-badger +dgraph):\n%s", id, d)
		}
		for _, ks := range kinds {
			q := graph.SharingQuery{Kinds: ks, Limit: graph.MaxLimit}
			bm, err := bs.Sharing(ctx, id, q)
			if err != nil {
				t.Fatal(err)
			}
			dm, err := ds.Sharing(ctx, id, q)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(matchIDs(bm), matchIDs(dm), scores); d != "" {
				t.Errorf("papersSharing(%s, %v) differs (-badger +dgraph):\n%s", id, ks, d)
			}
		}
	}

	files, _ := filepath.Glob("seeds/*.txt")
	out, _, err := runCmd(t, append([]string{"ingest", "--dgraph", c.Addr}, files...)...)
	if err != nil {
		t.Fatal(err)
	}
	// A paper whose Badger record differs from a fresh extraction's (the
	// Badger store merges what two sources say of one paper) is rewritten
	// ("updated"); none is new, and the graph stays the same.
	if !strings.Contains(out, " 0 added") {
		t.Errorf("ingest of the seeds after the bulk load added papers:\n%s", out)
	}
	if dstats, err = ds.Stats(ctx); err != nil || !cmp.Equal(bstats, dstats) {
		t.Errorf("stats after ingest = %+v, %v; want %+v", dstats, err, bstats)
	}
}

// matchOf is what TestExportRDFBulk compares of a match.
type matchOf struct {
	Paper  string
	Shared []string
	Score  float64
}

func matchIDs(ms []graph.Match) []matchOf {
	out := make([]matchOf, len(ms))
	for i, m := range ms {
		out[i] = matchOf{Paper: m.Paper.ID, Score: m.Score}
		for _, e := range m.Shared {
			out[i].Shared = append(out[i].Shared, e.ID())
		}
	}
	return out
}
