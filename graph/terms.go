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

// stopWordLen is the length of the longest stop word: longer terms need
// no lookup.
var stopWordLen = func() int {
	n := 0
	for w := range stopWords {
		n = max(n, len(w))
	}
	return n
}()

// terms returns the full-text terms of text in order, repeats kept: text
// is lower-cased and split at every character other than a letter or a
// digit; stop words and terms shorter than two characters are dropped. The
// index (0x0A, 0x0B, 0x0E) and queries must both use it so they agree.
// It returns nil for text without terms.
func terms(text string) []string {
	var out []string
	eachTerm(text, nil, func(t []byte) { out = append(out, string(t)) })
	return out
}

// eachTerm calls fn with each term of text, as terms returns them, in a
// buffer that buf lends and fn must not keep: indexing a paper counts its
// terms in a map, and a lookup with string(t) allocates nothing.
func eachTerm(text string, buf []byte, fn func(t []byte)) []byte {
	emit := func(t []byte) {
		// A rune takes at most 4 bytes: only shorter terms need counting.
		if len(t) < 5 && utf8.RuneCount(t) < 2 || len(t) <= stopWordLen && stopWords[string(t)] {
			return
		}
		fn(t)
	}
	t := buf[:0]
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			// ASCII, most of any abstract: no decoding, no tables.
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				emit(t)
				t = t[:0]
				continue
			}
			t = append(t, c)
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			emit(t)
			t = t[:0]
			continue
		}
		t = utf8.AppendRune(t, unicode.ToLower(r))
	}
	emit(t)
	return t
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
