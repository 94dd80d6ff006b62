package extract

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/papergraph/papergraph/graph"
)

// The gold files in testdata/gold are copies of ../shared/eval/gold, and
// scoreNorm and scoreKind follow ../shared/eval/score.py, so this test
// reports the numbers the project is judged by.

type goldFile struct {
	Source string      `json:"source"`
	Papers []goldPaper `json:"papers"`
}

type goldPaper struct {
	Index     int        `json:"index"`
	Name      []string   `json:"name"`
	Task      goldLabels `json:"task"`
	Modality  goldLabels `json:"modality"`
	Dataset   goldLabels `json:"dataset"`
	Technique goldLabels `json:"technique"`
}

type goldLabels struct {
	Must [][]string `json:"must"`
	OK   [][]string `json:"ok"`
}

func (g goldPaper) labels(k graph.Kind) goldLabels {
	switch k {
	case graph.Task:
		return g.Task
	case graph.Modality:
		return g.Modality
	case graph.Dataset:
		return g.Dataset
	}
	return g.Technique
}

var (
	greek      = strings.NewReplacer("π", "pi", "α", "alpha", "β", "beta", "γ", "gamma", "δ", "delta", "λ", "lambda", "μ", "mu", "σ", "sigma", "τ", "tau", "ε", "epsilon", "θ", "theta", "φ", "phi", "ω", "omega")
	latexCmd   = regexp.MustCompile(`\\[a-zA-Z]+`)
	nonAlnumRE = regexp.MustCompile(`[^a-z0-9]+`)
)

// scoreNorm is score.py's norm: lower case, markup and punctuation gone,
// hyphens as spaces, a final plural s dropped.
func scoreNorm(s string) string {
	s = norm.NFKC.String(s)
	s = greek.Replace(s)
	s = latexCmd.ReplaceAllString(s, " ")
	s = strings.ToLower(strings.ReplaceAll(s, "**", ""))
	s = strings.TrimSpace(nonAlnumRE.ReplaceAllString(s, " "))
	words := strings.Fields(s)
	if n := len(words); n > 0 {
		w := words[n-1]
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			words[n-1] = w[:len(w)-1]
		}
	}
	return strings.Join(words, " ")
}

type counts struct{ tp, fp, fn int }

func (c counts) f1() (p, r, f float64) {
	if c.tp+c.fp > 0 {
		p = float64(c.tp) / float64(c.tp+c.fp)
	}
	if c.tp+c.fn > 0 {
		r = float64(c.tp) / float64(c.tp+c.fn)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

// scoreKind is score.py's score_kind.
func scoreKind(g goldLabels, predicted []string) counts {
	must := make([]map[string]bool, len(g.Must))
	for i, alts := range g.Must {
		must[i] = map[string]bool{}
		for _, a := range alts {
			must[i][scoreNorm(a)] = true
		}
	}
	ok := map[string]bool{}
	for _, alts := range g.OK {
		for _, a := range alts {
			ok[scoreNorm(a)] = true
		}
	}
	matched := make([]bool, len(must))
	var c counts
	seen := map[string]bool{}
	for _, x := range predicted {
		p := scoreNorm(x)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		hit := -1
		for i, m := range must {
			if !matched[i] && m[p] {
				hit = i
				break
			}
		}
		inMust := false
		for _, m := range must {
			inMust = inMust || m[p]
		}
		switch {
		case hit >= 0:
			matched[hit] = true
			c.tp++
		case ok[p] || inMust:
		default:
			c.fp++
		}
	}
	for _, m := range matched {
		if !m {
			c.fn++
		}
	}
	return c
}

func extractFileForTest(t *testing.T, x *Extractor, path string) map[int]graph.Paper {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f, filepath.Base(path), ReaderOptions{})
	out := map[int]graph.Paper{}
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[d.Index] = x.Extract(d)
	}
}

// TestSeedScores scores the extractor on the seed files against the gold
// labels and fails below the acceptance thresholds of the extract issue:
// overall F1 0.90, each kind 0.80, name accuracy 0.90.
func TestSeedScores(t *testing.T) {
	x, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	golds, _ := filepath.Glob("testdata/gold/*.json")
	if len(golds) == 0 {
		t.Fatal("no gold files in testdata/gold")
	}
	perKind := map[graph.Kind]*counts{}
	for _, k := range graph.Kinds {
		perKind[k] = &counts{}
	}
	names, namesRight := 0, 0
	for _, gp := range golds {
		b, err := os.ReadFile(gp)
		if err != nil {
			t.Fatal(err)
		}
		var g goldFile
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatalf("%s: %v", gp, err)
		}
		pred := extractFileForTest(t, x, filepath.Join("..", "seeds", g.Source))
		for _, gold := range g.Papers {
			p, ok := pred[gold.Index]
			if !ok {
				t.Errorf("%s#%d: not extracted", g.Source, gold.Index)
				continue
			}
			for _, k := range graph.Kinds {
				c := scoreKind(gold.labels(k), p.Names(k))
				perKind[k].tp += c.tp
				perKind[k].fp += c.fp
				perKind[k].fn += c.fn
			}
			if len(gold.Name) > 0 {
				names++
				for _, n := range gold.Name {
					if p.Name != "" && scoreNorm(n) == scoreNorm(p.Name) {
						namesRight++
						break
					}
				}
			}
		}
	}
	var all counts
	for _, k := range graph.Kinds {
		c := *perKind[k]
		all.tp += c.tp
		all.fp += c.fp
		all.fn += c.fn
		p, r, f := c.f1()
		t.Logf("%-10s P=%.3f R=%.3f F1=%.3f (tp=%d fp=%d fn=%d)", k, p, r, f, c.tp, c.fp, c.fn)
		if f < 0.80 {
			t.Errorf("%s F1 = %.3f; want >= 0.80", k, f)
		}
	}
	acc := float64(namesRight) / float64(max(names, 1))
	t.Logf("name       accuracy=%.3f (%d/%d)", acc, namesRight, names)
	if acc < 0.90 {
		t.Errorf("name accuracy = %.3f; want >= 0.90", acc)
	}
	p, r, f := all.f1()
	t.Logf("overall    P=%.3f R=%.3f F1=%.3f", p, r, f)
	if f < 0.90 {
		t.Errorf("overall F1 = %.3f; want >= 0.90", f)
	}
}

func TestScoreNorm(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Large Language Models", "large language model"},
		{"π-Light", "pi light"},
		{"**Dolphin**", "dolphin"},
		{"class", "class"},
		{"GPS", "gps"},
	}
	for _, tt := range tests {
		if got := scoreNorm(tt.in); got != tt.want {
			t.Errorf("scoreNorm(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
