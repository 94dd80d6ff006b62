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
	key        uint64 // FNV-1a of normToken(text): the key in the vocabulary
}

// tokenize splits s into tokens.
func tokenize(s string) []token {
	p := parts{toks: make([]token, 0, len(s)/6+1), buf: make([]byte, 0, len(s))}
	p.split(s, false)
	return p.toks
}

// parts are the tokens and words of one text, found in one pass over it:
// lower-casing, tokenising, hashing tokens and splitting words each read
// every byte, and as separate passes they were a quarter of Extract's time.
type parts struct {
	toks  []token
	words []word
	buf   []byte // the text lower-cased rune by rune
	// lower is buf as a string when it has the byte offsets of the text,
	// else "".
	lower string
}

// split sets p to the tokens of s and, when withWords, its words, reusing
// p's arrays. A word's lower-case form is a substring of s lower-cased
// when that keeps every byte offset, as it does for nearly every text,
// and its own strings.ToLower otherwise. Vocabulary phrases need only
// tokens: loading splits tens of thousands of them.
func (p *parts) split(s string, withWords bool) {
	toks, words, buf := p.toks[:0], p.words[:0], p.buf[:0]
	// same reports whether buf still has the byte offsets of s.
	same := true
	// The open token starts at tok in s (-1: none) and at tokBuf in buf;
	// h is the FNV-1a hash of its lower-cased bytes so far.
	tok, tokBuf := -1, 0
	var h uint64
	wordStart := 0
	// cased is non-zero when the open word has an upper-case or a
	// non-ASCII byte: a word with neither is not nameLike.
	var cased byte
	for i := 0; i < len(s); {
		c := s[i]
		if asciiWord[c] {
			if tok < 0 {
				tok, tokBuf, h = i, len(buf), fnvOffset
			}
			// The rest of an ASCII run in this tighter loop: most of
			// the text.
			for {
				l := lowerASCII[c]
				cased |= l ^ c
				buf = append(buf, l)
				h = (h ^ uint64(l)) * fnvPrime
				if i++; i == len(s) {
					break
				}
				if c = s[i]; !asciiWord[c] {
					break
				}
			}
			continue
		}
		if c < utf8.RuneSelf {
			// Not a letter or digit, and not changed by lower-casing.
			if tok >= 0 {
				toks = append(toks, token{start: tok, end: i, text: s[tok:i], key: tokenKey(h, buf[tokBuf:])})
				tok = -1
			}
			buf = append(buf, c)
			if c == ' ' && withWords {
				words = appendWord(words, s, wordStart, i, cased != 0)
				wordStart, cased = i+1, 0
			}
			i++
			continue
		}
		cased = c
		r, size := utf8.DecodeRuneInString(s[i:])
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !letter && tok >= 0 {
			toks = append(toks, token{start: tok, end: i, text: s[tok:i], key: tokenKey(h, buf[tokBuf:])})
			tok = -1
		}
		if letter && tok < 0 {
			tok, tokBuf, h = i, len(buf), fnvOffset
		}
		at := len(buf)
		if r == utf8.RuneError && size == 1 {
			// strings.ToLower writes U+FFFD for the byte: offsets move.
			same = false
			buf = append(buf, c)
		} else {
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			same = same && len(buf)-at == size
		}
		if letter {
			for _, l := range buf[at:] {
				h = (h ^ uint64(l)) * fnvPrime
			}
		}
		// An em dash separates words like a space: "BARREL—a framework".
		if r == '—' && withWords {
			words = appendWord(words, s, wordStart, i, true)
			wordStart, cased = i+size, 0
		}
		i += size
	}
	if tok >= 0 {
		toks = append(toks, token{start: tok, end: len(s), text: s[tok:], key: tokenKey(h, buf[tokBuf:])})
	}
	p.toks, p.buf, p.lower = toks, buf, ""
	if !withWords {
		p.words = words
		return
	}
	words = appendWord(words, s, wordStart, len(s), cased != 0)
	if same {
		p.lower = string(buf)
		for i := range words {
			words[i].lower = p.lower[words[i].start:words[i].end]
		}
	} else {
		for i := range words {
			words[i].lower = strings.ToLower(words[i].text)
		}
	}
	for i := range words {
		words[i].class = wordClasses[words[i].lower]
	}
	p.words = words
}

// tokenKey returns the key of a token whose lower-cased form b hashes
// to h: the hash of normToken's form, which drops a final plural "s"
// from words longer than three letters not ending in "ss". Undoing the
// last step of FNV-1a gives the hash without the "s".
func tokenKey(h uint64, b []byte) uint64 {
	if a, ok := american(b); ok {
		b, h = a, fnv1a(a)
	}
	if n := len(b); n > 3 && b[n-1] == 's' && b[n-2] != 's' {
		return (h * fnvPrimeInverse) ^ 's'
	}
	return h
}

// asciiWord marks the ASCII letters and digits. It has 256 entries so
// that any byte indexes it.
var asciiWord = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

// lowerASCII lower-cases an ASCII byte. It has 256 entries so that
// any byte indexes it.
var lowerASCII = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = byte(c - 'A' + 'a')
	}
	return t
}()

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
	if a, ok := american([]byte(lower)); ok {
		lower = string(a)
	}
	if n := len(lower); n > 3 && lower[n-1] == 's' && lower[n-2] != 's' {
		lower = lower[:n-1]
	}
	return lower
}

// britishEndings are the -ise spellings of -ize words, with their
// plurals: "tokenisation" is tokenization, "optimiser" optimizer.
var britishEndings = [...][2]string{{"isation", "ization"}, {"isations", "izations"}, {"iser", "izer"}, {"isers", "izers"}}

// american returns a lower-cased word with a British -isation or -iser
// ending spelled the American way, and whether it had one. Only these
// endings: "-ise" alone is as often "noise" or "precise".
func american(b []byte) ([]byte, bool) {
	n := len(b)
	if n < 7 || b[n-1] != 'n' && b[n-1] != 'r' && b[n-1] != 's' {
		return b, false
	}
	for _, e := range britishEndings {
		if end := e[0]; n > len(end)+2 && string(b[n-len(end):]) == end {
			return append(append([]byte(nil), b[:n-len(end)]...), e[1]...), true
		}
	}
	return b, false
}

// fnv1a is the FNV-1a hash of b.
func fnv1a(b []byte) uint64 {
	h := uint64(fnvOffset)
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

// The 64-bit FNV-1a parameters. A token's key is the FNV-1a hash of
// normToken(text), looked up in the vocabulary instead of the string,
// which costs a fraction of a string-keyed map lookup. Two different
// normalised tokens sharing a key (one chance in 2^64 per pair) would
// make them match alike; with tens of thousands of vocabulary tokens that
// is not a practical concern.
const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211

// fnvPrimeInverse is the inverse of fnvPrime modulo 2^64:
// fnvPrime*fnvPrimeInverse == 1 in uint64 arithmetic.
const fnvPrimeInverse = 0xce965057aff6957b

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
