package extract

import (
	"context"
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
// returns the definitions by short form. It stops early, with the
// definitions so far, once ctx is done.
func (w *work) resolveAcronyms(ctx context.Context) map[string]*acronym {
	defs := map[string]*acronym{}
	for i := range w.words {
		wd := &w.words[i]
		if !wd.open || !(wd.close || wd.comma) || i == 0 || !shortForm(wd.text) {
			continue
		}
		// Each definition scans the text after it and what was linked
		// before it.
		if ctx.Err() != nil {
			return defs
		}
		a := &acronym{word: i, long: w.longForm(i)}
		if a.long >= 0 {
			a.entries = w.entriesEndingAt(w.words[a.long].start, w.words[i-1].end)
		}
		key := singular(wd.text)
		if _, ok := defs[key]; !ok {
			defs[key] = a
			if a.long >= 0 {
				// Also where the long form is known: after "Long-Tailed
				// Recognition (LTR)", LTR is not learning to rank.
				w.dropClashes(key, w.text.Clean[w.words[a.long].start:w.words[i-1].end], a.entries)
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
// something else than the entries keep the long form names: in "Temporal Semantic Entropy (TSE)", TSE is not target
// speaker extraction. An entity whose name's words all occur in the long
// form keeps them: "dLLMs" after "Diffusion large language models" is a
// diffusion language model.
func (w *work) dropClashes(short, long string, keep []int) {
	used := slices.ContainsFunc(w.order, func(f *found) bool {
		return f.entry >= 0 && slices.ContainsFunc(f.mentions, func(m graph.Mention) bool { return singular(m.Text) == short })
	})
	if !used {
		return // nothing links the short form: the common case, without allocating
	}
	in := lowerWords(long)
	for i := 0; i < len(w.order); i++ {
		f := w.order[i]
		if f.entry < 0 || slices.Contains(keep, f.entry) || !slices.ContainsFunc(lowerWords(f.name), func(s string) bool { return !slices.Contains(in, s) }) {
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
func (w *work) longForm(i int) int {
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
		for li >= 0 && (long[li] != c || (si == 0 && li > 0 && inWord(long[:li]))) {
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

// inWord reports whether s ends in a letter or digit, so that what
// follows it does not start a word: a curly quote before "“Routing
// Manifold Alignment (RoMA)”" leaves the R at a word's start.
func inWord(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// entriesEndingAt returns the vocabulary entries of the entity matches
// that cover exactly cleaned bytes [start, end).
func (w *work) entriesEndingAt(start, end int) []int {
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
