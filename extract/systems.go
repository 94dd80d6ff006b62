package extract

import (
	"context"
	"strings"
	"unicode"

	"github.com/papergraph/papergraph/graph"
)

// systems links the named prior systems an abstract uses that no
// vocabulary lists, by the company they keep: after the noun that says
// what they are ("a similar clustering method D4M", "a strong base
// model, OmniGen2,"), or in a list beside a named technique the
// vocabulary knows ("quantization techniques such as BitsAndBytes, AWQ,
// and GPTQ"). GUIDELINES.md counts named prior systems used as baselines
// or building blocks as techniques. It stops early once ctx is done.
func (w *work) systems(ctx context.Context, defs map[string]*acronym, name string) {
	for i := w.bodyWord; i < len(w.words); i++ {
		wd := w.words[i]
		if !wd.named || !w.candidate(i, defs) {
			continue
		}
		// linkedAt scans every mention found so far.
		if ctx.Err() != nil {
			return
		}
		if w.linkedAt(i, 0) {
			continue
		}
		if (w.afterMethodNoun(i) || w.listedWithTechnique(i)) && !sameName(wd.text, name) {
			w.add(graph.Technique, wd.text, -1, wd.start, wd.end)
		}
	}
}

// afterMethodNoun reports whether word i follows a noun that says it is a
// method or model, directly or as an appositive ending at i: not the
// paper's own ("our model X"), and not a dataset's ("benchmark X").
func (w *work) afterMethodNoun(i int) bool {
	if i < 1 {
		return false
	}
	p := w.words[i-1]
	if p.class&methodHead == 0 || p.class&datasetHead != 0 || p.stop || p.open || w.words[i].open {
		return false
	}
	if p.comma && !(w.words[i].comma || w.words[i].stop) {
		return false
	}
	// "we propose a novel three-stage training framework, TriMPI": the
	// paper's own, whatever name detection made of it.
	for j := i - 2; j >= 0 && j >= i-10 && !w.words[j].stop; j-- {
		if ownWords[w.words[j].lower] && j >= i-4 || w.words[j].class&introVerb != 0 {
			return false
		}
	}
	return true
}

// ownWords before a method noun make the method the paper's own.
var ownWords = setOf("our we proposed resulting novel new")

// sameName reports whether a and b spell one name but for case and
// punctuation: "RAPID^3" in an abstract is "RAPID3" of the title.
func sameName(a, b string) bool {
	key := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	return key(a) == key(b)
}

// listedWithTechnique reports whether word i is listed beside a named
// technique ("X, GPTQ", "X and GPTQ", "GPTQ, X").
func (w *work) listedWithTechnique(i int) bool {
	for _, j := range []int{i - 2, i - 1, i + 1, i + 2} {
		if j < w.bodyWord || j >= len(w.words) || !w.words[j].named {
			continue
		}
		lo, hi := min(i, j), max(i, j)
		switch hi - lo {
		case 1:
			if !w.words[lo].comma || w.words[lo].stop {
				continue
			}
		case 2:
			if mid := w.words[lo+1].lower; (mid != "and" && mid != "or") || w.words[lo].stop || w.words[lo+1].stop {
				continue
			}
		}
		if w.linkedAt(j, graph.Technique) {
			return true
		}
	}
	return false
}

// linkedAt reports whether word i is evidence of an entity found so far,
// of kind k unless k is 0.
func (w *work) linkedAt(i int, k graph.Kind) bool {
	a, b := w.text.Span(w.words[i].start, w.words[i].end)
	for _, f := range w.order {
		if k != 0 && f.kind != k {
			continue
		}
		for _, m := range f.mentions {
			if m.Start <= a && b <= m.End {
				return true
			}
		}
	}
	return false
}
