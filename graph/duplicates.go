package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// DuplicateReason says why two entities are likely one concept.
type DuplicateReason uint8

// Reasons of Duplicates, in the order it lists them.
const (
	// AliasOf: one entity's name is an alias of the other, of its kind.
	AliasOf DuplicateReason = iota + 1
	// AcronymOf: one entity's name is an acronym of the other's, of its
	// kind ("PEFT", "parameter-efficient fine-tuning").
	AcronymOf
	// Spelling: lower-case names of one kind that differ by one edit, or
	// only in the endings and separators of their words ("fine-tuning"
	// and "finetuning", "benchmark" and "benchmarks").
	Spelling
	// AcrossKinds: the same name in two kinds ("watermarking" as a task
	// and as a technique).
	AcrossKinds
)

var reasonNames = [...]string{AliasOf: "alias", AcronymOf: "acronym", Spelling: "spelling", AcrossKinds: "across-kinds"}

// String returns the reason's name: "alias", "acronym", "spelling" or
// "across-kinds".
func (r DuplicateReason) String() string {
	if r >= AliasOf && r <= AcrossKinds {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// DuplicateQuery selects pairs of Store.Duplicates.
type DuplicateQuery struct {
	Kind   Kind            // pairs with an entity of this kind; 0 for any
	Reason DuplicateReason // pairs of this reason; 0 for any
}

// Duplicate is a pair of entities that are likely one concept.
type Duplicate struct {
	// A has no more papers than B (by id when they tie): the one a
	// curator would merge into B, unless A's name is the better one.
	A, B   Entity
	Reason DuplicateReason
	// Detail says what matched, for people: "PEFT is an acronym of
	// parameter-efficient fine-tuning", "edit distance 1".
	Detail string
}

// Duplicates returns the pairs of es that are likely the same concept,
// each pair once with its first reason in the order of DuplicateReason,
// sorted by reason, then by the papers of the pair (PaperCount, most
// first), then by ids. It returns nil when there are none. Its cost grows
// with the number of entities times their name lengths: names are
// grouped by what they would share, not compared pair by pair.
func Duplicates(es []Entity) []Duplicate {
	d := dupFinder{es: es, seen: make(map[[2]int]bool)}
	d.aliases()
	d.acronyms()
	d.spelling()
	d.acrossKinds()
	slices.SortFunc(d.out, func(x, y Duplicate) int {
		return cmp.Or(cmp.Compare(x.Reason, y.Reason),
			cmp.Compare(y.A.PaperCount+y.B.PaperCount, x.A.PaperCount+x.B.PaperCount),
			strings.Compare(x.A.ID(), y.A.ID()), strings.Compare(x.B.ID(), y.B.ID()))
	})
	return d.out
}

type dupFinder struct {
	es   []Entity
	seen map[[2]int]bool
	out  []Duplicate
}

// add records the pair i, j unless it has a reason already.
func (d *dupFinder) add(i, j int, r DuplicateReason, detail string) {
	if i == j {
		return
	}
	key := [2]int{min(i, j), max(i, j)}
	if d.seen[key] {
		return
	}
	d.seen[key] = true
	a, b := d.es[i], d.es[j]
	if a.PaperCount > b.PaperCount || a.PaperCount == b.PaperCount && a.ID() > b.ID() {
		a, b = b, a
	}
	d.out = append(d.out, Duplicate{A: a, B: b, Reason: r, Detail: detail})
}

// fold returns name lower-cased with every run of characters other than
// letters and digits replaced by one space, trimmed.
func fold(name string) string { return strings.ReplaceAll(Slug(name), "-", " ") }

func (d *dupFinder) aliases() {
	type kindName struct {
		k    Kind
		name string
	}
	owners := make(map[kindName][]int)
	for i, e := range d.es {
		for _, a := range e.Aliases {
			owners[kindName{e.Kind, fold(a)}] = append(owners[kindName{e.Kind, fold(a)}], i)
		}
	}
	for i, e := range d.es {
		for _, j := range owners[kindName{e.Kind, fold(e.Name)}] {
			d.add(i, j, AliasOf, fmt.Sprintf("%s is an alias of %s", e.Name, d.es[j].Name))
		}
	}
}

// acronymWord reports whether name looks like an acronym: one word of 2
// to 10 letters, more than half of them upper case ("PEFT", "LoRA",
// "CoT", "LLMs"); it returns the letters without a plural s.
func acronymWord(name string) ([]rune, bool) {
	rs := []rune(name)
	if n := len(rs); n > 2 && rs[n-1] == 's' && unicode.IsUpper(rs[n-2]) {
		rs = rs[:n-1]
	}
	if len(rs) < 2 || len(rs) > 10 {
		return nil, false
	}
	upper := 0
	for _, r := range rs {
		if !unicode.IsLetter(r) {
			return nil, false
		}
		if unicode.IsUpper(r) {
			upper++
		}
	}
	return rs, 2*upper > len(rs)
}

// longFormWords returns the lower-case words of name when it may be the
// long form of an acronym: two words or more, none with digits or more
// than one capital ("COCO-Object" and "GPT-4 judge" are not).
func longFormWords(name string) []string {
	raw := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(raw) < 2 {
		return nil
	}
	words := make([]string, len(raw))
	for i, w := range raw {
		upper := 0
		for _, r := range w {
			if unicode.IsDigit(r) {
				return nil
			}
			if unicode.IsUpper(r) {
				upper++
			}
		}
		if upper > 1 {
			return nil
		}
		words[i] = strings.ToLower(w)
	}
	return words
}

// acronymStopWords may give no letter to an acronym ("RLHF" for
// "reinforcement learning from human feedback").
var acronymStopWords = map[string]bool{"a": true, "an": true, "and": true, "by": true, "for": true, "from": true, "in": true, "of": true, "on": true, "the": true, "to": true, "with": true}

// matchAcronym reports whether acr spells words (lower case): each capital
// of acr is the first letter of a word, in order; a small letter is the
// first letter of a word or the next letter of the word the letter before
// it is in ("LoRA": low rank adaptation; "CoT": chain of thought); every
// word gives a letter but stop words, which may give none.
func matchAcronym(acr []rune, words []string) bool {
	var match func(i, w, used int) bool
	// i: next letter of acr; w: the word the last letter was in (or -1);
	// used: letters of words[w] given so far.
	match = func(i, w, used int) bool {
		if i == len(acr) {
			for _, rest := range words[w+1:] {
				if !acronymStopWords[rest] {
					return false
				}
			}
			return true
		}
		c := unicode.ToLower(acr[i])
		if w >= 0 && !unicode.IsUpper(acr[i]) {
			if r, n := utf8.DecodeRuneInString(words[w][used:]); n > 0 && r == c && match(i+1, w, used+n) {
				return true
			}
		}
		for next := w + 1; next < len(words); next++ {
			if r, n := utf8.DecodeRuneInString(words[next]); r == c && match(i+1, next, n) {
				return true
			}
			if !acronymStopWords[words[next]] {
				break
			}
		}
		return false
	}
	return match(0, -1, 0)
}

func (d *dupFinder) acronyms() {
	type kindLetter struct {
		k Kind
		c rune
	}
	// Long forms by kind and first letter.
	long := make(map[kindLetter][]int)
	words := make([][]string, len(d.es))
	for i, e := range d.es {
		ws := longFormWords(e.Name)
		if ws == nil {
			continue
		}
		words[i] = ws
		for _, w := range ws {
			// A stop word may open the long form and give no letter.
			r, _ := utf8.DecodeRuneInString(w)
			long[kindLetter{e.Kind, r}] = append(long[kindLetter{e.Kind, r}], i)
			if !acronymStopWords[w] {
				break
			}
		}
	}
	for i, e := range d.es {
		acr, ok := acronymWord(e.Name)
		if !ok {
			continue
		}
		for _, j := range long[kindLetter{e.Kind, unicode.ToLower(acr[0])}] {
			if matchAcronym(acr, words[j]) {
				d.add(i, j, AcronymOf, fmt.Sprintf("%s is an acronym of %s", e.Name, d.es[j].Name))
			}
		}
	}
}

// spellingForm returns the words of name stemmed and joined without
// separators: names with the same form differ only in word endings and
// separators.
func spellingForm(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(fold(name)) {
		b.WriteString(english.Stem(w, false))
	}
	return b.String()
}

// digits returns the digits of s, in order: names that differ in them
// ("GPT-3", "GPT-4") are different things.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

func (d *dupFinder) spelling() {
	type kindForm struct {
		k    Kind
		form string
	}
	forms := make(map[kindForm][]int)
	// One-deletion neighbourhoods: two strings within one edit share one
	// (or one is the other's), so only those are compared.
	dels := make(map[kindForm][]int)
	for i, e := range d.es {
		forms[kindForm{e.Kind, spellingForm(e.Name)}] = append(forms[kindForm{e.Kind, spellingForm(e.Name)}], i)
		name := fold(e.Name)
		if e.Name != strings.ToLower(e.Name) || utf8.RuneCountInString(name) < 5 {
			// Proper names one letter apart are usually different things
			// ("LLaMA", "LLaVA"), and so are short words.
			continue
		}
		rs := []rune(name)
		dels[kindForm{e.Kind, name}] = append(dels[kindForm{e.Kind, name}], i)
		for p := range rs {
			v := string(rs[:p]) + string(rs[p+1:])
			dels[kindForm{e.Kind, v}] = append(dels[kindForm{e.Kind, v}], i)
		}
	}
	for _, is := range sortedGroups(forms) {
		for x, i := range is {
			for _, j := range is[x+1:] {
				if digits(d.es[i].Name) == digits(d.es[j].Name) {
					d.add(i, j, Spelling, "the same words but for endings and separators")
				}
			}
		}
	}
	for _, is := range sortedGroups(dels) {
		for x, i := range is {
			for _, j := range is[x+1:] {
				a, b := d.es[i].Name, d.es[j].Name
				if i != j && digits(a) == digits(b) && editDistance(fold(a), fold(b)) == 1 {
					d.add(i, j, Spelling, "edit distance 1")
				}
			}
		}
	}
}

func (d *dupFinder) acrossKinds() {
	bySlug := make(map[string][]int)
	for i, e := range d.es {
		bySlug[Slug(e.Name)] = append(bySlug[Slug(e.Name)], i)
	}
	for _, is := range sortedGroups(bySlug) {
		for x, i := range is {
			for _, j := range is[x+1:] {
				a, b := d.es[i], d.es[j]
				if a.Kind != b.Kind {
					d.add(i, j, AcrossKinds, fmt.Sprintf("%s is a %s and a %s", a.Name, a.Kind, b.Kind))
				}
			}
		}
	}
}

// sortedGroups returns the groups of m with two members or more, each
// sorted and without repeats, in the order of their first members: the
// reason found first for a pair must not depend on map order.
func sortedGroups[K comparable](m map[K][]int) [][]int {
	var out [][]int
	for _, is := range m {
		is = slices.Compact(slices.Sorted(slices.Values(is)))
		if len(is) > 1 {
			out = append(out, is)
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out
}

// editDistance returns the Levenshtein distance of a and b in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
