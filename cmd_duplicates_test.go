package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// duplicatePairs runs duplicates --json on db and returns its pairs as
// "reason a b".
func duplicatePairs(t *testing.T, db string, args ...string) []string {
	t.Helper()
	out, _, err := runCmd(t, append([]string{"duplicates", "--db", db, "--json"}, args...)...)
	if err != nil {
		t.Fatalf("duplicates: %v", err)
	}
	var ds []duplicateJSON
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("duplicates --json printed %q: %v", out, err)
	}
	var pairs []string
	for _, d := range ds {
		pairs = append(pairs, d.Reason+" "+d.A.ID+" "+d.B.ID)
	}
	return pairs
}

// TestCurationCorpus curates the corpus graph as a user would: the known
// duplicates are listed, merged and aliased, a paper deleted, the
// database stays consistent, and an ingest of the corpus again keeps
// every correction (nothing changes).
func TestCurationCorpus(t *testing.T) {
	corpus := filepath.Join("..", "shared", "corpus", "papers.jsonl")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("no shared corpus: %v", err)
	}
	if testing.Short() {
		t.Skip("ingests 4,275 papers twice")
	}
	db := filepath.Join(t.TempDir(), "db")
	if _, _, err := runCmd(t, "ingest", "--db", db, corpus); err != nil {
		t.Fatalf("ingest corpus: %v", err)
	}
	known := []string{
		"across-kinds task:watermarking technique:watermarking",
		"across-kinds task:parameter-efficient-fine-tuning technique:parameter-efficient-fine-tuning",
		"acronym technique:multi-modal-diffusion-transformer technique:mmdit",
		"spelling task:sequence-modelling task:sequence-modeling",
		"spelling technique:llama3-8b technique:llama-3-8b",
		"alias technique:kernel-method technique:kernel-methods",
	}
	pairs := duplicatePairs(t, db)
	for _, want := range known {
		if !slices.Contains(pairs, want) {
			t.Errorf("duplicates lacks %q", want)
		}
	}
	for _, p := range duplicatePairs(t, db, "--kind", "dataset") {
		if !strings.Contains(p, "dataset:") {
			t.Errorf("duplicates --kind dataset lists %q", p)
		}
	}

	for _, args := range [][]string{
		{"merge", "--db", db, "task:watermarking", "technique:watermarking"},
		{"merge", "--db", db, "technique:multi-modal diffusion transformer", "technique:MMDiT"},
		{"merge", "--db", db, "task:sequence-modelling", "task:sequence-modeling"},
		{"alias", "--db", db, "technique:llama-3-8b", "Llama3-8B", "LLaMA 3 8B"},
	} {
		out, _, err := runCmd(t, args...)
		if err != nil {
			t.Fatalf("%s: %v", strings.Join(args, " "), err)
		}
		t.Logf("%s: %s", args[0], out)
	}
	s, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := s.PapersOf(context.Background(), graph.PageOf{Entity: "technique:watermarking", First: 1})
	s.Close()
	if err != nil || len(page.Papers) != 1 {
		t.Fatalf("papers of technique:watermarking: %v, %v", page.Papers, err)
	}
	victim := page.Papers[0].ID
	out, _, err := runCmd(t, "delete", "--db", db, victim)
	if err != nil || !strings.Contains(out, "deleted 1 papers; database: 4274 papers") {
		t.Errorf("delete = %q, %v; want 1 deleted, 4274 left", out, err)
	}
	if out, _, err := runCmd(t, "check", "--db", db); err != nil {
		t.Fatalf("check after curation = %q, %v; want ok", out, err)
	}
	pairs = duplicatePairs(t, db)
	for _, gone := range []string{known[0], known[2], known[3], known[4]} {
		if slices.Contains(pairs, gone) {
			t.Errorf("duplicates after curation still lists %q", gone)
		}
	}

	// The corpus again: the deleted paper comes back; every other paper is
	// unchanged, its entities corrected as they are stored.
	out, _, err = runCmd(t, "ingest", "--db", db, corpus)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1 added, 0 updated, 4274 unchanged") {
		t.Errorf("ingest after curation = %q; want 1 added, 0 updated, 4274 unchanged", out)
	}
	if out, _, err := runCmd(t, "check", "--db", db); err != nil {
		t.Errorf("check after the second ingest = %q, %v; want ok", out, err)
	}
	s, err = store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, id := range []string{"task:watermarking", "technique:multi-modal-diffusion-transformer", "task:sequence-modelling", "technique:llama3-8b"} {
		if _, err := s.Entity(ctx, id); err == nil {
			t.Errorf("Entity(%s) exists after the second ingest; want it corrected away", id)
		}
	}
	p, err := s.Paper(ctx, victim)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range p.Entities {
		if e.ID() == "task:watermarking" {
			t.Errorf("the paper ingested again links %s", e.ID())
		}
	}

	// Search stems: the pairs find the same papers.
	for _, q := range [][2]string{{"agent", "agents"}, {"benchmark", "benchmarks"}} {
		a, errA := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Text: q[0]}, First: 100})
		b, errB := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Text: q[1]}, First: 100})
		if errA != nil || errB != nil || a.Total != b.Total || a.Total == 0 {
			t.Errorf("text %q matches %d papers, %q %d (%v, %v); want the same, not 0", q[0], a.Total, q[1], b.Total, errA, errB)
		}
	}
}

func TestCurationUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	for _, args := range [][]string{
		{"delete", "--db", db},
		{"merge", "--db", db, "task:a"},
		{"alias", "--db", db, "task:a"},
		{"duplicates", "--db", db, "extra"},
		{"duplicates", "--db", db, "--kind", "planet"},
	} {
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("%q: error %v; want a usage error", args, err)
		}
	}
}
