package extract

import (
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// The backdrop of an abstract is where it says what its problem matters
// for: "3D spatial comprehension, which is critical for embodied
// intelligence", "safety-critical applications such as medical diagnosis
// and autonomous driving", "plays a crucial role in AI safety". The
// fields named there are why the problem matters, not the problem, and
// a paper that works on one names it again elsewhere.

// backdropNouns are the nouns whose examples are fields of use:
// "applications such as X", "domains ranging from X to Y".
var backdropNouns = setOf("application applications domain domains area areas field fields")

// backdropNeeds are the adjectives before "for" that say what a thing is
// needed for: "crucial for embodied intelligence".
var backdropNeeds = setOf("crucial critical essential vital important indispensable pivotal fundamental key")

// backdropLimit bounds how far back the cue of a backdrop may stand: a
// list of fields ("such as robotics, autonomous driving, and industrial
// AI") runs over several words.
const backdropLimit = 6

// inBackdrop reports whether word i, the first of a mention in the
// abstract, stands in a backdrop: after one of its cues in the same
// clause, with no word of the paper's own ("we", "our") or a new clause
// ("which", "while", "but") between. A mention whose first word is a
// gerund ("crucial for aligning large language models") is what the
// sentence's subject does, not a field it serves.
func (w *work) inBackdrop(i int) bool {
	if i <= w.bodyWord || i >= len(w.words) || w.words[i].class&taskGerund != 0 || hasIng(w.words[i].lower) {
		return false
	}
	for j := i - 1; j > w.bodyWord && j >= i-backdropLimit; j-- {
		p := w.words[j]
		if p.stop {
			return false
		}
		switch p.lower {
		case "we", "our", "which", "that", "while", "but", "yet", "whereas", "however":
			return false
		case "for":
			if backdropNeeds[w.words[j-1].lower] && !w.words[j-1].comma {
				return true
			}
		case "in":
			// "plays a crucial role in X", "has applications in X".
			if q := w.words[j-1]; !q.comma && (q.lower == "role" || q.lower == "roles" || backdropNouns[q.lower]) {
				return true
			}
		case "as", "including", "like":
			// "applications such as X", "domains including X".
			k := j - 1
			if p.lower == "as" {
				if w.words[k].lower != "such" {
					continue
				}
				k--
			}
			if k > w.bodyWord && !w.words[k].comma && backdropNouns[w.words[k].lower] {
				return true
			}
		case "from":
			// "applications ranging from X to Y".
			if q := w.words[j-1]; q.lower == "ranging" {
				return true
			}
		}
	}
	return false
}

// inFieldList reports whether byte a of text.Orig is in one of the
// lists of fields a family of methods succeeded on (see
// modalityEvidence).
func (w *work) inFieldList(a int) bool {
	return slices.ContainsFunc(w.fieldLists, func(s span) bool { return s.contains(a) })
}

// hasIng reports whether the lower-case word s ends in -ing, as a gerund
// does ("advancing", "aligning").
func hasIng(s string) bool {
	return len(s) > 4 && s[len(s)-3:] == "ing"
}

// backdrops unlinks the vocabulary tasks that the abstract names only in
// its backdrop (see inBackdrop), keeping the first for ensureTask, and
// those it names only as a goal (see goalWord) or as the modifier of a
// part of the method (see partModifier) when it has another task: a
// paper with no other is most often one on the field.
func (w *work) backdrops() {
	var goals []*found
	for _, f := range slices.Clone(w.order) {
		if f.kind != graph.Task || f.entry < 0 {
			continue
		}
		backdrop, goal := true, true
		for _, m := range f.mentions {
			i := w.wordAtOrig(m.Start)
			backdrop = backdrop && (w.inBackdrop(i) || w.inFieldList(m.Start))
			goal = goal && (w.inBackdrop(i) || w.goalWord(i, m) || w.partModifier(m))
		}
		switch {
		case backdrop:
			w.unlink(f)
			if w.spare.backdrop == nil {
				w.spare.backdrop = f
			}
		case goal:
			goals = append(goals, f)
		}
	}
	if slices.ContainsFunc(w.order, func(f *found) bool { return f.kind == graph.Task && !slices.Contains(goals, f) }) {
		for _, f := range goals {
			w.unlink(f)
		}
	}
}

// partNouns are the parts of a method or of its data that a task's name
// can modify without being the paper's problem: "QA pairs", "the planning
// horizon", "a distillation loss", "reasoning traces".
var partNouns = setOf("pair pairs horizon horizons loss losses step steps stage stages module modules trace traces head heads")

// partModifier reports whether the mention m modifies a part noun: the
// word right after it, in the same phrase, is one of partNouns.
func (w *work) partModifier(m graph.Mention) bool {
	i := w.wordAtOrig(m.End)
	if i <= 0 || i >= len(w.words) || !partNouns[w.words[i].lower] {
		return false
	}
	last := w.words[i-1]
	a, _ := w.text.Span(last.end, last.end)
	return a == m.End && !last.comma && !last.stop && !last.close
}

// goalWords are the one-word names of fields that abstracts far more
// often write as a property their method has or lacks: "offering both
// interpretability and efficiency", "sacrificing interpretability".
var goalWords = setOf("interpretability explainability")

// fieldNouns are the nouns after a goal word that make it the field:
// "interpretability methods", "the interpretability community".
var fieldNouns = setOf("method methods research tool tools technique techniques community agent agents metric metrics study studies analysis analyses benchmark benchmarks evaluation experiment experiments demonstration")

// goalWord reports whether the mention m, at word i, is a goal word
// outside the title and the opening sentence, where the paper says what
// it is about, and not the field's name for itself.
func (w *work) goalWord(i int, m graph.Mention) bool {
	if i >= len(w.words) || !goalWords[w.words[i].lower] || w.about(m.Start) {
		return false
	}
	return i+1 >= len(w.words) || w.words[i].stop || w.words[i].comma || !fieldNouns[strings.TrimSuffix(w.words[i+1].lower, "'s")]
}
