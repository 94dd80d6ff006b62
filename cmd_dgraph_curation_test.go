package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/dgraph/dgraphtest"
	"github.com/papergraph/papergraph/graph/store"
)

// curated is what TestDgraphCuration compares of a store.
type curated interface {
	sharer
	Stats(ctx context.Context) (graph.Stats, error)
	Papers(ctx context.Context, ids []string) ([]*graph.Paper, error)
	ListEntities(ctx context.Context, q graph.EntityQuery) (graph.EntityPage, error)
	Duplicates(ctx context.Context, q graph.DuplicateQuery) ([]graph.Duplicate, error)
	DeletePapers(ctx context.Context, ids []string) (int, error)
	MergeEntities(ctx context.Context, from, into string) (graph.Entity, error)
	AddAlias(ctx context.Context, ref, alias string) (graph.Entity, error)
}

// allEntities returns every entity of st, by id, through ListEntities'
// pages.
func allEntities(t *testing.T, st curated) []graph.Entity {
	t.Helper()
	var out []graph.Entity
	after := ""
	for {
		p, err := st.ListEntities(context.Background(), graph.EntityQuery{Order: graph.ByName, First: graph.MaxLimit, After: after})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Entities...)
		if !p.HasNext {
			return out
		}
		after = p.EndCursor
	}
}

// compareCurated checks that the Badger store bs and the Dgraph store ds
// hold the same graph: stats, every paper's entities, every entity, the
// duplicates and papersSharing.
func compareCurated(t *testing.T, step string, bs, ds curated, ids []string) {
	t.Helper()
	ctx := context.Background()
	sorted := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	bst, err := bs.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := ds.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(bst, dst); d != "" {
		t.Errorf("%s: stats differ (-badger +dgraph):\n%s", step, d)
	}
	bps, err := bs.Papers(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	dps, err := ds.Papers(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		if (bps[i] == nil) != (dps[i] == nil) {
			t.Errorf("%s: paper %s: in badger %v, in dgraph %v", step, id, bps[i] != nil, dps[i] != nil)
			continue
		}
		if bps[i] != nil {
			if d := cmp.Diff(bps[i].Entities, dps[i].Entities, sorted); d != "" {
				t.Errorf("%s: paper %s: entities differ (-badger +dgraph):\n%s", step, id, d)
			}
		}
	}
	if d := cmp.Diff(allEntities(t, bs), allEntities(t, ds), sorted, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("%s: entities differ (-badger +dgraph):\n%s", step, d)
	}
	bd, err := bs.Duplicates(ctx, graph.DuplicateQuery{})
	if err != nil {
		t.Fatal(err)
	}
	dd, err := ds.Duplicates(ctx, graph.DuplicateQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(bd, dd, sorted, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("%s: duplicates differ (-badger +dgraph):\n%s", step, d)
	}
	var live []string
	for i, id := range ids {
		if bps[i] != nil {
			live = append(live, id)
		}
	}
	compareSharing(t, bs, ds, live, []graph.SharingQuery{{Limit: graph.MaxLimit}, {Kinds: []graph.Kind{graph.Technique}, Family: true, Limit: graph.MaxLimit}})
}

// TestDgraphCuration curates the seed graph alike in Badger and in Dgraph
// (a merge of a duplicate pair, a merge of an entity with a parent and
// children, an alias that merges an entity and one that does not, a
// delete of papers) and checks that both give the same answers after
// each step and after the seeds are ingested again, which must keep the
// corrections.
func TestDgraphCuration(t *testing.T) {
	ctx := context.Background()
	bs, ds, c, ids, dir := seedStores(t)
	compareCurated(t, "bulk load", bs, ds, ids)

	dups, err := bs.Duplicates(ctx, graph.DuplicateQuery{})
	if err != nil || len(dups) == 0 {
		t.Fatalf("Duplicates = %d, %v; want some on the seeds", len(dups), err)
	}
	// An entity with a parent and children, merged into another of its
	// kind outside its family.
	var eids []string
	for _, e := range allEntities(t, bs) {
		eids = append(eids, e.ID())
	}
	full, err := bs.Entities(ctx, eids)
	if err != nil {
		t.Fatal(err)
	}
	var es []graph.Entity
	for _, e := range full {
		es = append(es, *e)
	}
	var mid, other graph.Entity
	for _, e := range es {
		if mid.Name == "" && len(e.Broader) > 0 && len(e.Narrower) > 0 {
			mid = e
		}
	}
	for _, e := range es {
		if mid.Name != "" && e.Kind == mid.Kind && len(e.Broader) == 0 && len(e.Narrower) == 0 && e.ID() != mid.ID() {
			other = e
			break
		}
	}
	if mid.Name == "" || other.Name == "" {
		t.Fatalf("no entity with a parent and children on the seeds")
	}
	// An alias naming another entity of the kind merges it.
	var victim graph.Entity
	for _, e := range es {
		if e.Kind == other.Kind && e.ID() != other.ID() && e.ID() != mid.ID() && len(e.Narrower) == 0 && e.PaperCount > 0 {
			victim = e
		}
	}
	steps := []struct {
		name string
		do   func(st curated) error
	}{
		{"merge " + mid.ID() + " into " + other.ID(), func(st curated) error {
			_, err := st.MergeEntities(ctx, mid.ID(), other.ID())
			return err
		}},
		{"alias merging " + victim.ID(), func(st curated) error {
			_, err := st.AddAlias(ctx, other.ID(), victim.Name)
			return err
		}},
		{"new alias", func(st curated) error {
			_, err := st.AddAlias(ctx, other.ID(), "h15 curated alias")
			return err
		}},
		{"delete two papers", func(st curated) error {
			_, err := st.DeletePapers(ctx, ids[:2])
			return err
		}},
	}
	// The first duplicate pair the Badger store merges by ids is merged in
	// both. (Badger refuses a pair whose A id is, in its exact
	// normalised form, an alias of B: it resolves names before slugs,
	// Dgraph's Lookup slugs first; see the README's "what differs".)
	for _, d := range dups {
		if _, err := bs.MergeEntities(ctx, d.A.ID(), d.B.ID()); err != nil {
			continue
		}
		if _, err := ds.MergeEntities(ctx, d.A.ID(), d.B.ID()); err != nil {
			t.Fatalf("merge %s into %s on dgraph: %v", d.A.ID(), d.B.ID(), err)
		}
		compareCurated(t, "merge duplicate "+d.A.ID()+" into "+d.B.ID(), bs, ds, ids)
		break
	}
	for _, s := range steps {
		if err := s.do(bs); err != nil {
			t.Fatalf("%s on badger: %v", s.name, err)
		}
		if err := s.do(ds); err != nil {
			t.Fatalf("%s on dgraph: %v", s.name, err)
		}
		compareCurated(t, s.name, bs, ds, ids)
	}

	// Ingest the seeds again into both: the deleted papers come back, the
	// merged entities stay merged.
	files, _ := filepath.Glob("seeds/*.txt")
	if _, _, err := runCmd(t, append([]string{"ingest", "--dgraph", c.Addr}, files...)...); err != nil {
		t.Fatal(err)
	}
	bs.Close()
	if _, _, err := runCmd(t, append([]string{"ingest", "--db", dir}, files...)...); err != nil {
		t.Fatal(err)
	}
	bs2, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	compareCurated(t, "ingest again", bs2, ds, ids)
	for _, e := range allEntities(t, ds) {
		if slices.Contains([]string{mid.ID(), victim.ID()}, e.ID()) {
			t.Errorf("ingest again: merged entity %s is back in dgraph", e.ID())
		}
	}
	bs2.Close()

	// The curated database moved by export --format rdf and dgraph bulk
	// carries its corrections: ingesting the seeds into the new cluster
	// keeps the merges.
	c2 := dgraphtest.Zero(t)
	rdf := filepath.Join(t.TempDir(), "curated.rdf.gz")
	if _, _, err := runCmd(t, "export", "--db", dir, "--format", "rdf", "-o", rdf); err != nil {
		t.Fatal(err)
	}
	c2.Bulk(rdf, filepath.Join(filepath.Dir(rdf), "curated.schema"))
	c2.Alpha("bulk")
	if _, _, err := runCmd(t, append([]string{"ingest", "--dgraph", c2.Addr}, files...)...); err != nil {
		t.Fatal(err)
	}
	ds2, err := dgraph.Open(ctx, c2.Addr, dgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ds2.Close()
	bs3, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bs3.Close()
	compareCurated(t, "bulk load of the curated graph, ingest again", bs3, ds2, ids)
}
