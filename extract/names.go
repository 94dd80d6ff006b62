package extract

import (
	"strings"
	"unicode/utf8"

	"github.com/papergraph/papergraph/graph"
)

// isIntroVerb reports whether a lower-case word is a form of an
// introducing verb: "propose", "proposes", "proposed", "introduces".
func isIntroVerb(w string) bool {
	verb := strings.TrimSuffix(strings.TrimSuffix(w, "s"), "d")
	return introVerbs[w] || introVerbs[verb] || introVerbs[strings.TrimSuffix(w, "es")]
}

var introGerunds = map[string]bool{
	"proposing": true, "introducing": true, "presenting": true, "developing": true, "designing": true,
	"building": true, "constructing": true, "releasing": true, "curating": true, "creating": true,
}

var introVerbs = map[string]bool{
	"propose": true, "introduce": true, "present": true, "develop": true, "design": true,
	"build": true, "construct": true, "release": true, "curate": true, "create": true,
	"contribute": true, "offer": true, "devise": true, "formulate": true, "unveil": true,
	"describe": true,
}

var namingWords = map[string]bool{
	"named": true, "termed": true, "called": true, "dubbed": true, "namely": true, "coined": true,
}

// methodHeads name what a paper contributes: "our method, HALT, ...".
var methodHeads = map[string]bool{"method": true, "approach": true, "framework": true, "model": true, "system": true, "algorithm": true, "benchmark": true, "dataset": true, "pipeline": true, "agent": true, "architecture": true, "technique": true}

var determiners = map[string]bool{"a": true, "an": true, "the": true, "our": true}

// name returns the paper's own contribution name, or "". Candidates come
// from the sentences that introduce something ("we propose X", "we
// introduce Long Form (X)", "..., named X"), then from "the proposed X",
// then from bold markup; the first introduced wins.
func (w *work) name(defs map[string]*acronym) string {
	// A title's phrase that the abstract writes only in lower case
	// ("Negotiated Reasoning: ..." and "a new negotiated reasoning
	// framework") is a notion unless the abstract names nothing else.
	weak := ""
	if s := w.titleName(); s != "" {
		abstract := w.text.Clean[w.body:]
		at := strings.Index(strings.ToLower(abstract), strings.ToLower(s))
		if !strings.Contains(s, " ") || at < 0 || strings.ToLower(abstract[at:at+len(s)]) != abstract[at:at+len(s)] {
			return s
		}
		weak = s
	}
	best, bestAt := "", -1
	consider := func(s string, at int) {
		// "RAPPO(Reliable ...)" names RAPPO; "two faster rates, O(σ
		// ln(1/δ))" names nothing.
		if i := strings.IndexByte(s, '('); i >= 0 {
			s = s[:i]
		}
		if len(s) < 2 || isDimensions(s) || notNames[strings.ToLower(s)] || strings.EqualFold(s, "ours") || compoundAdjective(s) {
			return
		}
		if bestAt < 0 || at < bestAt {
			best, bestAt = s, at
		}
	}
	for i, wd := range w.words {
		gerund := wd.class&introGerund != 0 && i > 0 && (w.words[i-1].lower == "by" || w.words[i-1].lower == "via")
		if gerund || wd.class&introVerb != 0 {
			if gerund || w.introducedBy(i) {
				if s := w.objectName(i+1, defs); s != "" {
					consider(s, w.words[i].start)
					break
				}
			}
		}
	}
	for i, wd := range w.words {
		if bestAt >= 0 && wd.start > bestAt {
			break
		}
		switch {
		case wd.class&namingWord != 0 && i+1 < len(w.words):
			consider(w.namedAfter(i+1, defs), wd.start)
		case wd.lower == "call" && i > 0 && w.words[i-1].lower == "we" && i+1 < len(w.words):
			// "which we call egalitarian gradient descent (EGD)", "we
			// call our method X".
			j := i + 1
			// "We call the resulting models InstructGPT."
			for j+1 < len(w.words) && j <= i+3 && (callSkip[w.words[j].lower] || methodHeads[singularWord(w.words[j].lower)]) && !w.words[j].stop {
				j++
			}
			consider(w.namedAfter(j, defs), wd.start)
		case wd.lower == "we" && i+3 < len(w.words) && !wd.stop:
			// "we train a competitive LLM family, *Celerity*, ...": a
			// new thing the writers made, renamed by an appositive.
			consider(w.appositiveName(i+2, defs), wd.start)
		case i == w.bodyWord || i > w.bodyWord && w.words[i-1].stop:
			// "TIPO (Text-to-Image Prompt Optimization) introduces ...":
			// a sentence that opens with the name and its expansion.
			consider(w.expandedName(i), wd.start)
		}
		switch {
		case wd.lower == "our" && i+2 < len(w.words):
			j := i + 1
			// "Our proposed method, X", "our neural network-based
			// model, AlphaFold,".
			for j < i+4 && j+2 < len(w.words) && w.words[j].class&methodHead == 0 && !w.words[j].stop && !w.words[j].comma {
				j++
			}
			if w.words[j].class&methodHead == 0 || !w.words[j].comma {
				break
			}
			// "Our method, “Routing Manifold Alignment (RoMA)”, ...": the
			// acronym of the long form the appositive starts with.
			if s := w.longFormAcronym(j+1, defs); s != "" {
				consider(s, wd.start)
			} else if c := w.words[j+1]; (c.named || capitalised(c.text) && c.class&commonCap == 0 && w.standsAlone(j+1)) && (!w.generic(c) || w.knownSystem(j+1)) {
				consider(c.text, wd.start)
			}
		case (wd.lower == "proposed" || wd.lower == "resulting") && i+1 < len(w.words):
			j := i + 1
			if w.words[j].lower == "in" && j+1 < len(w.words) {
				j++
			}
			if w.words[j].lower == "the" && j+1 < len(w.words) {
				j++
			}
			if w.words[j].lower == "proposed" && j+1 < len(w.words) {
				j++
			}
			if c := w.words[j]; c.named && !w.generic(c) {
				consider(c.text, wd.start)
			}
		}
	}
	if best != "" {
		w.titleNotion = weak
		return best
	}
	if weak != "" {
		return weak
	}
	return w.boldName()
}

// introducedBy reports whether the verb at word i has "we" or "this
// paper/work" as its subject (a few words back, for "we first propose").
func (w *work) introducedBy(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch w.words[j].lower {
		case "we", "paper", "work", "study", "article":
			return true
		}
		if w.words[j].stop {
			return false
		}
	}
	// "we draw inspiration from MPC ... to propose X", "we study how
	// to explore ... and introduce X": the subject is further back in
	// the sentence.
	if i > 0 && (w.words[i-1].lower == "to" || w.words[i-1].lower == "and") {
		for j := i - 2; j >= 0 && !w.words[j].stop; j-- {
			if w.words[j].lower == "we" {
				return true
			}
		}
	}
	return false
}

// conceptWords introduce a notion rather than a method: "the concept of
// X", "the problem of X".
var conceptWords = setOf("concept notion idea problem task setting metric measure phenomenon question hypothesis principle")

// objectName reads the object of an introducing verb starting at word
// start and returns the name it gives, if any.
func (w *work) objectName(start int, defs map[string]*acronym) string {
	end := start
	for end < len(w.words) && end-start < 14 {
		end++
		if w.words[end-1].stop {
			break
		}
	}
	obj := start
	for obj < end && w.words[obj].class&determiner != 0 {
		obj++
	}
	if obj >= end {
		return ""
	}
	// "we introduce the concept of Coherent Preference (CP)": a notion
	// the method rests on, not the method.
	if conceptWords[w.words[obj].lower] && obj+1 < end && w.words[obj+1].lower == "of" {
		return ""
	}
	// "we present VAREdit, a visual autoregressive (VAR) framework": the
	// name before the appositive, not an acronym inside it.
	// A known system's own paper: "we present GraphSAGE, a general,
	// inductive framework".
	if c := w.words[obj]; c.named && c.comma && !c.open && (!w.generic(c) || w.knownSystem(obj)) && obj+1 < end && w.words[obj+1].class&determiner != 0 {
		return c.text
	}
	// "This paper describes Tacotron 2, a neural network architecture":
	// a capitalised name and its version.
	if c, v := w.words[obj], obj+1; capitalised(c.text) && !c.comma && !c.stop && !c.open && v+1 < end && w.words[v].comma && isVersion(w.words[v].text) && w.words[v+1].class&determiner != 0 && (!w.generic(c) || w.knownSystem(obj)) {
		return c.text + " " + w.words[v].text
	}
	// Long Form (ACR) where the long form starts the object.
	for j := obj; j < end; j++ {
		wd := w.words[j]
		if !wd.open {
			continue
		}
		if a := defs[singular(wd.text)]; a != nil && a.word == j && a.long >= 0 && a.long <= obj+2 && len(a.entries) == 0 && !w.generic(wd) {
			return wd.text
		}
		// "we introduce the Temporal Fusion Transformer (TFT) -- a novel
		// ...": a known technique's own paper, its long form the whole
		// object.
		// "We also introduce a new Two-Stream Inflated 3D ConvNet (I3D)"
		// after praise.
		if a := defs[singular(wd.text)]; a != nil && a.word == j && a.long >= obj && a.long <= obj+2 && w.onlyPraise(obj, a.long) && w.shortFormEnds(j) {
			if s, _ := w.techniqueAt(a.long, false); s != "" {
				return singular(wd.text)
			}
		}
		// "In-Place Test-Time Training (In-Place TTT)": a short form of
		// two words, the long form's first and an acronym of the rest.
		if j+1 < end && !wd.close && w.words[j+1].close && wd.text == w.words[obj].text && shortForm(w.words[j+1].text) {
			return w.text.Clean[wd.start:w.words[j+1].end]
		}
		break
	}
	// "We present SlowFast networks for video recognition" under the
	// title "SlowFast Networks for ...": a known system's own paper.
	if s, next := w.techniqueAt(obj, true); s != "" && w.body > 0 && strings.HasPrefix(w.text.Clean, s) &&
		(w.systemHead(next-1) || next < len(w.words) && w.systemHead(next)) {
		return s
	}
	// "presents Prior Depth Anything, a framework": capitalised words
	// up to the appositive's comma.
	if k, ok := w.capitalisedRun(obj, end); ok && w.words[k].comma && k+1 < end && w.words[k+1].class&determiner != 0 && !w.notionAfter(k+2, end) {
		return w.text.Clean[w.words[obj].start:w.words[k].end]
	}
	// ..., named X.
	for j := obj; j < end-1; j++ {
		if w.words[j].class&namingWord != 0 {
			return w.namedAfter(j+1, defs)
		}
	}
	// A name in parentheses that is not an acronym of the words before
	// it: "reLight (π-Light, or PI-Light)", "Cache-to-Cache (C2C)".
	for j := obj; j < end; j++ {
		wd := w.words[j]
		if !wd.open {
			continue
		}
		if a := defs[singular(wd.text)]; a != nil && a.word == j && a.long < 0 && wd.named && !w.generic(wd) {
			return wd.text
		}
		break
	}
	// We propose X, ... / We introduce LINO UniPS with ... A word that
	// starts with a lower-case word names only when it stands alone: "a
	// human-AI synergistic pipeline" is no name.
	if c := w.words[obj]; (c.named || capitalised(c.text) && c.class&commonCap == 0 && w.standsAlone(obj)) && !w.generic(c) && !c.open && (!lowerStart(c.text) || w.standsAlone(obj)) {
		// "LINO UniPS", and "build Real-Time Reasoning Gym to ...": a
		// capitalised word (not an acronym: "IRIS Benchmark" is IRIS)
		// goes on to the capitalised words after it.
		name := c.text
		for k := obj + 1; k < end && !w.words[k-1].comma && !w.words[k-1].stop && !w.words[k].open; k++ {
			if nk := w.words[k]; !nk.named && (!capitalised(c.text) || !capitalised(nk.text) || nk.class&commonCap != 0) {
				break
			}
			name = w.text.Clean[c.start:w.words[k].end]
		}
		return name
	}
	// "a new M3CoTBench benchmark", "an agent framework SciNav
	// (Scientific Navigator)": the name modifies the head noun or
	// follows it.
	if s := w.headName(obj, end, defs); s != "" {
		return s
	}
	// We propose a novel architecture, X, ... / a simple method, nasty
	// adversarial training (NAT), which ...
	for j := obj; j < end-1; j++ {
		if !w.words[j].comma || w.words[j].open {
			continue
		}
		if c := w.words[j+1]; c.named && !w.generic(c) && !c.open {
			return c.text
		}
		for k := j + 1; k < end && k <= j+8; k++ {
			wd := w.words[k]
			if wd.open {
				if a := defs[singular(wd.text)]; a != nil && a.word == k && a.long == j+1 && len(a.entries) == 0 && !w.generic(wd) {
					return wd.text
				}
				break
			}
			if wd.stop || wd.comma {
				break
			}
		}
	}
	// "two novel attacks with very limited assumptions: DistinSMOTE,
	// which ...": the name after the colon that ends the object.
	if last := w.words[end-1]; last.stop && last.end < len(w.text.Clean) && w.text.Clean[last.end] == ':' && end < len(w.words) {
		if c := w.words[end]; c.named && !w.generic(c) && !c.open {
			return c.text
		}
		if k, ok := w.capitalisedRun(end, min(end+3, len(w.words))); ok && k > end && (w.words[k].comma || w.words[k].stop || k+1 < len(w.words) && w.words[k+1].lower == "and") {
			return w.text.Clean[w.words[end].start:w.words[k].end]
		}
	}
	return ""
}

// headName returns the name that stands next to the first head noun of
// the object from word obj (before end) in the same clause: before it,
// as a coined word or a run of two or more capitalised words ("the
// SciNav framework", "a cross-model Reasoning Distillation Provenance
// Tracing framework"), or after it, as a coined word ("an agent
// framework SciNav (Scientific Navigator)"). A lone capitalised word
// before the head is an adjective ("a Bayesian framework").
func (w *work) headName(obj, end int, defs map[string]*acronym) string {
	for j := obj; j < end; j++ {
		wd := w.words[j]
		if wd.open || wd.close {
			return ""
		}
		if wd.class&(methodHead|datasetHead) == 0 || j == obj {
			if wd.comma || wd.stop {
				return ""
			}
			continue
		}
		// "the Environment Configuration Diagnosis Benchmark,
		// EnConda-bench,": the short name the appositive gives.
		if j+1 < len(w.words) && wd.comma {
			if c := w.words[j+1]; c.named && !c.open && !w.generic(c) && (c.comma || c.stop) {
				return c.text
			}
		}
		k := j - 1
		for k >= obj && !w.words[k].comma && (capitalised(w.words[k].text) || w.words[k].named) && w.words[k].class&commonCap == 0 && !compoundAdjective(w.words[k].text) {
			k--
		}
		// "a novel IMVC method" after "incomplete multi-view clustering
		// (IMVC)" names the problem's methods; "Identification of
		// Critical Neurons method" cuts a name short.
		if first := k + 1; first < j && !w.generic(w.words[first]) && !w.defined(first, defs) && !isDimensions(w.words[first].text) &&
			(k < obj || !linkWords[w.words[k].lower]) && !w.onThe(obj, first) {
			if j-first >= 2 || w.words[first].named {
				return w.text.Clean[w.words[first].start:w.words[j-1].end]
			}
		}
		if j+1 < len(w.words) && !wd.comma && !wd.stop {
			if c := w.words[j+1]; c.named && !c.open && !w.generic(c) && !w.defined(j+1, defs) && !compoundAdjective(c.text) && w.standsAlone(j+1) {
				return c.text
			}
		}
		return ""
	}
	return ""
}

// onThe reports whether the words before word first, within the
// object from obj, are "on the" or "across the": "we present new
// rerankers on the MRB benchmark" evaluates on MRB, and does not make it.
func (w *work) onThe(obj, first int) bool {
	if first-2 < obj || w.words[first-1].lower != "the" {
		return false
	}
	switch w.words[first-2].lower {
	case "on", "across", "over":
		return true
	}
	return false
}

// appositiveName returns the coined or capitalised name that an
// appositive gives the noun phrase a(n) ... head from word j: "a
// competitive LLM family, Celerity,", "a large-scale plant dataset,
// PlantRSR,". The phrase must be indefinite, so new, and not about a
// prior system ("a strong base model, X,").
func (w *work) appositiveName(j int, defs map[string]*acronym) string {
	if j >= len(w.words) || w.words[j].lower != "a" && w.words[j].lower != "an" || w.words[j-1].stop || w.words[j-1].comma {
		return ""
	}
	for k := j + 1; k < len(w.words) && k <= j+6; k++ {
		wd := w.words[k]
		if wd.stop || wd.open || priorWords[wd.lower] {
			return ""
		}
		if !wd.comma {
			continue
		}
		if wd.class&(methodHead|datasetHead) == 0 && !appositiveHeads[wd.lower] || k+1 >= len(w.words) {
			return ""
		}
		c := w.words[k+1]
		if c.open || w.generic(c) || w.defined(k+1, defs) || c.class&commonCap != 0 || !(c.comma || c.stop) {
			return ""
		}
		if c.named || capitalised(c.text) {
			return c.text
		}
		return ""
	}
	return ""
}

// callSkip are the words between "we call" and the name.
var callSkip = setOf("it this them our the resulting proposed")

// appositiveHeads are the nouns besides methodHeads and datasetHeads
// that an appositive name renames.
var appositiveHeads = setOf("family suite toolkit library tool environment simulator platform collection criterion metric engine")

// priorWords make a noun phrase a prior system's, not the paper's.
var priorWords = setOf("base baseline pretrained pre-trained existing strong popular standard off-the-shelf prior previous")

// expandedName returns the word at i when a parenthesised expansion
// that it spells follows, and a verb after that ("TIPO
// (Text-to-Image Prompt Optimization) introduces"), else "".
func (w *work) expandedName(i int) string {
	wd := w.words[i]
	if !wd.named || wd.open || wd.comma || wd.stop || i+2 >= len(w.words) || !w.words[i+1].open || w.generic(wd) {
		return ""
	}
	k := i + 1
	for k < len(w.words) && k <= i+10 && !w.words[k].close && !w.words[k].stop {
		k++
	}
	if k+1 >= len(w.words) || k == i+1 || !w.words[k].close || w.words[k].stop || !spells(wd.text, strings.ToLower(w.text.Clean[w.words[i+1].start:w.words[k].end])) {
		return ""
	}
	if v := w.words[k+1]; v.class&(determiner|notModifier) != 0 || !strings.HasSuffix(v.lower, "s") {
		return "" // the name's subject of a verb: "introduces", "achieves"
	}
	return wd.text
}

// lowerStart reports whether s starts with an English-looking word in
// lower case before a hyphen: "human-AI", "multi-LLM", not "k-NLPmeans".
func lowerStart(s string) bool {
	head, _, ok := strings.Cut(s, "-")
	if !ok || len(head) < 3 {
		return false
	}
	for i := 0; i < len(head); i++ {
		if head[i] < 'a' || head[i] > 'z' {
			return false
		}
	}
	return true
}

// linkWords join a name to a phrase before it, so that a run after one
// is the end of a longer name.
var linkWords = setOf("of for in on at to from by with via and or")

// defined reports whether word i is an acronym the text defined before
// it, a problem's or a prior method's short form.
func (w *work) defined(i int, defs map[string]*acronym) bool {
	a := defs[singular(w.words[i].text)]
	return a != nil && a.word < i
}

// notionAfter reports whether an appositive from word j (before end)
// calls what it follows a notion rather than a method: "Reasoning
// Editing, a paradigm for ...", "X, a novel concept".
func (w *work) notionAfter(j, end int) bool {
	for k := j; k < end && k < j+3; k++ {
		if conceptWords[w.words[k].lower] || w.words[k].lower == "paradigm" {
			return true
		}
		if w.words[k].comma || w.words[k].stop {
			break
		}
	}
	return false
}

// capitalisedRun returns the last of the capitalised or name-like words
// from word from (before limit) that run without punctuation between
// them, and whether there is one: the words of a multi-word name, "Prior
// Depth Anything". The first word is no vocabulary concept and no word
// that capitalises a sentence.
func (w *work) capitalisedRun(from, limit int) (int, bool) {
	if from >= limit {
		return 0, false
	}
	first := w.words[from]
	if w.generic(first) || first.class&commonCap != 0 || first.open {
		return 0, false
	}
	k := from
	for ; k < limit; k++ {
		wd := w.words[k]
		if !(capitalised(wd.text) || wd.named) || k > from && wd.open {
			return 0, false
		}
		if wd.comma || wd.stop || wd.close || k-from >= 4 {
			break
		}
		if k+1 < limit && !(capitalised(w.words[k+1].text) || w.words[k+1].named) {
			break
		}
	}
	return min(k, limit-1), true
}

// longFormAcronym returns the acronym whose long form starts at word j
// (or the word after, for a lower-case "iterated Shared Q-Learning
// (iS-QL)") and that names no vocabulary concept, or "".
func (w *work) longFormAcronym(j int, defs map[string]*acronym) string {
	for k := j; k < len(w.words) && k <= j+8; k++ {
		wd := w.words[k]
		if wd.open {
			if a := defs[singular(wd.text)]; a != nil && a.word == k && a.long >= j && a.long <= j+1 && len(a.entries) == 0 && !w.generic(wd) {
				return wd.text
			}
			return ""
		}
		if wd.stop || wd.comma {
			return ""
		}
	}
	return ""
}

// standsAlone reports whether word i ends a noun phrase, as a name does
// ("we propose Dolphin, a ...", "termed RIG."), rather than modifying the
// next word ("we propose Bayesian optimization").
func (w *work) standsAlone(i int) bool {
	wd := w.words[i]
	if wd.comma || wd.stop || wd.close || i+1 >= len(w.words) {
		return true
	}
	next := w.words[i+1]
	return next.open || next.class&determiner != 0 || next.lower == "which" || next.lower == "that" || next.lower == "to" || next.lower == "for" || next.lower == "with"
}

// namedAfter returns the name given after "named", "termed" and the like:
// the acronym when a Long Form (ACR) follows, else the word itself.
func (w *work) namedAfter(j int, defs map[string]*acronym) string {
	if j >= len(w.words) {
		return ""
	}
	c := w.words[j]
	for k := j; k < len(w.words) && k < j+6; k++ {
		wd := w.words[k]
		if wd.open {
			if a := defs[singular(wd.text)]; a != nil && a.word == k && a.long >= 0 && a.long <= j && !w.generic(wd) {
				return wd.text
			}
			break
		}
		if wd.stop {
			break
		}
	}
	if (c.named || capitalised(c.text) && c.class&commonCap == 0 && w.standsAlone(j)) && !w.generic(c) {
		return c.text
	}
	// "The method, called Mask R-CNN, extends Faster R-CNN", "a general
	// framework named NCF": a known system's paper names it where it
	// calls it.
	if s, _ := w.techniqueAt(j, true); s != "" {
		return s
	}
	if c.named && !c.open {
		return c.text
	}
	return ""
}

// onlyPraise reports whether words from..to-1 only praise what follows or
// start its title-cased long form: "a new", "a new Two-Stream" before
// "Inflated 3D ConvNet (I3D)".
func (w *work) onlyPraise(from, to int) bool {
	for k := from; k < to; k++ {
		if wd := w.words[k]; wd.stop || wd.comma || wd.class&notModifier == 0 && !capitalised(wd.text) {
			return false
		}
	}
	return true
}

// shortFormEnds reports whether the short form at word j ends its noun
// phrase: a comma, a full stop, a dash or a determiner after it ("the
// Temporal Fusion Transformer (TFT) -- a novel ..."), not a head it
// modifies ("(PID) Steering"), which endsPhrase's closing parenthesis
// would accept.
func (w *work) shortFormEnds(j int) bool {
	if wd := w.words[j]; wd.comma || wd.stop || j+1 >= len(w.words) {
		return true
	}
	next := w.words[j+1]
	// "We introduce Relational Graph Convolutional Networks (R-GCNs) and
	// apply them to ...": the sentence goes on with what the writers do
	// with it.
	if next.lower == "and" && !next.comma && !next.stop && j+2 < len(w.words) && w.words[j+2].class&notModifier != 0 && !capitalised(w.words[j+2].text) {
		return true
	}
	return next.class&determiner != 0 || strings.Trim(next.text, "-–—") == "" || next.lower == "which" || next.lower == "that"
}

// isVersion reports whether s is a version number: "2", "2.0", "v2".
func isVersion(s string) bool {
	s = strings.TrimPrefix(s, "v")
	if s == "" || len(s) > 4 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return s[0] != '.'
}

// knownSystem reports whether a known system's proper name starts at
// word i.
func (w *work) knownSystem(i int) bool {
	s, _ := w.techniqueAt(i, true)
	return s != ""
}

// systemHead reports whether word i names a kind of system: "networks",
// "model", "framework".
func (w *work) systemHead(i int) bool {
	h := singularWord(w.words[i].lower)
	return methodHeads[h] || h == "network"
}

// techniqueAt returns the name of the vocabulary technique whose mention
// starts at word j, a proper name ("Mask R-CNN", "SlowFast") when proper
// is set, and the index of the word after that mention; "" when none.
func (w *work) techniqueAt(j int, proper bool) (string, int) {
	a, _ := w.text.Span(w.words[j].start, w.words[j].end)
	for _, f := range w.order {
		if f.entry < 0 || f.kind != graph.Technique || proper && !hasUpper(f.name) {
			continue
		}
		for _, m := range f.mentions {
			if m.Start == a {
				return f.name, w.wordAtOrig(m.End)
			}
		}
	}
	return "", 0
}

// generic reports whether a word is a vocabulary concept rather than a
// coined name: a match of a generic (lower-case canonical) task or
// technique, or an acronym defined as one.
func (w *work) generic(wd word) bool {
	if !w.taken[wd.start] {
		return false
	}
	a, b := w.text.Span(wd.start, wd.end)
	for _, f := range w.order {
		if f.entry < 0 || f.kind == graph.Dataset || f.kind == graph.Modality {
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

// boldName returns the first bold name-like phrase of the original
// abstract ("**Dolphin**", "\textbf{TP-GRPO}"), cleaned.
func (w *work) boldName() string {
	if !strings.Contains(w.text.Orig, "**") && !strings.Contains(w.text.Orig, "\\textbf{") {
		return ""
	}
	name, letters := "", ""
	eachBold(w.text.Orig, func(s string) bool {
		s = Clean(s).Clean
		if !strings.Contains(s, " ") && nameLike(s) {
			name = s
			return false
		}
		if len(s) <= 4 && !strings.Contains(s, " ") {
			letters += s
		}
		return true
	})
	if name == "" && len(letters) >= 3 && strings.Contains(w.text.Clean, "("+letters+")") {
		// "***Dro**pping the **P**ositional **E**mbeddings ... (DroPE)*":
		// bold letters that spell the acronym the text defines.
		return letters
	}
	return name
}

// eachBold calls fn with the text of each bold span of s, left to right,
// until fn returns false: "**text**" or "\textbf{text}", the text on one
// line, 1 to 60 characters, without '*' (or braces). A scan, as the
// regular expression it replaced cost a fifth of extraction on abstracts
// with bold spans.
func eachBold(s string, fn func(string) bool) {
	for i := 0; i < len(s); i++ {
		var open, stops, close string
		switch {
		case s[i] == '*' && strings.HasPrefix(s[i:], "**"):
			open, stops, close = "**", "*\n", "**"
		case s[i] == '\\' && strings.HasPrefix(s[i:], `\textbf{`):
			open, stops, close = `\textbf{`, "{}\n", "}"
		default:
			continue
		}
		body := s[i+len(open):]
		n := strings.IndexAny(body, stops)
		if n < 1 || !strings.HasPrefix(body[n:], close) || utf8.RuneCountInString(body[:n]) > 60 {
			continue
		}
		if !fn(body[:n]) {
			return
		}
		i += len(open) + n + len(close) - 1
	}
}
