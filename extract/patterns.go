package extract

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papergraph/papergraph/graph"
)

// acronym is a parenthesised short form defined in the abstract:
// "Vision-Language Models (VLMs)".
type acronym struct {
	word int // index of the "(ACR)" word
	// long is the index of the first word of the long form, -1 when the
	// letters of the short form don't spell the words before it
	// (Schwartz-Hearst).
	long int
	// entries are the vocabulary entries the long form names; later uses
	// of the short form link them too.
	entries []int
}

// resolveAcronyms finds the "Long Form (ACR)" definitions, links each
// later use of an acronym whose long form is in the vocabulary, and
// returns the definitions by short form.
func (w *doc) resolveAcronyms() map[string]*acronym {
	defs := map[string]*acronym{}
	for i := range w.words {
		wd := &w.words[i]
		if !wd.open || !(wd.close || wd.comma) || i == 0 || !shortForm(wd.text) {
			continue
		}
		a := &acronym{word: i, long: w.longForm(i)}
		if a.long >= 0 {
			a.entries = w.entriesEndingAt(w.words[a.long].start, w.words[i-1].end)
		}
		key := singular(wd.text)
		if _, ok := defs[key]; !ok {
			defs[key] = a
			if a.long >= 0 && len(a.entries) == 0 {
				w.dropClashes(key, w.text.Clean[w.words[a.long].start:w.words[i-1].end])
			}
		}
		if len(a.entries) == 0 || w.taken[wd.start] {
			continue
		}
		for j := i; j < len(w.words); j++ {
			u := w.words[j]
			if (u.text == wd.text || singular(u.text) == key) && !w.taken[u.start] {
				for _, e := range a.entries {
					ent := &w.x.v.entries[e]
					w.add(ent.kind, ent.name, e, u.start, u.end)
				}
				w.taken[u.start] = true
			}
		}
	}
	return defs
}

// dropClashes removes the links that uses of the acronym short got from
// the vocabulary when the text defines it, with the long form long, as
// something else: in "Temporal Semantic Entropy (TSE)", TSE is not target
// speaker extraction. An entity whose name's words all occur in the long
// form keeps them: "dLLMs" after "Diffusion large language models" is a
// diffusion language model.
func (w *doc) dropClashes(short, long string) {
	in := lowerWords(long)
	for i := 0; i < len(w.order); i++ {
		f := w.order[i]
		if f.entry < 0 || !slices.ContainsFunc(lowerWords(f.name), func(s string) bool { return !slices.Contains(in, s) }) {
			continue
		}
		f.mentions = slices.DeleteFunc(f.mentions, func(m graph.Mention) bool { return singular(m.Text) == short })
		if len(f.mentions) == 0 {
			delete(w.found, f.id)
			w.order = slices.Delete(w.order, i, i+1)
			i--
		}
	}
}

// lowerWords returns the words of s, lower-cased, without a plural s.
func lowerWords(s string) []string {
	ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, x := range ws {
		if len(x) > 3 && !strings.HasSuffix(x, "ss") {
			ws[i] = strings.TrimSuffix(x, "s")
		}
	}
	return ws
}

// shortForm reports whether s can be an acronym: 2 to 12 bytes, no space,
// with a capital.
func shortForm(s string) bool {
	return len(s) >= 2 && len(s) <= 12 && !strings.ContainsAny(s, " ") && hasUpper(s)
}

// longForm returns the index of the first word of the long form that the
// short form at word i abbreviates, or -1. It follows Schwartz and Hearst
// (2003): every letter or digit of the short form, right to left, is found
// in the words before it, the first one at the start of a word, within
// min(|short|+5, 2*|short|) words.
func (w *doc) longForm(i int) int {
	short := strings.ToLower(singular(w.words[i].text))
	limit := min(len(short)+5, 2*len(short))
	first := i
	for first > 0 && i-first < limit && !w.words[first-1].stop {
		first--
	}
	if first == i {
		return -1
	}
	long := strings.ToLower(w.text.Clean[w.words[first].start:w.words[i-1].end])
	si, li := len(short)-1, len(long)-1
	for si >= 0 {
		c := short[si]
		if !wordByte(c) {
			si--
			continue
		}
		for li >= 0 && (long[li] != c || (si == 0 && li > 0 && wordByte(long[li-1]))) {
			li--
		}
		if li < 0 {
			return -1
		}
		li--
		si--
	}
	start := w.words[first].start + li + 1
	for j := first; j < i; j++ {
		if w.words[j].end > start {
			return j
		}
	}
	return -1
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// entriesEndingAt returns the vocabulary entries of the entity matches
// that cover exactly cleaned bytes [start, end).
func (w *doc) entriesEndingAt(start, end int) []int {
	var out []int
	a, b := w.text.Span(start, end)
	for _, fd := range w.order {
		if fd.entry < 0 || fd.kind == graph.Modality {
			continue
		}
		for _, m := range fd.mentions {
			if m.End == b && m.Start == a {
				out = append(out, fd.entry)
				break
			}
		}
	}
	return out
}

// wordClass marks the roles a word plays in the context patterns, by its
// lower-case form. Each word is looked up once, in wordClasses, when it
// is split off; the patterns then test bits rather than hash the word
// into one map per question, which was most of their time.
type wordClass uint32

const (
	introGerund  wordClass = 1 << iota // introGerunds
	introVerb                          // a form of introVerbs (isIntroVerb)
	namingWord                         // namingWords
	methodHead                         // methodHeads
	determiner                         // determiners
	datasetHead                        // datasetHeads
	afterOnVerb                        // notAfterOn
	listLeadWord                       // listLead
	commonCap                          // commonCapitalised
	unit                               // units
	notName                            // notNames
	taskHead                           // taskHeads and fieldHeads
	notModifier                        // notModifiers
	participle                         // participles
	taskGerund                         // a key of taskGerunds
	agentNoun                          // a key of agentHeads, or its plural
	negator                            // negators
)

var wordClasses = func() map[string]wordClass {
	m := map[string]wordClass{}
	for c, set := range map[wordClass]map[string]bool{
		introGerund: introGerunds, namingWord: namingWords, methodHead: methodHeads,
		determiner: determiners, datasetHead: datasetHeads, afterOnVerb: notAfterOn,
		listLeadWord: listLead, commonCap: commonCapitalised, unit: units, notName: notNames,
		taskHead: taskHeads, notModifier: notModifiers, participle: participles, negator: negators,
	} {
		for w := range set {
			m[w] |= c
		}
	}
	for w := range fieldHeads {
		m[w] |= taskHead
	}
	for w := range taskGerunds {
		m[w] |= taskGerund
	}
	for w := range agentHeads {
		m[w] |= agentNoun
		m[w+"s"] |= agentNoun
	}
	// Every word isIntroVerb accepts is a verb with one of these endings.
	for v := range introVerbs {
		for _, end := range []string{"", "s", "d", "ds", "es"} {
			if isIntroVerb(v + end) {
				m[v+end] |= introVerb
			}
		}
	}
	return m
}()

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
func (w *doc) name(defs map[string]*acronym) string {
	if s := w.titleName(); s != "" {
		return s
	}
	best, bestAt := "", -1
	consider := func(s string, at int) {
		if isDimensions(s) || notNames[strings.ToLower(s)] || strings.EqualFold(s, "ours") || compoundAdjective(s) {
			return
		}
		if s != "" && (bestAt < 0 || at < bestAt) {
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
		case wd.lower == "our" && i+2 < len(w.words) && w.words[i+1].class&methodHead != 0 && w.words[i+1].comma:
			if c := w.words[i+2]; (c.named || capitalised(c.text) && c.class&commonCap == 0) && !w.generic(c) {
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
		return best
	}
	return w.boldName()
}

// introducedBy reports whether the verb at word i has "we" or "this
// paper/work" as its subject (a few words back, for "we first propose").
func (w *doc) introducedBy(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch w.words[j].lower {
		case "we", "paper", "work", "study", "article":
			return true
		}
		if w.words[j].stop {
			return false
		}
	}
	// "we draw inspiration from MPC ... to propose X": the subject is
	// further back in the sentence.
	if i > 0 && w.words[i-1].lower == "to" {
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
func (w *doc) objectName(start int, defs map[string]*acronym) string {
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
	if c := w.words[obj]; c.named && c.comma && !c.open && !w.generic(c) && obj+1 < end && w.words[obj+1].class&determiner != 0 {
		return c.text
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
		break
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
	// We propose X, ... / We introduce LINO UniPS with ...
	if c := w.words[obj]; (c.named || capitalised(c.text) && c.class&commonCap == 0 && w.standsAlone(obj)) && !w.generic(c) && !c.open {
		name := c.text
		for k := obj + 1; k < end && !w.words[k-1].comma && !w.words[k-1].stop && w.words[k].named && !w.words[k].open; k++ {
			name = w.text.Clean[c.start:w.words[k].end]
		}
		return name
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
	return ""
}

// standsAlone reports whether word i ends a noun phrase, as a name does
// ("we propose Dolphin, a ...", "termed RIG."), rather than modifying the
// next word ("we propose Bayesian optimization").
func (w *doc) standsAlone(i int) bool {
	wd := w.words[i]
	if wd.comma || wd.stop || wd.close || i+1 >= len(w.words) {
		return true
	}
	next := w.words[i+1]
	return next.open || next.class&determiner != 0 || next.lower == "which" || next.lower == "that" || next.lower == "to" || next.lower == "for" || next.lower == "with"
}

// namedAfter returns the name given after "named", "termed" and the like:
// the acronym when a Long Form (ACR) follows, else the word itself.
func (w *doc) namedAfter(j int, defs map[string]*acronym) string {
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
	return ""
}

// generic reports whether a word is a vocabulary concept rather than a
// coined name: a match of a generic (lower-case canonical) task or
// technique, or an acronym defined as one.
func (w *doc) generic(wd word) bool {
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
func (w *doc) boldName() string {
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

var datasetHeads = map[string]bool{
	"dataset": true, "datasets": true, "benchmark": true, "benchmarks": true, "corpus": true,
	"testbed": true, "suite": true, "bench": true, "corpora": true, "leaderboard": true,
}

var sizeSuffix = regexp.MustCompile(`^\S+-\d+(\.\d+)?[KM]$`)

var notAfterOn = map[string]bool{
	"based": true, "built": true, "relies": true, "rely": true, "relying": true, "depend": true,
	"depends": true, "focus": true, "focuses": true, "focused": true, "conditioned": true,
	"run": true, "runs": true, "deployed": true, "implemented": true, "operate": true, "operates": true,
}

// datasets finds named datasets and benchmarks that the vocabulary does
// not list, from their context: "X, a large-scale dataset", "the X
// benchmark", "dataset X", "GIQA-160K", "on X and Y" after results, and
// the other names of a list that holds one dataset.
func (w *doc) datasets(defs map[string]*acronym, name string) {
	is := make([]bool, len(w.words))
	for i := range w.words {
		wd := &w.words[i]
		if i < w.bodyWord || !w.candidate(i, defs) {
			continue
		}
		lower := wd.lower
		switch {
		case hasDigit(wd.text) && sizeSuffix.MatchString(wd.text) && wd.named:
			is[i] = true
		case strings.Contains(lower, "bench") || strings.HasSuffix(lower, "dataset") || strings.HasSuffix(lower, "-qa"):
			is[i] = true
		case w.afterDatasetHead(i):
			is[i] = true
		case i+1 < len(w.words) && w.words[i+1].class&datasetHead != 0 && !wd.comma && !wd.stop && !w.inLongForm(i):
			is[i] = true
		case w.appositiveDataset(i):
			is[i] = true
		case wd.text != name && i > 0 && (w.words[i-1].lower == "on" || w.words[i-1].lower == "in") && !w.words[i-1].stop && wd.named && !(i > 1 && w.words[i-2].class&afterOnVerb != 0) && !wd.open:
			is[i] = true
		}
	}
	// A list with one dataset in it is a list of datasets.
	for changed := true; changed; {
		changed = false
		for i := range w.words {
			if !is[i] {
				continue
			}
			for _, j := range []int{i - 1, i + 1} {
				if j < w.bodyWord || j >= len(w.words) || is[j] || !(w.words[j].named || capitalised(w.words[j].text)) || !w.candidate(j, defs) || w.words[j].text == name {
					continue
				}
				lo, hi := min(i, j), max(i, j)
				if w.words[lo].comma || (lo > 0 && (w.words[hi-1].lower == "and" || w.words[hi-1].lower == "or")) {
					is[j] = true
					changed = true
				}
			}
			// "X, Y, and Z": step over the conjunction.
			if i+2 < len(w.words) && w.words[i].comma && (w.words[i+1].lower == "and" || w.words[i+1].lower == "or") {
				if k := i + 2; !is[k] && w.words[k].named && w.candidate(k, defs) {
					is[k] = true
					changed = true
				}
			}
			if i+2 < len(w.words) && !w.words[i].comma && (w.words[i+1].lower == "and" || w.words[i+1].lower == "or") {
				if k := i + 2; !is[k] && w.words[k].named && w.candidate(k, defs) {
					is[k] = true
					changed = true
				}
			}
		}
	}
	for i, ok := range is {
		if !ok {
			continue
		}
		wd := w.words[i]
		end := wd.end
		if i+1 < len(w.words) && !wd.comma && !wd.stop && (w.words[i+1].text == "Bench" || w.words[i+1].text == "Benchmark") {
			end = w.words[i+1].end
		}
		w.add(graph.Dataset, w.text.Clean[wd.start:end], -1, wd.start, end)
	}
}

// listLead are the words that may stand between "benchmarks" and the
// names it introduces: "benchmarks (e.g., X, Y)", "datasets such as X".
var listLead = map[string]bool{"e.g": true, "e.g.": true, "i.e": true, "i.e.": true, "such": true, "as": true, "including": true, "like": true, "namely": true, "eg": true}

// afterDatasetHead reports whether word i follows "dataset" or
// "benchmarks", directly ("the synthetic dataset BEDLAM") or through a
// list lead ("benchmarks (e.g., DiLiGenT, ...").
func (w *doc) afterDatasetHead(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		prev := w.words[j]
		if prev.class&datasetHead != 0 {
			return !prev.stop && (!prev.comma || j < i-1)
		}
		if prev.class&listLeadWord == 0 || prev.stop && prev.lower != "e.g" && prev.lower != "i.e" {
			return false
		}
	}
	return false
}

// checkpoints links the named model checkpoints an abstract uses
// ("Llama3-70B", "Qwen2.5-7B-Instruct") as techniques: GUIDELINES.md
// counts named prior systems used as building blocks as techniques, and
// a parameter count or tuning suffix marks a model, not a dataset.
func (w *doc) checkpoints(name string) {
	for i := range w.words {
		wd := &w.words[i]
		if w.taken[wd.start] || wd.text == name || !wd.named || !isModelName(wd.text) {
			continue
		}
		if hasOddChar(wd.text) {
			continue
		}
		w.add(graph.Technique, wd.text, -1, wd.start, wd.end)
	}
}

// candidate reports whether a word may name a new dataset: a coined name
// or capitalised word that no vocabulary entry or defined acronym
// already explains, and not a number, size or percentage.
func (w *doc) candidate(i int, defs map[string]*acronym) bool {
	if c := w.cand[i]; c != 0 {
		return c > 0
	}
	ok := w.isCandidate(i, defs)
	w.cand[i] = -1
	if ok {
		w.cand[i] = 1
	}
	return ok
}

func (w *doc) isCandidate(i int, defs map[string]*acronym) bool {
	wd := &w.words[i]
	if w.taken[wd.start] || len(wd.text) < 2 {
		return false
	}
	if !wd.named {
		// A capitalised word opening a sentence is an English word.
		if !capitalised(wd.text) || i == 0 || w.words[i-1].stop {
			return false
		}
	}
	if wd.class&(commonCap|datasetHead|unit|notName) != 0 || hasOddChar(wd.text) || citationKey(wd.text) {
		return false
	}
	if i+1 < len(w.words) && fileWords[w.words[i+1].lower] {
		return false // "in USD format"
	}
	if a := defs[singular(wd.text)]; a != nil && a.long >= 0 {
		return false
	}
	if hasDigit(wd.text) && (isModelSize(wd.text) || isDimensions(wd.text)) || isModelName(wd.text) {
		return false
	}
	return !compoundAdjective(wd.text)
}

// fileWords after a name make it a file format or a language, not a
// dataset: "in USD format", "in JSON files".
var fileWords = setOf("format formats file files")

// citationKey reports whether s is an alphabetic citation key, "AZ22"
// or "FGQ+23": capitals, an optional "+", two digits.
func citationKey(s string) bool {
	n := len(s)
	if n < 4 || s[n-1] < '0' || s[n-1] > '9' || s[n-2] < '0' || s[n-2] > '9' {
		return false
	}
	body := strings.TrimSuffix(s[:n-2], "+")
	for i := 0; i < len(body); i++ {
		if body[i] < 'A' || body[i] > 'Z' {
			return false
		}
	}
	return len(body) >= 2
}

// compoundAdjective reports whether w ends in a lower-case hyphenated
// part, as "API-based", "LLM-driven" and "GPU-friendly" do: such words
// modify a noun and name nothing themselves.
func compoundAdjective(w string) bool {
	i := strings.LastIndexByte(w, '-')
	if i < 0 || i == len(w)-1 {
		return false
	}
	for _, c := range []byte(w[i+1:]) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return len(w)-i-1 >= 3
}

// The three matchers below are hand-written forms of the regular
// expressions in their comments (TestShapes holds them to those): they
// run on most capitalised words, where the regexp engine took 6% of
// Extract's instructions.

// hasOddChar reports whether s has one of @%$/=+<>'’(), which no name
// of a dataset or checkpoint has: strings.ContainsAny, without decoding
// each rune.
func hasOddChar(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && oddChar[c] || c == 0xE2 && strings.HasPrefix(s[i:], "’") {
			return true
		}
	}
	return false
}

var oddChar = func() (t [utf8.RuneSelf]bool) {
	for _, c := range []byte("@%$/=+<>'()") {
		t[c] = true
	}
	return t
}()

// isModelName reports whether s names a checkpoint by its size or
// tuning, `[-_ ]\d+(\.\d+)?[Bb](-|$)|-(Instruct|Chat|Base|it)(-|$)`:
// "Llama3-70B", "Qwen2.5-7B-Instruct", "Mistral-7B-Instruct",
// "Gemma-2-9B-it".
func isModelName(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '-':
			rest := s[i+1:]
			for _, t := range [...]string{"Instruct", "Chat", "Base", "it"} {
				if strings.HasPrefix(rest, t) && endsPart(rest[len(t):]) {
					return true
				}
			}
			fallthrough
		case '_', ' ':
			if n := number(s[i+1:]); n > 0 && n < len(s)-i-1 && (s[i+1+n] == 'B' || s[i+1+n] == 'b') && endsPart(s[i+2+n:]) {
				return true
			}
		}
	}
	return false
}

// endsPart reports whether rest, what follows a part of a name, is
// empty or starts a new part with a hyphen.
func endsPart(rest string) bool {
	return rest == "" || rest[0] == '-'
}

// number returns the length of the number that s starts with,
// `\d+(\.\d+)?`, or 0.
func number(s string) int {
	n := digits(s)
	if n > 0 && n+1 < len(s) && s[n] == '.' {
		if f := digits(s[n+1:]); f > 0 {
			n += 1 + f
		}
	}
	return n
}

// digits returns the number of ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}

// isDimensions reports whether s is "2D", "3D", "4D" or the like,
// `^\d+(\.\d+)?[Dd](-\w+)?$`, as in "3D-aware".
func isDimensions(s string) bool {
	n := number(s)
	if n == 0 || n >= len(s) || s[n] != 'D' && s[n] != 'd' {
		return false
	}
	rest := s[n+1:]
	if rest == "" {
		return true
	}
	if rest[0] != '-' || len(rest) == 1 {
		return false
	}
	for i := 1; i < len(rest); i++ {
		if c := rest[i]; !asciiWord[c] && c != '_' {
			return false
		}
	}
	return true
}

// isModelSize reports whether s is a size, a count or a version rather
// than a name, `(?i)^[\d.]+[kmbt]?$|\d+(\.\d+)?B$|^[A-Z]\d$`: "7B",
// "1.5", "100k", "V2". Case folding lets K stand for the Kelvin sign
// and S for the long s.
func isModelSize(s string) bool {
	// ^[\d.]+[kmbt]?$
	body := s
	if n := len(s); n > 0 && strings.IndexByte("kKmMbBtT", s[n-1]) >= 0 {
		body = s[:n-1]
	} else if strings.HasSuffix(s, "\u212A") {
		body = s[:len(s)-len("\u212A")]
	}
	if body != "" && strings.Trim(body, "0123456789.") == "" {
		return true
	}
	// \d+(\.\d+)?B$, unanchored at the start: a digit before the b.
	if n := len(s); n >= 2 && (s[n-1] == 'b' || s[n-1] == 'B') && '0' <= s[n-2] && s[n-2] <= '9' {
		return true
	}
	// ^[A-Z]\d$
	r, size := utf8.DecodeRuneInString(s)
	letter := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '\u212A' || r == '\u017F'
	return letter && len(s) == size+1 && '0' <= s[size] && s[size] <= '9'
}

// notNames are acronyms and words that look like coined names in
// abstracts but name metrics, fields, hardware or organisations, never a
// dataset.
var notNames = map[string]bool{
	"ai": true, "ml": true, "nlp": true, "cv": true, "rl": true, "gui": true, "guis": true, "ood": true, "rgb": true, "rgb-d": true,
	"kl": true, "eu": true, "uk": true, "us": true, "usa": true, "json": true, "api": true, "apis": true, "cpu": true, "cpus": true,
	"psnr": true, "ssim": true, "lpips": true, "fid": true, "fvd": true, "auroc": true, "auc": true, "auprc": true, "bleu": true,
	"rouge": true, "meteor": true, "cider": true, "map": true, "miou": true, "iou": true, "mae": true, "mse": true, "rmse": true,
	"h100": true, "a100": true, "v100": true, "rtx": true, "tpu": true, "github": true, "huggingface": true, "hugging": true,
	"english": true, "chinese": true, "korean": true, "japanese": true, "french": true, "german": true, "spanish": true,
	"arabic": true, "hindi": true, "russian": true, "italian": true, "portuguese": true, "vietnamese": true, "turkish": true,
	"african": true, "european": true, "american": true, "asian": true, "indian": true, "multilingual": true, "openai": true, "google": true, "meta": true, "deepmind": true, "anthropic": true,
	"sota": true, "llm": true, "llms": true, "vlm": true, "vlms": true, "mllm": true, "mllms": true, "sft": true, "cot": true,
	"pass@1": true, "top-1": true, "top-5": true, "f1": true, "em": true, "acc": true, "ppl": true, "iclr": true, "neurips": true,
	"icml": true, "cvpr": true, "acl": true, "emnlp": true, "arxiv": true, "hard": true, "easy": true, "medium": true,
	"pde": true, "pdes": true, "ode": true, "odes": true, "sde": true, "sdes": true, "gpu": true, "gpus": true,
}

// units are measures that look like coined names ("MACs", "FLOPs").
var units = map[string]bool{"macs": true, "flops": true, "gflops": true, "tflops": true, "gpus": true, "gpu": true, "tpus": true, "fps": true, "params": true, "gmacs": true}

// appositiveDataset reports whether word i is followed by ", a/an/the
// ... dataset" (within a few words of the same clause).
func (w *doc) appositiveDataset(i int) bool {
	wd := w.words[i]
	j := i + 1
	if wd.close || !wd.comma {
		// "MoSu (Most Replayed ...), the first large-scale benchmark"
		if j < len(w.words) && w.words[j].open {
			for j < len(w.words) && !w.words[j].close && j-i < 12 {
				j++
			}
			if j >= len(w.words) || !w.words[j].comma {
				return false
			}
			j++
		} else if !wd.comma {
			return false
		}
	}
	if j >= len(w.words) || w.words[j].class&determiner == 0 {
		return false
	}
	for k := j + 1; k < len(w.words) && k-j <= 8; k++ {
		if w.words[k].class&datasetHead != 0 {
			return true
		}
		// "EditScore, an efficient model to evaluate ... benchmark": the
		// appositive names a method.
		if w.words[k].stop || w.words[k].comma || w.words[k].class&methodHead != 0 {
			return false
		}
	}
	return false
}

// inLongForm reports whether word i is inside a run of capitalised words,
// as the long form of a name is ("3D Motion and Animation Dataset
// (BigMaQ)", "Rectified Decoupled Dataset Distillation"), rather than a
// name of its own ("the Weather dataset").
func (w *doc) inLongForm(i int) bool {
	wd := w.words[i]
	if wd.named || i == 0 || i == w.bodyWord {
		return false
	}
	p := w.words[i-1]
	return !p.stop && !p.comma && (capitalised(p.text) || p.named)
}
