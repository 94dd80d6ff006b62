package store

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// The traversal fixture: a small graph whose answers follow from its
// construction.
//
//	paper | datasets             | other entities                 | abstract
//	------+----------------------+--------------------------------+---------------------------
//	 1    | Rare, Hub            | technique LoRA, task QA        |
//	 2    | Rare                 |                                |
//	 3    | Hub                  |                                |
//	 4    | Rare, Hub            |                                |
//	 5-14 | Hub                  | 6: technique LoRA              |
//	20    | OSWorld-G            |                                |
//	21    | OSWorld-Verified     |                                |
//	22    | OSWorld              |                                |
//	23    | OSWorld-G            |                                |
//	30    | (none)               |                                |
//	40    |                      |                                | zebra x3, rare word
//	41    |                      |                                | zebra once, longer
//	42    |                      |                                | no zebra
//
// Degrees: Hub 13 (1, 3, 4, 5-14), Rare 3, OSWorld-G 2, OSWorld-Verified 1,
// OSWorld 1; the OSWorld family (itself, -G, -Verified) has 4 papers.
// OSWorld-G and OSWorld-Verified have broader OSWorld.
func fixturePapers() []graph.Paper {
	ds := func(name string, broader ...string) graph.Entity {
		return graph.Entity{Kind: graph.Dataset, Name: name, Broader: broader}
	}
	lora := graph.Entity{Kind: graph.Technique, Name: "LoRA", Aliases: []string{"low-rank adaptation"}}
	qa := graph.Entity{Kind: graph.Task, Name: "question answering"}
	rare, hub := ds("Rare"), ds("Hub")
	osw := ds("OSWorld")
	owg, owv := ds("OSWorld-G", "OSWorld"), ds("OSWorld-Verified", "OSWorld")
	ps := []graph.Paper{
		fxPaper(1, "", rare, hub, lora, qa),
		fxPaper(2, "", rare),
		fxPaper(3, "", hub),
		fxPaper(4, "", rare, hub),
		fxPaper(20, "", owg),
		fxPaper(21, "", owv),
		fxPaper(22, "", osw),
		fxPaper(23, "", owg),
		fxPaper(30, ""),
		fxPaper(40, "The zebra zebra zebra quagga."),
		fxPaper(41, "A zebra appears among many other animals in this long list of words about savanna wildlife."),
		fxPaper(42, "Horses only, and more horses."),
	}
	for n := 5; n <= 14; n++ {
		es := []graph.Entity{hub}
		if n == 6 {
			es = append(es, lora)
		}
		ps = append(ps, fxPaper(n, "", es...))
	}
	for i := range ps {
		ps[i].Source = "fixture.jsonl"
		ps[i].Index = i + 1
	}
	return ps
}

// fxID is the id of fixture paper n: ordered as n is.
func fxID(n int) string { return fmt.Sprintf("%016x", n) }

func fxPaper(n int, abstract string, es ...graph.Entity) graph.Paper {
	if abstract == "" {
		abstract = fmt.Sprintf("Fixture abstract number %d.", n)
	}
	return graph.Paper{ID: fxID(n), Label: fmt.Sprintf("fixture %d", n), Abstract: abstract, Entities: es}
}

// openFixture opens a store in a temporary directory holding papers.
func openFixture(tb testing.TB, papers []graph.Paper) *Store {
	tb.Helper()
	s, err := Open(tb.TempDir(), Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if _, err := s.PutPapers(context.Background(), papers); err != nil {
		tb.Fatal(err)
	}
	return s
}

// fxIDs returns paper ids of fixture numbers.
func fxIDs(ns ...int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = fxID(n)
	}
	return out
}

var (
	fixtureOnce sync.Once
	fixtureList []graph.Paper
)

// fixture returns the traversal fixture's papers, built once.
func fixture() []graph.Paper {
	fixtureOnce.Do(func() { fixtureList = fixturePapers() })
	return fixtureList
}

func matchIDs(ms []graph.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Paper.ID)
	}
	return out
}

func idsOf(ps []graph.Paper) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}
