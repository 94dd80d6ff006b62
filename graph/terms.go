package graph

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopWords are common English words left out of the full-text index: they
// occur in nearly every abstract, so they cost postings and add nothing to
// BM25's ranking.
var stopWords = map[string]bool{
	"an": true, "and": true, "are": true, "as": true, "at": true, "be": true,
	"but": true, "by": true, "for": true, "from": true, "has": true, "have": true,
	"in": true, "into": true, "is": true, "it": true, "its": true, "of": true,
	"on": true, "or": true, "such": true, "that": true, "the": true, "their": true,
	"then": true, "there": true, "these": true, "this": true, "to": true,
	"was": true, "we": true, "were": true, "which": true, "while": true,
	"with": true, "our": true, "can": true, "not": true, "than": true, "also": true,
}

// terms returns the full-text terms of text in order, repeats kept: text
// is lower-cased and split at every character other than a letter or a
// digit; stop words and terms shorter than two characters are dropped. The
// index (0x0A, 0x0B, 0x0E) and queries must both use it so they agree.
// It returns nil for text without terms.
func terms(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		f = strings.ToLower(f)
		if utf8.RuneCountInString(f) < 2 || stopWords[f] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// normName returns the form of an entity name or alias kept in the name
// index (0x07): lower-cased, every run of white space or control
// characters collapsed to one space, trimmed; punctuation is kept, so
// "GPT-4" and "GPT 4" stay apart there (the slug form, also indexed,
// joins them). Lookups and prefix searches normalise their input with it.
func normName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
