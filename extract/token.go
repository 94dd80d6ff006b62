package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word of a cleaned abstract: a run of letters and digits.
// Punctuation, hyphens and spaces separate tokens and are not tokens, so
// "vision-language" and "vision language" tokenize alike.
type token struct {
	start, end int    // byte offsets in the cleaned text
	text       string // as written
	key        uint64 // normHash(text): the normalised form's key in the vocabulary
}

// tokenize splits s into tokens.
func tokenize(s string) []token {
	return appendTokens(make([]token, 0, len(s)/6), s, "")
}

// appendTokens appends the tokens of s to toks. lower is s lower-cased
// with the same byte offsets (strings.ToLower(s) when its length is
// len(s)), which spares lower-casing each token again; "" when unknown.
func appendTokens(toks []token, s, lower string) []token {
	start := -1
	for i := 0; i < len(s); {
		var word bool
		at := i
		if c := s[i]; c < utf8.RuneSelf {
			word = asciiWord[c]
			i++
		} else {
			r, n := utf8.DecodeRuneInString(s[i:])
			word = unicode.IsLetter(r) || unicode.IsDigit(r)
			i += n
		}
		switch {
		case word && start < 0:
			start = at
		case !word && start >= 0:
			toks = append(toks, newToken(s, lower, start, at))
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, newToken(s, lower, start, len(s)))
	}
	return toks
}

// asciiWord marks the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

func newToken(s, lower string, start, end int) token {
	text := s[start:end]
	if lower != "" {
		return token{start: start, end: end, text: text, key: lowerHash(lower[start:end])}
	}
	return token{start: start, end: end, text: text, key: normHash(text)}
}

// normToken lower-cases a word and drops a final plural "s" the way the
// scorer does (words longer than three letters, not ending in "ss"), so
// that "LLMs" and "LLM", "benchmarks" and "benchmark" are one key.
func normToken(w string) string {
	lower := w
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			lower = strings.ToLower(w)
			break
		}
	}
	if n := len(lower); n > 3 && lower[n-1] == 's' && lower[n-2] != 's' {
		lower = lower[:n-1]
	}
	return lower
}

// normHash returns the 64-bit FNV-1a hash of normToken(w) without
// building the string: tokens are looked up in the vocabulary by this key,
// which costs a fraction of a string-keyed map lookup. Two different
// normalised tokens sharing a key (one chance in 2^64 per pair) would
// make them match alike; with tens of thousands of vocabulary tokens that
// is not a practical concern.
func normHash(w string) uint64 {
	var stack [64]byte
	b := stack[:0]
	for i := 0; i < len(w); {
		c := w[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(w[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += n
	}
	return lowerHash(b)
}

// lowerHash is normHash of a word already lower-cased.
func lowerHash[S string | []byte](b S) uint64 {
	if n := len(b); n > 3 && b[n-1] == 's' && b[n-2] != 's' {
		b = b[:n-1]
	}
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(b); i++ {
		h ^= uint64(b[i])
		h *= prime
	}
	return h
}

// singular returns w without a final plural "s" after an upper-case
// letter or digit ("LLMs" -> "LLM"), for case-sensitive acronym matches.
func singular(w string) string {
	if n := len(w); n > 2 && w[n-1] == 's' {
		c := w[n-2]
		if ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			return w[:n-1]
		}
	}
	return w
}

// normPhrase normalises a phrase the way tokens are normalised, joined
// by single spaces; it is the key of the vocabulary's alias table.
func normPhrase(s string) string {
	toks := tokenize(s)
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = normToken(t.text)
	}
	return strings.Join(parts, " ")
}

// hasUpper reports whether s has an upper-case letter.
func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// countUpper returns the number of upper-case letters in s.
func countUpper(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n
}
