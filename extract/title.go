package extract

import (
	"strings"
	"unicode"

	"github.com/papergraph/papergraph/graph"
)

// titleSep stands between the title and the abstract in the text that
// extraction reads (Text.Orig); mentions never cover it.
const titleSep = "\n\n"

// withTitle returns the text extraction reads for a paper with a title:
// the title, a sentence stop, then the abstract, each cleaned on its own
// (so that markup left open in one never swallows the other, and the
// abstract cleans, and so hashes to its id, exactly as without a title);
// and the cleaned offset where the abstract starts.
//
// A title is read like a sentence of the abstract: it names the paper's
// task and techniques more often than any sentence does, and sometimes
// names what the abstract leaves implicit.
func withTitle(title, abstract Text) (Text, int) {
	if title.Clean == "" {
		return abstract, 0
	}
	sep := ". "
	if strings.ContainsAny(title.Clean[len(title.Clean)-1:], ".?!") {
		sep = " "
	}
	body := len(title.Clean) + len(sep)
	base := int32(len(title.Orig) + len(titleSep))
	t := Text{
		Orig:  title.Orig + titleSep + abstract.Orig,
		Clean: title.Clean + sep + abstract.Clean,
		start: make([]int32, 0, body+len(abstract.Clean)),
		end:   make([]int32, 0, body+len(abstract.Clean)),
	}
	t.start = append(t.start, title.start...)
	t.end = append(t.end, title.end...)
	for range sep {
		t.start = append(t.start, int32(len(title.Orig)))
		t.end = append(t.end, int32(len(title.Orig)))
	}
	for i := range abstract.start {
		t.start = append(t.start, abstract.start[i]+base)
		t.end = append(t.end, abstract.end[i]+base)
	}
	return t, body
}

// titleOpeners start titles without naming anything: "Towards X: ...",
// "Beyond X: ...".
var titleOpeners = setOf("towards toward beyond rethinking revisiting on when why how what does do can is are understanding learning improving scaling")

// titleName returns the name a title gives before its colon, "HUMOF:
// Human Motion Forecasting ..." or "Generative Blocks World: Moving
// Things ...", or "". One word is a name unless the abstract writes it
// only as a common noun; a long form with its short form gives the short
// form; a phrase of two to four words
// must recur in the abstract, as a name does and a slogan ("Sample Smart,
// Not Hard: ...") seldom does.
func (w *work) titleName() string {
	if w.body == 0 {
		return ""
	}
	colon := -1
	for i := 0; i < w.bodyWord && i < 5; i++ {
		wd := w.words[i]
		if w.titleDash(i) {
			colon = i
			break
		}
		if wd.stop {
			end := wd.end
			if wd.close {
				end++ // "Train on Validation (ToV): ..."
			}
			if end < len(w.text.Clean) && w.text.Clean[end] == ':' {
				colon = i
			}
			break
		}
		if wd.comma || wd.open || wd.close {
			return ""
		}
	}
	if colon < 0 {
		return ""
	}
	first := 0
	if colon > 0 && w.words[0].lower == "the" {
		first = 1
	}
	if titleOpeners[w.words[first].lower] {
		return ""
	}
	abstract := w.text.Clean[w.body:]
	if short := w.words[colon]; colon > first && short.open && short.close && shortForm(short.text) && w.longForm(colon) == first {
		// "Train on Validation (ToV): ...": the short form is the name.
		return short.text
	}
	name := w.text.Clean[w.words[first].start:w.words[colon].end]
	if first == colon {
		wd := w.words[first]
		switch {
		case isDimensions(wd.text) || wd.class&(commonCap|notName|unit) != 0:
			return ""
		case wd.named || strings.Contains(abstract, wd.text):
			// "Falcon: ...", "floq: ...", "sleep2vec: ..." as the abstract
			// writes them, even where a vocabulary knows the word.
			return wd.text
		case w.generic(wd) || w.usesWord(wd.lower):
			// "Memorization: ...": a common noun the abstract writes in
			// lower case.
			return ""
		}
		// "Lyra: Generative 3D Scene Reconstruction ...": a one-word
		// prefix is a name even where the abstract does not repeat it.
		return wd.text
	}
	at := strings.Index(strings.ToLower(abstract), strings.ToLower(name))
	if at < 0 {
		return ""
	}
	// "Unsupervised Learning of Efficient Exploration (ULEE)": the
	// abstract's short form is the name the paper goes by.
	if rest := abstract[at+len(name):]; strings.HasPrefix(rest, " (") {
		if end := strings.IndexByte(rest, ')'); end > 2 && shortForm(rest[2:end]) {
			return rest[2:end]
		}
	}
	return name
}

// titleDash reports whether a spaced dash follows title word i as a colon
// would, before a capital: "MultiWOZ - A Large-Scale Multi-Domain ...".
func (w *work) titleDash(i int) bool {
	if i+2 >= w.bodyWord || w.words[i].stop || w.words[i].comma || !unicode.IsUpper(rune(w.words[i+2].text[0])) {
		return false
	}
	d := w.words[i+1].text
	return d == "-" || d == "–" || d == "—" || d == "--"
}

// usesWord reports whether the abstract has the word lower, in any case.
func (w *work) usesWord(lower string) bool {
	for _, wd := range w.words[w.bodyWord:] {
		if wd.lower == lower {
			return true
		}
	}
	return false
}

// titlePurpose returns the noun phrase after a title's "for", which
// names what the method is for whatever its head: "Geometric Autoencoder
// Priors for Bayesian Inversion", "... for Long-tailed Recognition". The
// words that praise ("for Efficient X") are skipped; a phrase that runs
// on into a clause is not taken.
func (w *work) titlePurpose() (phrase, bool) {
	for i := 0; i+1 < w.bodyWord; i++ {
		if w.words[i].lower != "for" || w.words[i].stop || w.words[i].comma {
			continue
		}
		p, from, last, ok := w.titlePhrase(i, false)
		// One word names a problem only if it names a field: "for
		// Reasoning", not "for Classification and Evaluation";
		// and a model is not a purpose: "for Long-Context LLMs".
		if !ok || last == from && !fieldHeads[w.words[from].lower] || w.generic(w.words[last]) || systemNouns[w.words[last].lower] {
			return phrase{}, false
		}
		return p, true
	}
	return phrase{}, false
}

// systemNouns end the title phrases after "for" that name the systems a
// method is for, not a problem: "for MoE Models", "for Spiking Networks".
var systemNouns = setOf("model models network networks architecture architectures transformer transformers")

// methodWords introduce the method in a title. "by" introduces as often
// an author ("by Expert Researchers"), and "with" a setting ("with
// Humans"), so its phrase needs two words and must not name data or
// people (notMethods).
var methodWords = setOf("via using through with")

// notMethods are the last words of a title phrase after "with" that name
// what a method works with rather than the method.
var notMethods = setOf("data dataset datasets benchmark benchmarks example examples sample samples human humans user users people expert experts application applications guarantee guarantees")

// titleMethods links, as techniques, the noun phrases after a title's
// "via", "using" or "through", which name the method: "...
// Classification via Shared Codebook", "... Speech Recognition via
// Conformal Risk Control". What the vocabulary names there it has linked
// already; the paper's own name is its name.
func (w *work) titleMethods(name string) {
	for i := 0; i+1 < w.bodyWord; i++ {
		if wd := w.words[i]; i == 0 || wd.stop || wd.comma || !methodWords[wd.lower] {
			continue
		}
		// One word after "via" is as often a goal ("via Alignment") as a
		// method; the vocabulary knows the one-word methods.
		p, from, last, ok := w.titlePhrase(i, true)
		if ok && w.words[i].lower == "with" && notMethods[w.words[last].lower] {
			continue
		}
		if !ok || last == from || w.negated(p.start, p.end) || w.coveredByEntity(p.start, p.end, false) || w.namePart(p, name) || name != "" && spells(name, p.name) {
			continue
		}
		w.add(graph.Technique, p.name, -1, p.start, p.end)
	}
}

// praise are the adjectives that praise a method: no part of a problem's
// name, but part of a method's.
var praise = setOf("efficient effective robust scalable accurate fast simple unified adaptive dynamic generalized improved lightweight universal")

// titlePhrase returns the noun phrase of the title that follows word i,
// and its first and last words: modifiers up to a noun, past the words
// that praise unless the phrase names a method, whose name keeps them
// ("via Adaptive Byte Compression"), not running on into a clause.
func (w *work) titlePhrase(i int, method bool) (p phrase, from, last int, ok bool) {
	from = i + 1
	for from < w.bodyWord && w.words[from].class&notModifier != 0 && !methodTurn[w.words[from].lower] && !(method && praise[w.words[from].lower]) {
		from++
	}
	last = -1
	for j := from; j < w.bodyWord && j-from <= maxModifiers; j++ {
		if !(w.modifier(j) || method && praise[w.words[j].lower]) || w.words[j].open {
			break
		}
		last = j
		if m := w.words[j]; m.stop || m.comma || m.close {
			break
		}
	}
	if last < 0 {
		return phrase{}, 0, 0, false
	}
	if next := last + 1; next < w.bodyWord && !w.words[last].stop && !w.words[last].comma && w.words[next].class&notModifier == 0 {
		return phrase{}, 0, 0, false
	}
	return phrase{name: w.phraseName(from, last+1, ""), start: w.words[from].start, end: w.words[last].end}, from, last, true
}
