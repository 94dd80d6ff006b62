package extract

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papergraph/papergraph/graph"
)

// systems links the named prior systems an abstract uses that no
// vocabulary lists, by the company they keep: after the noun that says
// what they are ("a similar clustering method D4M", "a strong base
// model, OmniGen2,"), or in a list beside a named technique the
// vocabulary knows ("quantization techniques such as BitsAndBytes, AWQ,
// and GPTQ"). GUIDELINES.md counts named prior systems used as baselines
// or building blocks as techniques. What results are compared with
// ("faster than the similarly sized UltraEdit", "surpassing Show-o2 on
// GenEval") is a system too, even where a vocabulary lists the name as a
// dataset. It stops early once ctx is done.
func (w *work) systems(ctx context.Context, defs map[string]*acronym, name string) {
	for i := w.bodyWord; i < len(w.words); i++ {
		wd := w.words[i]
		if !wd.named || sameName(wd.text, name) || strings.HasSuffix(wd.text, "-") {
			continue
		}
		// vocabDatasetAt and linkedAt scan every mention found so far.
		if ctx.Err() != nil {
			return
		}
		if f := w.vocabDatasetAt(i); f != nil && w.comparedWith(i, true) {
			w.unlink(f)
			w.add(graph.Technique, wd.text, -1, wd.start, wd.end)
			continue
		}
		if !w.candidate(i, defs) || w.linkedAt(i, 0) {
			continue
		}
		if w.afterMethodNoun(i) || w.exampleOfMethods(i) || w.listedWithTechnique(i) {
			w.add(graph.Technique, wd.text, -1, wd.start, wd.end)
		} else if (w.comparedWith(i, false) || w.evaluatedOn(i)) && !w.ownPart(wd.text, name) {
			w.add(graph.Technique, wd.text, -1, wd.start, wd.end)
		}
	}
}

// Comparators are the words after which a name is what a result is
// compared with: the strict ones only ever take a system ("surpasses
// X"), the others a dataset too ("compared to RewardBench", "built on
// OSWorld"), so they mark only names no vocabulary lists.
var (
	strictComparators = setOf(`than outperform outperforms outperformed outperforming surpass surpasses
		surpassed surpassing beat beats beating`)
	// comparisonSkip are the words that may stand between a comparator
	// and the name: "than the similarly sized X", "surpassing those of X".
	comparisonSkip = setOf(`the a an those that of similarly comparably sized strong stronger recent
		prior previous existing leading popular state-of-the-art`)
)

// comparedWith reports whether word i, a name that starts with a
// capital and ends its noun phrase, is the object of a comparison
// ("outperforms X", "faster than the similarly sized X", "compared with
// X", "built upon X"): a prior system, not a dataset and not the paper's
// own. strict keeps to the strict comparators.
func (w *work) comparedWith(i int, strict bool) bool {
	if !w.endsPhrase(i) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(w.words[i].text); !unicode.IsUpper(r) {
		return false // "full-Parameter", "non-AI"
	}
	for j, skipped := i-1, 0; j >= w.bodyWord && skipped <= 3; j, skipped = j-1, skipped+1 {
		p := w.words[j]
		if p.stop || p.comma || p.close {
			return false
		}
		switch {
		case strictComparators[p.lower]:
			return true
		case strict || j == 0 || w.words[j-1].comma:
		case p.lower == "to" || p.lower == "with":
			return strings.HasPrefix(w.words[j-1].lower, "compar")
		case p.lower == "upon" || p.lower == "on" && skipped == 0:
			return w.words[j-1].lower == "built" || w.words[j-1].lower == "builds" || w.words[j-1].lower == "building"
		}
		if !comparisonSkip[p.lower] {
			return false
		}
	}
	return false
}

// endsPhrase reports whether word i ends its noun phrase: "than
// UltraEdit." and "X on Y" do, "than KV cache" and "improves ImageNet
// accuracy" do not.
func (w *work) endsPhrase(i int) bool {
	wd := w.words[i]
	return wd.comma || wd.stop || wd.close || i+1 >= len(w.words) || phraseEnd[w.words[i+1].lower]
}

// phraseEnd are the words after which a name has ended its noun phrase.
var phraseEnd = setOf("on by in and or with across at while for")

// evaluatedOn reports whether word i names what runs on a dataset ("X on
// VBench-I2V"): a system, unless it is a metric's acronym after a number
// ("9.7% MOTA on SportsMOT", "AP on LVIS").
func (w *work) evaluatedOn(i int) bool {
	wd := w.words[i]
	if i+2 >= len(w.words) || wd.comma || wd.stop || wd.close || w.words[i+1].lower != "on" ||
		!w.words[i+2].named || !w.linkedAt(i+2, graph.Dataset) {
		return false
	}
	if len(wd.text) <= 5 && strings.ToUpper(wd.text) == wd.text {
		return false
	}
	return i == 0 || !hasDigit(w.words[i-1].text) && w.words[i-1].lower != "of"
}

// ownPart reports whether s is a part of the paper's name or the name a
// part of s: "building upon TreeGrad, we introduce TreeGrad-Ranker".
func (w *work) ownPart(s, name string) bool {
	return name != "" && (strings.HasPrefix(name, s) || strings.HasPrefix(s, name))
}

// vocabDatasetAt returns the vocabulary dataset whose one mention is word
// i, or nil.
func (w *work) vocabDatasetAt(i int) *found {
	a, b := w.text.Span(w.words[i].start, w.words[i].end)
	for _, f := range w.order {
		if f.kind == graph.Dataset && f.entry >= 0 && len(f.mentions) == 1 && f.mentions[0].Start == a && f.mentions[0].End == b {
			return f
		}
	}
	return nil
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
	return !w.ownedBefore(i - 1)
}

// ownedBefore reports whether the method noun at word h is the paper's
// own ("we propose a novel three-stage training framework, TriMPI", "we
// derive a series of models, namely TraDo"), whatever name detection
// made of it.
func (w *work) ownedBefore(h int) bool {
	for j := h - 1; j >= 0 && j >= h-9 && !w.words[j].stop; j-- {
		if ownWords[w.words[j].lower] && j >= h-3 || w.words[j].class&introVerb != 0 {
			return true
		}
	}
	return false
}

// methodExamples are the plural nouns whose examples are named prior
// systems: "decoupled methods (e.g., SRe2L)", "baselines such as GRPO".
var methodExamples = setOf(`methods approaches techniques algorithms baselines frameworks architectures
	optimizers variants attacks defenses models systems`)

// exampleOfMethods reports whether word i opens the examples a plural
// method noun gives ("methods (e.g., MTT)", "techniques such as
// BitsAndBytes"); listedWithTechnique then takes the rest of the list.
func (w *work) exampleOfMethods(i int) bool {
	for j := i - 1; j >= w.bodyWord && j >= i-3; j-- {
		prev := w.words[j]
		if methodExamples[prev.lower] {
			return j < i-1 && !prev.stop && !w.ownedBefore(j)
		}
		if prev.class&listLeadWord == 0 || prev.stop && prev.lower != "e.g" && prev.lower != "i.e" {
			return false
		}
	}
	return false
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
	// "the ROC and PR curves" lists metrics.
	if i+1 < len(w.words) && !w.words[i].stop && metricNouns[w.words[i+1].lower] {
		return false
	}
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

// metricNouns after a name make it a metric: "PR curves", "F1 scores".
var metricNouns = setOf("curve curves score scores metric metrics")

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
