package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// word is a whitespace-separated chunk of cleaned text with its
// surrounding punctuation stripped and remembered. Context patterns
// ("we propose X, a ...", "on X and Y") read words; the vocabulary
// matcher reads tokens.
type word struct {
	start, end int // byte offsets of text in the cleaned text
	text       string
	lower      string
	class      wordClass // wordClasses[lower]
	named      bool      // nameLike(text)
	open       bool      // a "(" or "[" before it
	close      bool      // a ")" or "]" after it
	comma      bool      // a "," after it
	stop       bool      // a ".", ";", ":", "!" or "?" after it: a clause ends
}

const (
	leadPunct  = "([{\"'*_`"       // and the curly quotes “ ‘
	trailPunct = ")]}\"',.;:!?*_`" // and the curly quotes ” ’
)

// isLead and isTrail are leadPunct and trailPunct as lookup tables.
var isLead, isTrail = func() (lead, trail [utf8.RuneSelf]bool) {
	for i := 0; i < len(leadPunct); i++ {
		lead[leadPunct[i]] = true
	}
	for i := 0; i < len(trailPunct); i++ {
		trail[trailPunct[i]] = true
	}
	return lead, trail
}()

// appendWord appends to out the word in s[a:b], a chunk between spaces
// or em dashes, unless it is all punctuation. cased reports whether the
// chunk may have an upper-case letter; without one it is not nameLike.
// The lower and class fields are left to parts.split, which knows
// whether s lower-cased keeps its byte offsets.
func appendWord(out []word, s string, a, b int, cased bool) []word {
	if a >= b {
		return out
	}
	var w word
	for a < b {
		if c := s[a]; c < utf8.RuneSelf {
			if !isLead[c] {
				break
			}
			w.open = w.open || c == '(' || c == '['
			a++
		} else if strings.HasPrefix(s[a:b], "“") || strings.HasPrefix(s[a:b], "‘") {
			a += len("“") // as long as "‘"
		} else {
			break
		}
	}
	for a < b {
		r, n := rune(s[b-1]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeLastRuneInString(s[a:b])
			if r != '”' && r != '’' {
				break
			}
		} else if !isTrail[r] {
			break
		}
		switch r {
		case ')', ']':
			w.close = true
		case ',':
			w.comma = true
		case '.', ';', ':', '!', '?':
			w.stop = true
		}
		b -= n
	}
	if a >= b {
		return out
	}
	w.start, w.end, w.text = a, b, s[a:b]
	w.named = cased && nameLike(w.text)
	return append(out, w)
}

// quantity reports whether w is a count or a range of them, written with
// magnitude letters: "7B", "350M-3B", "160M–6.9B", "sub-10B", "2K-4K".
// Model sizes and dataset sizes have capitals and digits as names do, and
// name nothing.
func quantity(w string) bool {
	w = strings.TrimPrefix(strings.TrimPrefix(w, "sub"), "~")
	for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '–' }) {
		if part != "" && !isCount(part) {
			return false
		}
	}
	return strings.ContainsAny(w, "0123456789")
}

// nameLike reports whether w looks like a coined name rather than an
// English word: two capitals or more ("ScaleCUA", "GPS"), a capital with a
// digit ("C2C", "Human3R"), or a capital after the first letter
// ("villa-X", "π-Light", "grounding-IQA").
func nameLike(w string) bool {
	if len(w) > 40 || quantity(w) {
		return false
	}
	upper, digit, letters := 0, false, 0
	first := true
	innerUpper := false
	ascii := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		switch {
		case 'a' <= c && c <= 'z':
			letters++
		case 'A' <= c && c <= 'Z':
			letters++
			upper++
			innerUpper = innerUpper || i > 0
		case '0' <= c && c <= '9':
			digit = true
		}
	}
	if ascii {
		return letters > 0 && (upper >= 2 || upper >= 1 && digit || innerUpper)
	}
	upper, digit, letters, innerUpper = 0, false, 0, false
	for _, r := range w {
		if unicode.IsLetter(r) {
			letters++
		}
		if unicode.IsUpper(r) {
			upper++
			if !first {
				innerUpper = true
			}
		}
		if unicode.IsDigit(r) {
			digit = true
		}
		first = false
	}
	if letters == 0 || len(w) > 40 {
		return false
	}
	return upper >= 2 || (upper >= 1 && digit) || innerUpper
}

// capitalised reports whether w starts with an upper-case letter followed
// by a lower-case one ("Dolphin").
func capitalised(w string) bool {
	if len(w) >= 2 && w[0] < utf8.RuneSelf && w[1] < utf8.RuneSelf {
		return 'A' <= w[0] && w[0] <= 'Z' && 'a' <= w[1] && w[1] <= 'z'
	}
	r, n := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || n >= len(w) {
		return false
	}
	r2, _ := utf8.DecodeRuneInString(w[n:])
	return unicode.IsLower(r2)
}

// commonCapitalised are capitalised words that start sentences or
// headings, never names.
var commonCapitalised = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "these": true, "our": true, "we": true,
	"it": true, "its": true, "in": true, "on": true, "to": true, "for": true, "with": true,
	"first": true, "second": true, "finally": true, "specifically": true, "furthermore": true,
	"moreover": true, "however": true, "additionally": true, "then": true, "here": true,
	"experiments": true, "extensive": true, "results": true, "code": true, "project": true,
}

// wordClass marks the roles a word plays in the context patterns, by its
// lower-case form. Each word is looked up once, in wordClasses, when it
// is split off; the patterns then test bits rather than hash the word
// into one map per question, which was most of their time.
type wordClass uint32

const (
	introGerund   wordClass = 1 << iota // introGerunds
	introVerb                           // a form of introVerbs (isIntroVerb)
	namingWord                          // namingWords
	methodHead                          // methodHeads
	determiner                          // determiners
	datasetHead                         // datasetHeads
	afterOnVerb                         // notAfterOn
	listLeadWord                        // listLead
	commonCap                           // commonCapitalised
	unit                                // units
	notName                             // notNames
	taskHead                            // taskHeads and fieldHeads
	notModifier                         // notModifiers
	participle                          // participles
	taskGerund                          // a key of taskGerunds
	agentNoun                           // a key of agentHeads, or its plural
	negator                             // negators
	techniqueVerb                       // a form of techniqueVerbs (see verbForms)
	problemCue                          // statingVerbs, namingWords and "known": see cuedProblems
	borrowWord                          // a key of borrowWords
	fieldWord                           // fieldWords
	successWord                         // successWords
)

var wordClasses = func() map[string]wordClass {
	m := map[string]wordClass{}
	for c, set := range map[wordClass]map[string]bool{
		introGerund: introGerunds, namingWord: namingWords, methodHead: methodHeads,
		determiner: determiners, datasetHead: datasetHeads, afterOnVerb: notAfterOn,
		listLeadWord: listLead, commonCap: commonCapitalised, unit: units, notName: notNames,
		taskHead: taskHeads, notModifier: notModifiers, participle: participles, negator: negators,
		fieldWord: fieldWords, successWord: successWords,
	} {
		for w := range set {
			m[w] |= c
		}
	}
	for w := range fieldHeads {
		m[w] |= taskHead
	}
	for w := range statingVerbs {
		m[w] |= problemCue
	}
	for w := range namingWords {
		m[w] |= problemCue
	}
	m["known"] |= problemCue
	m["task"] |= problemCue
	m["problem"] |= problemCue
	for w := range taskGerunds {
		m[w] |= taskGerund
	}
	for w := range agentHeads {
		m[w] |= agentNoun
		m[w+"s"] |= agentNoun
	}
	for w := range borrowWords {
		m[w] |= borrowWord
	}
	for form := range verbForms {
		m[form] |= techniqueVerb
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
