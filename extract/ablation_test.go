package extract

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// The ablation switches each stage of extraction off in turn and scores
// what is left, so the README's ablation table says what each stage adds
// (run with -v to print it) and what it costs (BenchmarkExtractStages).

var stages = []struct {
	name string
	off  stage
}{
	{"all stages", 0},
	{"- title", stageTitle},
	{"- negation", stageNegation},
	{"- roles", stageRoles},
	{"- task phrases", stageTaskPhrases},
	{"- title methods", stageTitleMethods},
	{"- family names", stageCompose},
	{"- a task for every paper", stageEnsureTask},
	{"- named systems", stageSystems},
	{"- modality evidence", stageModalityEvidence},
	{"- components", stageComponents},
}

// methodsFile is the embedded vocabulary file the ablation also leaves
// out, to measure the cross-field method vocabulary.
const methodsFile = "methods.tsv"

func ablated(tb testing.TB, off stage, withoutFile string) *Extractor {
	tb.Helper()
	x, err := New(Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if withoutFile != "" {
		v, err := loadVocabSkipping(withoutFile, nil)
		if err != nil {
			tb.Fatal(err)
		}
		x.v = v
	}
	x.off = off
	return x
}

// TestAblation requires every stage to earn its place: with it off,
// corpus-dev's overall F1 is no higher. The seeds, which the vocabulary
// was first written from, are held by TestSeedScores instead: a stage
// may cost them a little where it generalises.
func TestAblation(t *testing.T) {
	if _, err := os.Stat(corpusDevGold); err != nil {
		t.Skipf("the ablation scores corpus-dev, which needs %s (%v)", corpusDevGold, err)
	}
	type row struct {
		name       string
		seeds, dev report
	}
	var rows []row
	for _, st := range stages {
		x := ablated(t, st.off, "")
		rows = append(rows, row{st.name, seedScores(t, x), corpusDevScores(t, x)})
	}
	x := ablated(t, 0, methodsFile)
	rows = append(rows, row{"- method vocabulary", seedScores(t, x), corpusDevScores(t, x)})

	var b strings.Builder
	fmt.Fprintln(&b, "| stages | seeds F1 | dev F1 (P / R) | task | modality | dataset | technique | names |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		_, _, sf := r.seeds.all().f1()
		p, rc, f := r.dev.all().f1()
		fmt.Fprintf(&b, "| %s | %.3f | %.3f (%.3f / %.3f) |", r.name, sf, f, p, rc)
		for _, k := range graph.Kinds {
			_, _, kf := r.dev.kinds[k].f1()
			fmt.Fprintf(&b, " %.3f |", kf)
		}
		fmt.Fprintf(&b, " %.3f |\n", r.dev.nameAccuracy())
	}
	t.Log("\n" + b.String())
	_, _, devAll := rows[0].dev.all().f1()
	for _, r := range rows[1:] {
		if _, _, df := r.dev.all().f1(); df > devAll+1e-9 {
			t.Errorf("%s: corpus-dev F1 %.3f > %.3f with it: the stage costs more than it adds", r.name, df, devAll)
		}
	}
}

// BenchmarkExtractStages measures extraction with each stage off, on the
// seeds (as BenchmarkExtract) and, where ../shared is present, on the
// first 1,000 corpus papers, which have titles.
func BenchmarkExtractStages(b *testing.B) {
	sets := map[string][]Document{"seeds": seedDocuments(b)}
	if docs := corpusDocuments(b, 1000); docs != nil {
		sets["corpus"] = docs
	}
	for _, set := range []string{"seeds", "corpus"} {
		docs, ok := sets[set]
		if !ok {
			continue
		}
		var size int64
		for _, d := range docs {
			size += int64(len(d.Abstract) + len(d.Title))
		}
		for _, st := range stages {
			x := ablated(b, st.off, "")
			b.Run(set+"/"+strings.TrimPrefix(strings.ReplaceAll(st.name, " ", "_"), "-_"), func(b *testing.B) {
				b.SetBytes(size)
				for b.Loop() {
					for _, d := range docs {
						x.Extract(b.Context(), d)
					}
				}
			})
		}
	}
}
