package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// dumpGraph describes what a store holds, as a reader sees it: each paper
// with its entities and mentions, each entity with papers or a place in
// the taxonomy with its count, aliases and neighbours, and the counters.
// Two stores with the same dump answer every query the same way but for
// postings block numbers.
func dumpGraph(tb testing.TB, s *Store) string {
	tb.Helper()
	ctx := context.Background()
	var b strings.Builder
	err := s.Walk(ctx, func(p graph.Paper) error {
		fmt.Fprintf(&b, "paper %s %q:", p.ID, p.Label)
		for _, e := range p.Entities {
			fmt.Fprintf(&b, " %s", e.ID())
		}
		for _, m := range p.Mentions {
			fmt.Fprintf(&b, " [%s %s %q]", m.Kind, m.Entity, m.Text)
		}
		b.WriteString("\n")
		return nil
	}, func(e graph.Entity) error {
		full, err := s.Entity(ctx, e.ID())
		if err != nil {
			return err
		}
		if full.PaperCount == 0 && len(full.Broader) == 0 && len(full.Narrower) == 0 {
			return nil
		}
		fmt.Fprintf(&b, "entity %s %d aliases=%q broader=%q narrower=%q\n", e.ID(), full.PaperCount,
			slices.Sorted(slices.Values(full.Aliases)), slices.Sorted(slices.Values(full.Broader)), slices.Sorted(slices.Values(full.Narrower)))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(&b, "papers %d edges %d\n", st.Papers, st.Edges)
	return b.String()
}

// searchDump is what some searches find in s.
func searchDump(tb testing.TB, s *Store, queries ...string) string {
	tb.Helper()
	var b strings.Builder
	for _, q := range queries {
		hs, err := s.Search(context.Background(), q, 0)
		if err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&b, "%s: %v\n", q, hitIDs(hs))
	}
	return b.String()
}

// curationPapers: a small graph with a spelling variant ("watermark" as
// a task beside the technique "watermarking"), an acronym and a taxonomy.
func curationPapers() []graph.Paper {
	wmTask := graph.Entity{Kind: graph.Task, Name: "watermarking"}
	wmTech := graph.Entity{Kind: graph.Technique, Name: "watermarking", Aliases: []string{"digital watermarking"}}
	peft := graph.Entity{Kind: graph.Technique, Name: "PEFT"}
	long := graph.Entity{Kind: graph.Technique, Name: "parameter-efficient fine-tuning", Broader: []string{"fine-tuning"}}
	lora := graph.Entity{Kind: graph.Technique, Name: "LoRA", Broader: []string{"PEFT"}}
	with := func(p graph.Paper, ms ...graph.Mention) graph.Paper {
		for _, m := range ms {
			m.Start = strings.Index(p.Abstract, m.Text)
			m.End = m.Start + len(m.Text)
			p.Mentions = append(p.Mentions, m)
		}
		return p
	}
	ps := []graph.Paper{
		with(fxPaper(1, "Watermarking agents with PEFT.", wmTask, peft),
			graph.Mention{Kind: graph.Task, Entity: "watermarking", Text: "Watermarking"},
			graph.Mention{Kind: graph.Technique, Entity: "PEFT", Text: "PEFT"}),
		fxPaper(2, "Watermarking benchmarks by parameter-efficient fine-tuning.", wmTech, long),
		fxPaper(3, "LoRA for watermarking.", lora, wmTech, wmTask),
		fxPaper(4, "Unrelated horses.", graph.Entity{Kind: graph.Dataset, Name: "Horses"}),
		fxPaper(5, "PEFT of agents.", peft),
	}
	for i := range ps {
		ps[i].Source = "curation.jsonl"
		ps[i].Index = i + 1
	}
	return ps
}

func TestDeletePapers(t *testing.T) {
	ctx := context.Background()
	all := curationPapers()
	s := openFixture(t, all)
	// A paper read from a second source too has two source keys.
	again := all[2]
	again.Source, again.Index = "other.jsonl", 7
	put(t, s, again)
	gen := s.Generation()
	n, err := s.DeletePapers(ctx, []string{fxID(3), fxID(1), fxID(3)})
	if err != nil || n != 2 {
		t.Fatalf("DeletePapers = %d, %v; want 2, nil", n, err)
	}
	if s.Generation() == gen {
		t.Error("Generation unchanged by DeletePapers")
	}
	mustCheck(t, s)
	want := openFixture(t, []graph.Paper{all[1], all[3], all[4]})
	if got, w := dumpGraph(t, s), dumpGraph(t, want); got != w {
		t.Errorf("after deleting papers 1 and 3:\n%s\nwant, as if never ingested:\n%s", got, w)
	}
	queries := []string{"watermarking", "agents", "LoRA", "PEFT", "horses"}
	if got, w := searchDump(t, s, queries...), searchDump(t, want, queries...); got != w {
		t.Errorf("searches after delete:\n%s\nwant:\n%s", got, w)
	}
	if _, err := s.Paper(ctx, fxID(1)); !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("Paper(deleted) error = %v; want ErrNotFound", err)
	}
	page, err := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Source: "other.jsonl"}})
	if err != nil || len(page.Papers) != 0 {
		t.Errorf("ListPapers(source other.jsonl) = %v, %v; want none", idsOf(page.Papers), err)
	}

	// Errors delete nothing.
	for _, ids := range [][]string{{fxID(2), fxID(99)}, {fxID(2), "nope"}} {
		if _, err := s.DeletePapers(ctx, ids); err == nil {
			t.Errorf("DeletePapers(%q) succeeded; want an error", ids)
		}
	}
	if st, _ := s.Stats(ctx); st.Papers != 3 {
		t.Errorf("papers after failed deletes = %d; want 3", st.Papers)
	}
	// A deleted paper can be ingested again.
	put(t, s, all[0])
	mustCheck(t, s)
}

// TestMergeEntities merges across kinds and within a kind (an acronym with
// children in the taxonomy), then checks the database against one
// ingested with the merged entities from the start, and that a later
// ingest keeps the merge.
func TestMergeEntities(t *testing.T) {
	ctx := context.Background()
	all := curationPapers()
	s := openFixture(t, all)

	got, err := s.MergeEntities(ctx, "task:watermarking", "technique:watermarking")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != "technique:watermarking" || got.PaperCount != 3 {
		t.Errorf("MergeEntities(task into technique) = %s with %d papers; want technique:watermarking with 3", got.ID(), got.PaperCount)
	}
	mustCheck(t, s)
	// By name or alias, as the command line gives them.
	got, err = s.MergeEntities(ctx, "technique:PEFT", "technique:parameter-efficient fine-tuning")
	if err != nil {
		t.Fatal(err)
	}
	if got.PaperCount != 3 || !slices.Contains(got.Aliases, "PEFT") || !slices.Equal(got.Narrower, []string{"LoRA"}) {
		t.Errorf("merged PEFT: %+v; want 3 papers, alias PEFT, narrower LoRA", got)
	}
	mustCheck(t, s)
	if _, err := s.Entity(ctx, "technique:peft"); !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("Entity(merged) error = %v; want ErrNotFound", err)
	}
	if e, err := s.Lookup(ctx, graph.Technique, "peft"); err != nil || e.ID() != "technique:parameter-efficient-fine-tuning" {
		t.Errorf("Lookup(PEFT) = %s, %v; want the long form", e.ID(), err)
	}

	// The same as ingesting the corrected papers.
	fixed := curationPapers()
	wm := graph.Entity{Kind: graph.Technique, Name: "watermarking", Aliases: []string{"digital watermarking"}}
	long := graph.Entity{Kind: graph.Technique, Name: "parameter-efficient fine-tuning", Aliases: []string{"PEFT"}}
	fixed[0].Entities = []graph.Entity{wm, long}
	fixed[0].Mentions[0].Kind = graph.Technique
	fixed[0].Mentions[1].Entity = long.Name
	fixed[2].Entities = []graph.Entity{{Kind: graph.Technique, Name: "LoRA", Broader: []string{long.Name}}, wm}
	fixed[4].Entities = []graph.Entity{long}
	want := openFixture(t, fixed)
	if g, w := dumpGraph(t, s), dumpGraph(t, want); g != w {
		t.Errorf("after merges:\n%s\nwant:\n%s", g, w)
	}

	// Ingesting the same papers again changes nothing; a new paper naming
	// the merged entities links to their targets.
	if r := put(t, s, curationPapers()...); r.Unchanged != len(all) {
		t.Errorf("PutPapers(same papers) after merge = %+v; want all unchanged", r)
	}
	p := fxPaper(7, "Watermarking with PEFT.", graph.Entity{Kind: graph.Task, Name: "Watermarking"}, graph.Entity{Kind: graph.Technique, Name: "PEFT", Broader: []string{"PEFT"}})
	put(t, s, p)
	mustCheck(t, s)
	stored, err := s.Paper(ctx, fxID(7))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range stored.Entities {
		ids = append(ids, e.ID())
	}
	if w := []string{"technique:parameter-efficient-fine-tuning", "technique:watermarking"}; !slices.Equal(ids, w) {
		t.Errorf("entities of a paper ingested after the merge = %v; want %v", ids, w)
	}
	for _, id := range []string{"task:watermarking", "technique:peft"} {
		if _, err := s.Entity(ctx, id); !errors.Is(err, graph.ErrNotFound) {
			t.Errorf("Entity(%s) after a later ingest: %v; want ErrNotFound", id, err)
		}
	}

	// A chain: merging the target on moves the earlier corrections along.
	if _, err := s.MergeEntities(ctx, "technique:parameter-efficient-fine-tuning", "technique:lora"); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	put(t, s, fxPaper(8, "More PEFT.", graph.Entity{Kind: graph.Technique, Name: "PEFT"}))
	if e, _ := s.Paper(ctx, fxID(8)); len(e.Entities) != 1 || e.Entities[0].ID() != "technique:lora" {
		t.Errorf("entities of paper 8 = %v; want technique:lora", e.Entities)
	}
	mustCheck(t, s)

	for _, tt := range []struct {
		from, into string
		want       error
	}{
		{"technique:lora", "technique:LoRA", graph.ErrBadArgument},
		// PEFT is an alias of LoRA now: the same entity.
		{"technique:PEFT", "technique:lora", graph.ErrBadArgument},
		{"technique:nothing", "technique:lora", graph.ErrNotFound},
		{"technique:lora", "dataset:nothing", graph.ErrNotFound},
		{"nokind", "technique:lora", graph.ErrBadID},
	} {
		if _, err := s.MergeEntities(ctx, tt.from, tt.into); !errors.Is(err, tt.want) {
			t.Errorf("MergeEntities(%q, %q) error = %v; want %v", tt.from, tt.into, err, tt.want)
		}
	}
	mustCheck(t, s)
}

func TestAddAlias(t *testing.T) {
	ctx := context.Background()
	s := openFixture(t, curationPapers())
	e, err := s.AddAlias(ctx, "technique:parameter-efficient-fine-tuning", "adapter tuning")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(e.Aliases, "adapter tuning") {
		t.Errorf("AddAlias: aliases %q; want adapter tuning among them", e.Aliases)
	}
	mustCheck(t, s)
	for _, q := range []string{"Adapter Tuning", "adapter-tuning"} {
		if got, err := s.Lookup(ctx, graph.Technique, q); err != nil || got.ID() != e.ID() {
			t.Errorf("Lookup(%q) = %s, %v; want %s", q, got.ID(), err, e.ID())
		}
	}
	// A later paper naming the alias links to the entity.
	put(t, s, fxPaper(9, "Adapter tuning.", graph.Entity{Kind: graph.Technique, Name: "adapter tuning"}))
	if p, _ := s.Paper(ctx, fxID(9)); len(p.Entities) != 1 || p.Entities[0].ID() != e.ID() {
		t.Errorf("entities of a paper naming the alias = %v; want %s", p.Entities, e.ID())
	}
	mustCheck(t, s)

	// An alias that is an entity's name merges that entity.
	e, err = s.AddAlias(ctx, "technique:parameter-efficient-fine-tuning", "PEFT")
	if err != nil {
		t.Fatal(err)
	}
	if e.PaperCount != 4 {
		t.Errorf("PaperCount after aliasing PEFT = %d; want 4 (2, 9 and PEFT's 1, 5)", e.PaperCount)
	}
	if _, err := s.Entity(ctx, "technique:peft"); !errors.Is(err, graph.ErrNotFound) {
		t.Errorf("Entity(technique:peft) after aliasing = %v; want ErrNotFound", err)
	}
	mustCheck(t, s)

	for _, tt := range []struct{ ref, alias string }{
		{"technique:lora", "PEFT"},                 // resolves to the long form now
		{"technique:lora", "digital watermarking"}, // an alias of another technique
		{"technique:lora", "--"},
	} {
		if _, err := s.AddAlias(ctx, tt.ref, tt.alias); !errors.Is(err, graph.ErrBadArgument) {
			t.Errorf("AddAlias(%q, %q) error = %v; want ErrBadArgument", tt.ref, tt.alias, err)
		}
	}
	mustCheck(t, s)
}

// TestCurationTxnTooBig deletes more papers than one transaction holds:
// the curation fails saying so and changes nothing.
func TestCurationTxnTooBig(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{memTableSize: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	papers := corpus.Papers(10, 600, 60)
	put(t, s, papers...)
	before := dumpGraph(t, s)
	_, err = s.DeletePapers(ctx, idsOf(papers))
	if !errors.Is(err, badger.ErrTxnTooBig) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("DeletePapers(600 papers, 2 MiB memtable) error = %v; want ErrTxnTooBig saying nothing changed", err)
	}
	if after := dumpGraph(t, s); after != before {
		t.Error("a failed DeletePapers changed the database")
	}
	mustCheck(t, s)
	// Fewer at a time fit.
	if n, err := s.DeletePapers(ctx, idsOf(papers[:20])); err != nil || n != 20 {
		t.Errorf("DeletePapers(20) = %d, %v; want 20", n, err)
	}
	mustCheck(t, s)
}
