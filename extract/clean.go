package extract

import (
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text is an abstract with markup removed, and the map back to the original.
type Text struct {
	Orig, Clean string
	// start[i] and end[i] are the source range in Orig of Clean's byte i;
	// both are non-decreasing, so that Span is two lookups.
	start, end []int32
}

// Limits that keep Clean linear and its recursion shallow whatever the
// input: lookahead for a closing delimiter never scans further than these
// windows, and constructs nested deeper than maxDepth are flattened.
const (
	maxDepth     = 48
	mathWindow   = 1000
	emphWindow   = 1000
	codeWindow   = 300
	linkWindow   = 500
	tagWindow    = 256
	groupWindow  = 2048
	entityWindow = 32
)

// Clean returns s with LaTeX, Markdown and HTML markup removed, entities
// decoded, PDF line-break hyphenation joined, whitespace collapsed to single
// spaces and trimmed, and invalid UTF-8 replaced by U+FFFD. Clean("") has
// an empty Clean.
//
// Clean is idempotent (Clean(Clean(s).Clean).Clean == Clean(s).Clean) for
// inputs that contain none of the markup bytes \ $ { } * _ ` ' [ < & ~ - ^;
// for those it only normalises whitespace, control characters and invalid
// UTF-8. With markup, one pass may expose new markup (an entity that
// decodes to "<b>" is not decoded again).
func Clean(s string) Text {
	t, _ := cleanInto(s, make([]byte, 0, len(s)), make([]int32, 0, len(s)), make([]int32, 0, len(s)))
	return t
}

// cleanInto is Clean writing into the given buffers (from their length
// 0), so that a caller that is done with the Text before the next call can
// reuse them. It also returns the output buffer, grown, for reuse.
func cleanInto(s string, out []byte, start, end []int32) (Text, []byte) {
	c := cleaner{s: s, out: out[:0], start: start[:0], end: end[:0]}
	c.run(len(s), false, stopNone, 0)
	// A trailing pending space is dropped: that is the trim.
	c.monotone()
	return Text{Orig: s, Clean: string(c.out), start: c.start, end: c.end}, c.out
}

// Span maps the byte range [start, end) of t.Clean to the range [a, b) of
// t.Orig it came from. When the cleaned bytes came from inside markup that
// begins with the first byte or ends with the last, the range covers that
// markup, so t.Orig[a:b] of "Dolphin" in "**Dolphin** is" is "**Dolphin**".
// Out-of-range arguments are clamped; an empty range maps to an empty range
// at the corresponding position of Orig.
func (t Text) Span(start, end int) (a, b int) {
	n := len(t.Clean)
	start = min(max(start, 0), n)
	end = min(max(end, start), n)
	if start == end {
		if start == n {
			return len(t.Orig), len(t.Orig)
		}
		a = int(t.start[start])
		return a, a
	}
	return int(t.start[start]), int(t.end[end-1])
}

type stopKind uint8

const (
	stopNone    stopKind = iota
	stopBrace            // }
	stopParen            // \)
	stopBracket          // \]
)

type cleaner struct {
	s          string
	i          int
	out        []byte
	start, end []int32
	// A whitespace run is emitted lazily, as one space before the next
	// visible byte, so that runs collapse and the ends are trimmed.
	space              bool
	spaceFrom, spaceTo int
}

func (c *cleaner) pending(from, to int) {
	if !c.space {
		c.space, c.spaceFrom = true, from
	}
	c.spaceTo = to
}

// emit appends the bytes of v, all mapped to the source range [a, b).
func (c *cleaner) emit(v string, a, b int) {
	if c.space {
		c.space = false
		if len(c.out) > 0 && c.out[len(c.out)-1] != ' ' {
			c.out = append(c.out, ' ')
			c.start = append(c.start, int32(c.spaceFrom))
			c.end = append(c.end, int32(c.spaceTo))
		}
	}
	for k := 0; k < len(v); k++ {
		c.out = append(c.out, v[k])
		c.start = append(c.start, int32(a))
		c.end = append(c.end, int32(b))
	}
}

func (c *cleaner) emitByte(ch byte, a, b int) {
	if c.space {
		c.emit("", a, b)
	}
	c.out = append(c.out, ch)
	c.start = append(c.start, int32(a))
	c.end = append(c.end, int32(b))
}

// emitText emits v rune by rune, turning whitespace and control characters
// into pending space, for text that may hold any rune (decoded entities,
// verbatim URLs).
func (c *cleaner) emitText(v string, a, b int) {
	for k := 0; k < len(v); {
		r, size := utf8.DecodeRuneInString(v[k:])
		switch {
		case r == utf8.RuneError && size == 1:
			c.emit("\uFFFD", a, b)
		case isSpace(r):
			c.pending(a, b)
		case isInvisible(r):
		default:
			c.emit(v[k:k+size], a, b)
		}
		k += size
	}
}

// cover widens the source ranges of the output bytes [o, len(out)) so that
// they start at a and end at b: the markup from a to b produced them.
func (c *cleaner) cover(o, a, b int) {
	if o < len(c.out) && c.out[o] == ' ' && int(c.start[o]) < a {
		o++ // the space before the construct
	}
	if o >= len(c.out) {
		return
	}
	c.start[o] = min(c.start[o], int32(a))
	c.end[len(c.end)-1] = max(c.end[len(c.end)-1], int32(b))
}

// monotone makes start and end non-decreasing, with start <= end, so that
// every Span is an ordered range even where markup reordered sources.
func (c *cleaner) monotone() {
	st := c.start
	en := c.end[:len(st)]
	var a, b int32
	for k := range st {
		a = max(a, st[k])
		b = max(b, en[k], a)
		st[k], en[k] = a, b
	}
}

func isSpace(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.IsSpace(r) || r == ' '
}

// isInvisible reports whether r is a zero-width character or a soft hyphen:
// invisible in the original, so dropped rather than turned into a space.
func isInvisible(r rune) bool {
	switch r {
	case 0x00ad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff:
		return true
	}
	return false
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

func isAlnum(b byte) bool { return isLetter(b) || b >= '0' && b <= '9' }

// tie reports whether the ~ at s[i] is LaTeX's non-breaking space
// ("Fig.~3", "models~(LLMs)", "\\%~$\\rightarrow$") rather than "about"
// ("~10%") or a range ("3~5 dB").
func tie(s string, i, end int) bool {
	if i == 0 {
		return false
	}
	prev := s[i-1]
	if prev == ' ' || prev == '\n' || prev == '\t' {
		return false
	}
	if isLetter(prev) || strings.IndexByte(".,;:)}$", prev) >= 0 {
		return true
	}
	return i+1 < end && (isLetter(s[i+1]) || s[i+1] == '\\' || s[i+1] == '$')
}

// plain marks the ASCII bytes that are copied as they are; the rest may
// start markup, whitespace or a multi-byte rune.
var plain = func() (t [256]bool) {
	for b := 0x21; b < 0x7f; b++ {
		t[b] = strings.IndexByte("\\{}$^_~-*`'[<&", byte(b)) < 0
	}
	return t
}()

// plainRun copies the run of plain bytes at c.i, with single spaces and
// hyphens inside words, in one go: most of an abstract is such runs.
func (c *cleaner) plainRun(end int) {
	s, i := c.s, c.i
	if c.space {
		c.emit("", i, i+1)
	}
	j := i + 1
	for j < end {
		if b := s[j]; !plain[b] && !((b == ' ' || b == '-') && j+1 < end && isAlnum(s[j+1]) && plain[s[j-1]]) {
			break
		}
		j++
	}
	c.out = append(c.out, s[i:j]...)
	n, m := len(c.start), j-i
	c.start, c.end = slices.Grow(c.start, m)[:n+m], slices.Grow(c.end, m)[:n+m]
	st, en := c.start[n:n+m], c.end[n:n+m]
	for k := range st {
		st[k] = int32(i + k)
		en[k] = int32(i + k + 1)
	}
	c.i = j
}

// run cleans s[c.i:end] until end or until the stop delimiter, which it
// consumes. In math mode ^ and _ are dropped and ~ is a space.
func (c *cleaner) run(end int, math bool, stop stopKind, depth int) {
	s := c.s
	// Braces opened beyond maxDepth are counted instead of recursed into.
	flat := 0
	for c.i < end {
		i := c.i
		ch := s[i]
		if ch >= 0x80 {
			_, size := utf8.DecodeRuneInString(s[i:end])
			c.verbatim(i, i+size)
			c.i += size
			continue
		}
		if plain[ch] {
			c.plainRun(end)
			continue
		}
		switch ch {
		case ' ', '\t', '\n', '\r':
			c.pending(i, i+1)
			c.i++
		case '\\':
			if stop == stopParen && i+1 < end && s[i+1] == ')' ||
				stop == stopBracket && i+1 < end && s[i+1] == ']' {
				c.i += 2
				return
			}
			c.command(end, math, depth)
		case '{':
			c.i++
			if depth >= maxDepth {
				flat++
				continue
			}
			o := len(c.out)
			c.run(end, math, stopBrace, depth+1)
			c.cover(o, i, c.i)
		case '}':
			c.i++
			if flat > 0 {
				flat--
			} else if stop == stopBrace {
				return
			}
		case '$':
			switch {
			case math:
				c.i++
			case !c.math(end, depth):
				c.emitByte('$', i, i+1)
				c.i++
			}
		case '^', '_':
			switch {
			case math:
				c.i++
			case ch == '_' && (c.emphasis(end, "__", depth) || c.emphasis(end, "_", depth)):
			default:
				c.emitByte(ch, i, i+1)
				c.i++
			}
		case '~':
			c.i++
			if math || tie(s, i, end) {
				c.pending(i, i+1)
			} else {
				c.emitByte('~', i, i+1)
			}
		case '-':
			c.dash(end, math)
		case '*':
			if math || !(c.emphasis(end, "***", depth) || c.emphasis(end, "**", depth) || c.emphasis(end, "*", depth)) {
				c.emitByte('*', i, i+1)
				c.i++
			}
		case '`':
			if math || !c.code(end) {
				c.emitByte('`', i, i+1)
				c.i++
			}
		case '\'':
			if !math && i+1 < end && s[i+1] == '\'' {
				c.emitByte('"', i, i+2)
				c.i += 2
			} else {
				c.emitByte('\'', i, i+1)
				c.i++
			}
		case '[':
			if math || !c.link(end, depth) {
				c.emitByte('[', i, i+1)
				c.i++
			}
		case '<':
			if math || !c.tag(end) {
				c.emitByte('<', i, i+1)
				c.i++
			}
		case '&':
			if !c.entity(end) {
				c.emitByte('&', i, i+1)
				c.i++
			}
		default:
			if ch < 0x20 || ch == 0x7f {
				c.pending(i, i+1)
			} else {
				c.emitByte(ch, i, i+1)
			}
			c.i++
		}
	}
}

// math handles a $ in text mode: $...$ or $$...$$ is cleaned in math mode
// when it closes and looks like a formula (see isFormula); it reports false
// (a literal dollar) otherwise.
func (c *cleaner) math(end, depth int) bool {
	s, i := c.s, c.i
	if depth >= maxDepth {
		return false
	}
	if strings.HasPrefix(s[i:end], "$$") {
		win := s[i+2 : min(end, i+2+mathWindow)]
		k := strings.Index(win, "$$")
		if k < 0 {
			return false
		}
		o := len(c.out)
		c.i = i + 2
		c.run(i+2+k, true, stopNone, depth+1)
		c.i = i + 2 + k + 2
		c.cover(o, i, c.i)
		return true
	}
	// The closing $ is the next one that is not escaped.
	lim := min(end, i+1+mathWindow)
	j := i + 1
	for {
		if j >= lim {
			return false
		}
		k := strings.IndexByte(s[j:lim], '$')
		if k < 0 {
			return false
		}
		j += k
		if s[j-1] != '\\' {
			break
		}
		j++
	}
	if !isFormula(s[i+1 : j]) {
		return false
	}
	o := len(c.out)
	c.i = i + 1
	c.run(j, true, stopNone, depth+1)
	c.i = j + 1
	c.cover(o, i, c.i)
	return true
}

// isFormula reports whether body, the text between two dollars, is a
// formula rather than prose between two prices ("$5 and $10"): it has
// LaTeX markup, or it is short and, as in Pandoc, either both or neither of
// its ends are spaces ("$x$", "$ K $").
func isFormula(body string) bool {
	if body == "" {
		return false
	}
	if strings.ContainsAny(body, "\\^_{}") {
		return true
	}
	lead := body[0] == ' ' || body[0] == '\n' || body[0] == '\t'
	last := body[len(body)-1]
	trail := last == ' ' || last == '\n' || last == '\t'
	return lead == trail && len(body) <= 80 && strings.Count(body, " ") <= 4
}

// emphasis handles Markdown ***x***, **x**, *x*, __x__ and _x_ starting at
// c.i with the delimiter d: the opener must be followed by a non-space and
// the closer preceded by one. Underscores must not touch a letter or digit
// outside (snake_case stays); stars may, when the emphasis is one word
// ("**C**onfidence").
func (c *cleaner) emphasis(end int, d string, depth int) bool {
	s, i := c.s, c.i
	n := len(d)
	if depth >= maxDepth || !strings.HasPrefix(s[i:end], d) || i+n >= end {
		return false
	}
	if next := s[i+n]; next == ' ' || next == '\n' || next == '\t' || next == d[0] {
		return false
	}
	lim := min(end, i+n+emphWindow)
	k := strings.Index(s[i+n:lim], d)
	if k <= 0 {
		return false
	}
	j := i + n + k
	if prev := s[j-1]; prev == ' ' || prev == '\n' || prev == '\t' {
		return false
	}
	if j+n < end && s[j+n] == d[0] {
		return false
	}
	before := i > 0 && isAlnum(s[i-1])
	after := j+n < end && isAlnum(s[j+n])
	if (before || after) && (d[0] == '_' || strings.ContainsAny(s[i+n:j], " \n\t")) {
		return false
	}
	o := len(c.out)
	c.i = i + n
	c.run(j, false, stopNone, depth+1)
	c.i = j + n
	c.cover(o, i, c.i)
	return true
}

// code handles a Markdown code span `x` (kept verbatim) and LaTeX opening
// quotes: two backticks, or one whose text closes with ' ("`effort'").
func (c *cleaner) code(end int) bool {
	s, i := c.s, c.i
	if i+1 < end && s[i+1] == '`' {
		c.emitByte('"', i, i+2)
		c.i += 2
		return true
	}
	lim := min(end, i+1+codeWindow)
	k := strings.IndexByte(s[i+1:lim], '`')
	q := strings.IndexByte(s[i+1:lim], '\'')
	if q > 0 && (k < 0 || q < k) && (i+2+q >= end || !isAlnum(s[i+2+q])) {
		c.emitByte('\'', i, i+1)
		c.i++
		return true
	}
	if k <= 0 {
		return false
	}
	j := i + 1 + k
	o := len(c.out)
	c.verbatim(i+1, j)
	c.i = j + 1
	c.cover(o, i, c.i)
	return true
}

// verbatim emits s[a:b] without markup processing, each rune mapped to
// its own source bytes.
func (c *cleaner) verbatim(a, b int) {
	for k := a; k < b; {
		r, size := utf8.DecodeRuneInString(c.s[k:b])
		switch {
		case r == utf8.RuneError && size == 1:
			c.emit("\uFFFD", k, k+1)
		case isSpace(r):
			c.pending(k, k+size)
		case isInvisible(r):
		default:
			c.emit(c.s[k:k+size], k, k+size)
		}
		k += size
	}
}

// link handles a Markdown link [text](url), keeping the text.
func (c *cleaner) link(end, depth int) bool {
	s, i := c.s, c.i
	if depth >= maxDepth {
		return false
	}
	lim := min(end, i+1+linkWindow)
	k := strings.IndexAny(s[i+1:lim], "[]")
	if k < 0 || s[i+1+k] != ']' {
		return false
	}
	j := i + 1 + k
	if j+1 >= end || s[j+1] != '(' {
		return false
	}
	lim = min(end, j+2+linkWindow)
	u := strings.IndexAny(s[j+2:lim], ") \n\t")
	if u < 0 || s[j+2+u] != ')' {
		return false
	}
	o := len(c.out)
	c.i = i + 1
	c.run(j, false, stopNone, depth+1)
	c.i = j + 2 + u + 1
	c.cover(o, i, c.i)
	return true
}

// htmlTags are the tags removed; other <...> text is kept, so that "a <b
// and c > d" or "<x, y>" survive. Block tags become a space.
var htmlTags = map[string]bool{
	"a": false, "abbr": false, "b": false, "big": false, "cite": false, "code": false,
	"del": false, "em": false, "font": false, "i": false, "ins": false, "mark": false,
	"s": false, "small": false, "span": false, "strike": false, "strong": false,
	"sub": false, "sup": false, "tt": false, "u": false, "var": false, "math": false,
	"br": true, "p": true, "div": true, "li": true, "ul": true, "ol": true, "hr": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "tr": true,
	"td": true, "th": true, "table": true, "blockquote": true, "img": true, "pre": true,
}

// tag handles an HTML tag or comment at c.i.
func (c *cleaner) tag(end int) bool {
	s, i := c.s, c.i
	if strings.HasPrefix(s[i:end], "<!--") {
		k := strings.Index(s[i+4:min(end, i+4+linkWindow)], "-->")
		if k < 0 {
			return false
		}
		c.i = i + 4 + k + 3
		return true
	}
	j := i + 1
	if j < end && s[j] == '/' {
		j++
	}
	n := j
	for n < end && n-j < 12 && isAlnum(s[n]) {
		n++
	}
	if n == j || !isLetter(s[j]) {
		return false
	}
	block, ok := htmlTags[strings.ToLower(s[j:n])]
	if !ok || n < end && s[n] != '>' && s[n] != '/' && s[n] != ' ' && s[n] != '\n' && s[n] != '\t' {
		return false
	}
	k := strings.IndexAny(s[n:min(end, n+tagWindow)], "<>")
	if k < 0 || s[n+k] != '>' {
		return false
	}
	c.i = n + k + 1
	if block {
		c.pending(i, c.i)
	}
	return true
}

// entity decodes an HTML character reference at c.i with the semantics of
// html.UnescapeString.
func (c *cleaner) entity(end int) bool {
	s, i := c.s, c.i
	j := i + 1
	if j < end && s[j] == '#' {
		j++
	}
	for j < end && j-i < entityWindow && isAlnum(s[j]) {
		j++
	}
	if j < end && s[j] == ';' {
		j++
	}
	if j <= i+1 {
		return false
	}
	v := html.UnescapeString(s[i:j])
	if v == s[i:j] {
		return false
	}
	c.emitText(v, i, j)
	c.i = j
	return true
}

// stopWords are the words after "x- " that show the hyphen ends a word
// ("pre- and post-training", "attributes- whose"): the text stays as it is.
var stopWords = setOf(`and or nor but to vs versus as than via with from into
	whose which that the a an where while when who we it is are was were in on
	of for by at not this these those their its our such also`)

// compoundHeads and compoundTails are words that commonly form a hyphenated
// compound ("data-centric", "fine-tuned"); a line break after such a hyphen
// keeps the hyphen and drops the space.
var (
	compoundHeads = setOf(`self non multi cross pre post semi co anti inter intra
		sub super over under out well fine coarse long short high low large small
		full half open closed real end zero few one two three single dual first
		second third data task state model human domain reward ground context
		content compute sample token image text video audio graph object class
		instance user agent memory time test train training vision language world
		query reference knowledge physics rule feature patch pixel point frame
		word sentence document label noise score diffusion attention gradient
		policy value goal mixture`)
	compoundTails = setOf(`based centric aware level scale free specific wise
		like driven oriented guided agnostic efficient shot step order time world
		end term source tuned tuning trained training supervised weighted
		dependent independent invariant matched encoder decoder space truth art
		related conditioned consistent constrained friendly intensive grained
		quality resolution range horizon context modal task agent domain
		language layer head stage sensitive robust ready only augmented
		generated annotated labeled labelled defined controlled informed
		inspired enhanced optimal bound rank class label turn hop play round view
		object token wide`)
)

func setOf(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// dash handles -- and --- (en and em dashes) and PDF line breaks after a
// hyphen: "nec- essary" is joined to "necessary" and "data- centric"
// becomes "data-centric". Only a plain lower-case word fragment, a hyphen,
// one space and a lower-case word qualify; a conjunction or preposition
// after the space ("pre- and post-training") leaves the text as it is.
func (c *cleaner) dash(end int, math bool) {
	s, i := c.s, c.i
	if !math && strings.HasPrefix(s[i:end], "---") {
		c.emit("—", i, i+3)
		c.i += 3
		return
	}
	if !math && strings.HasPrefix(s[i:end], "--") {
		c.emit("–", i, i+2)
		c.i += 2
		return
	}
	if !math {
		switch c.lineBreak(end) {
		case joinWord:
			c.i += 2
			return
		case keepHyphen:
			c.emitByte('-', i, i+1)
			c.i += 2
			return
		}
	}
	c.emitByte('-', i, i+1)
	c.i++
}

type breakKind uint8

const (
	noBreak breakKind = iota
	joinWord
	keepHyphen
)

// lineBreak classifies the hyphen at c.i.
func (c *cleaner) lineBreak(end int) breakKind {
	s, i := c.s, c.i
	n := len(c.out)
	if c.space || n == 0 || c.out[n-1] < 'a' || c.out[n-1] > 'z' {
		return noBreak
	}
	if i+3 > end || (s[i+1] != ' ' && s[i+1] != '\n') || s[i+2] < 'a' || s[i+2] > 'z' {
		return noBreak
	}
	// The fragment before the hyphen: letters back to a space or the start,
	// with no hyphen in it ("state-of-the- art" stays).
	k := n - 1
	for k >= 0 && n-k <= 64 && isLetter(c.out[k]) {
		k--
	}
	if n-k > 64 || k >= 0 && (c.out[k] == '-' || isAlnum(c.out[k])) {
		return noBreak
	}
	w := i + 2
	for w < end && w-i < 40 && s[w] >= 'a' && s[w] <= 'z' {
		w++
	}
	if w < end && (isLetter(s[w]) || s[w] >= 0x80 || s[w] == '-') {
		return noBreak
	}
	tail := s[i+2 : w]
	switch {
	case stopWords[tail]:
		return noBreak
	case compoundTails[tail] || compoundHeads[strings.ToLower(string(c.out[k+1:]))]:
		return keepHyphen
	}
	return joinWord
}

// command handles a backslash at c.i.
func (c *cleaner) command(end int, math bool, depth int) {
	s, i := c.s, c.i
	if i+1 >= end {
		c.i++
		return
	}
	ch := s[i+1]
	if !isLetter(ch) {
		c.i += 2
		switch ch {
		case '%', '&', '_', '#', '$', '{', '}':
			c.emitByte(ch, i, i+2)
		case '\\', ',', ';', ':', ' ', '>', '\n', '\t':
			c.pending(i, i+2)
		case '|':
			c.emit("‖", i, i+2)
		case '(':
			if depth < maxDepth {
				o := len(c.out)
				c.run(end, true, stopParen, depth+1)
				c.cover(o, i, c.i)
			}
		case '[':
			if depth < maxDepth {
				o := len(c.out)
				c.run(end, true, stopBracket, depth+1)
				c.cover(o, i, c.i)
			}
		case '\'', '`', '"', '^', '~', '=', '.':
			c.accent(end, i, ch)
		default:
			// \! \/ \- \@ \) \] and the rest produce nothing; a backslash
			// before a non-ASCII byte must not swallow part of its rune.
			if ch >= 0x80 {
				c.i = i + 1
			}
		}
		return
	}
	j := i + 1
	for j < end && isLetter(s[j]) {
		j++
	}
	name := s[i+1 : j]
	c.i = j
	if j < end && s[j] == '*' {
		c.i++
	}
	if sym, ok := latexSymbols[name]; ok {
		c.emitText(sym, i, c.i)
		return
	}
	if len(name) == 1 && strings.IndexByte("cvuHkr", name[0]) >= 0 && c.accent(end, i, name[0]) {
		return
	}
	switch name {
	case "url":
		if k := c.group(end); k > 0 {
			o := len(c.out)
			c.verbatim(c.i+1, k-1)
			c.i = k
			c.cover(o, i, k)
		}
		return
	case "href", "textcolor", "colorbox":
		// The first argument (a URL, a colour) is not text.
		if k := c.group(end); k > 0 {
			c.i = k
		}
	case "frac", "tfrac", "dfrac", "cfrac", "binom":
		if depth < maxDepth && c.i < end && s[c.i] == '{' {
			o := len(c.out)
			c.i++
			c.run(end, math, stopBrace, depth+1)
			sep := "/"
			if name == "binom" {
				sep = " choose "
			}
			c.emitText(sep, c.i, c.i)
			if c.i < end && s[c.i] == '{' {
				c.i++
				c.run(end, math, stopBrace, depth+1)
			}
			c.cover(o, i, c.i)
		}
		return
	case "sqrt":
		c.optional(end)
		c.emit("√", i, c.i)
	default:
		if dropWithArg[name] {
			c.optional(end)
			if k := c.group(end); k > 0 {
				c.i = k
			}
			// "results~\cite{x}." reads "results."
			c.space = false
			return
		}
	}
	// Text commands (\textbf, \emph, \mathcal...) and unknown ones: the
	// command goes, a following argument stays.
	if depth < maxDepth && c.i < end && s[c.i] == '{' {
		o := len(c.out)
		c.i++
		c.run(end, math, stopBrace, depth+1)
		c.cover(o, i, c.i)
	}
}

// optional skips a LaTeX optional argument [..] at c.i.
func (c *cleaner) optional(end int) {
	s := c.s
	if c.i < end && s[c.i] == '[' {
		if k := strings.IndexByte(s[c.i:min(end, c.i+linkWindow)], ']'); k > 0 {
			c.i += k + 1
		}
	}
}

// group returns the offset just past the brace group at c.i, or 0 when
// there is none or it does not close within groupWindow bytes.
func (c *cleaner) group(end int) int {
	s := c.s
	if c.i >= end || s[c.i] != '{' {
		return 0
	}
	d := 0
	lim := min(end, c.i+groupWindow)
	for k := c.i; k < lim; k++ {
		switch s[k] {
		case '\\':
			k++
		case '{':
			d++
		case '}':
			d--
			if d == 0 {
				return k + 1
			}
		}
	}
	return 0
}

// accent composes an accent command (\'e, \"{o}, \c{c}) with its letter at
// c.i when the pair is known; otherwise the accent alone is dropped. It
// reports whether it consumed the letter.
func (c *cleaner) accent(end, from int, a byte) bool {
	s, j := c.s, c.i
	for j < end && s[j] == ' ' && a >= 'a' {
		j++ // \c c
	}
	var letter byte
	switch {
	case j+2 < end && s[j] == '{' && s[j+2] == '}' && isLetter(s[j+1]):
		letter, j = s[j+1], j+3
	case j < end && isLetter(s[j]) && (a < 'a' || j > c.i):
		letter, j = s[j], j+1
	default:
		return false
	}
	r, ok := accents[[2]byte{a, letter}]
	if !ok {
		return false
	}
	c.emit(string(r), from, j)
	c.i = j
	return true
}

var accents = func() map[[2]byte]rune {
	m := make(map[[2]byte]rune)
	for a, pairs := range map[byte]string{
		'\'': "aáeéiíoóuúyýAÁEÉIÍOÓUÚYÝcćnńsśzźCĆNŃSŚZŹ",
		'`':  "aàeèiìoòuùAÀEÈIÌOÒUÙ",
		'"':  "aäeëiïoöuüyÿAÄEËIÏOÖUÜ",
		'^':  "aâeêiîoôuûAÂEÊIÎOÔUÛ",
		'~':  "aãnñoõAÃNÑOÕ",
		'=':  "aāeēiīoōuūAĀEĒIĪOŌUŪ",
		'.':  "zżZŻ",
		'c':  "cçCÇsşSŞ",
		'v':  "cčsšzžrřeěnňCČSŠZŽRŘEĚNŇ",
		'u':  "gğaăGĞAĂ",
		'H':  "oőuűOŐUŰ",
		'k':  "aąeęAĄEĘ",
		'r':  "aåAÅuůUŮ",
	} {
		rs := []rune(pairs)
		for k := 0; k+1 < len(rs); k += 2 {
			m[[2]byte{a, byte(rs[k])}] = rs[k+1]
		}
	}
	return m
}()

// dropWithArg are commands removed together with their argument.
var dropWithArg = map[string]bool{
	"cite": true, "citep": true, "citet": true, "citealp": true, "citealt": true,
	"citeauthor": true, "citeyear": true, "nocite": true, "ref": true, "eqref": true,
	"autoref": true, "cref": true, "Cref": true, "pageref": true, "label": true,
	"footnote": true, "footnotetext": true, "thanks": true, "vspace": true,
	"hspace": true, "includegraphics": true, "begin": true, "end": true, "color": true,
	"bibliography": true, "bibliographystyle": true, "input": true, "newcommand": true,
	"renewcommand": true, "def": true,
}

// latexSymbols maps argument-less commands to their text.
var latexSymbols = map[string]string{
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
	"varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ",
	"iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
	"omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ",
	"varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ",
	"psi": "ψ", "omega": "ω",
	"Alpha": "Α", "Beta": "Β", "Gamma": "Γ", "Delta": "Δ", "Epsilon": "Ε", "Zeta": "Ζ",
	"Eta": "Η", "Theta": "Θ", "Iota": "Ι", "Kappa": "Κ", "Lambda": "Λ", "Mu": "Μ",
	"Nu": "Ν", "Xi": "Ξ", "Omicron": "Ο", "Pi": "Π", "Rho": "Ρ", "Sigma": "Σ", "Tau": "Τ",
	"Upsilon": "Υ", "Phi": "Φ", "Chi": "Χ", "Psi": "Ψ", "Omega": "Ω",
	"times": "×", "div": "÷", "pm": "±", "mp": "∓", "cdot": "·", "cdots": "⋯",
	"ldots": "…", "dots": "…", "vdots": "⋮", "ddots": "⋱", "leq": "≤", "le": "≤",
	"geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼",
	"simeq": "≃", "cong": "≅", "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫",
	"rightarrow": "→", "to": "→", "leftarrow": "←", "gets": "←", "Rightarrow": "⇒",
	"Leftarrow": "⇐", "leftrightarrow": "↔", "Leftrightarrow": "⇔", "iff": "⇔",
	"implies": "⇒", "mapsto": "↦", "uparrow": "↑", "downarrow": "↓",
	"longrightarrow": "⟶", "infty": "∞", "in": "∈", "notin": "∉", "ni": "∋",
	"subset": "⊂", "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇", "cup": "∪",
	"cap": "∩", "setminus": "∖", "emptyset": "∅", "varnothing": "∅", "forall": "∀",
	"exists": "∃", "neg": "¬", "lnot": "¬", "wedge": "∧", "land": "∧", "vee": "∨",
	"lor": "∨", "oplus": "⊕", "otimes": "⊗", "odot": "⊙", "nabla": "∇",
	"partial": "∂", "sum": "∑", "prod": "∏", "int": "∫", "oint": "∮", "ell": "ℓ",
	"hbar": "ℏ", "aleph": "ℵ", "star": "⋆", "ast": "∗", "circ": "∘", "bullet": "•",
	"top": "⊤", "bot": "⊥", "perp": "⊥", "prime": "′", "mid": "|", "vert": "|",
	"Vert": "‖", "lvert": "|", "rvert": "|", "lVert": "‖", "rVert": "‖",
	"langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊",
	"rfloor": "⌋", "colon": ":", "dagger": "†", "ddagger": "‡", "checkmark": "✓",
	"triangle": "△", "square": "□", "Box": "□", "diamond": "⋄", "sharp": "♯",
	"degree": "°", "textdegree": "°", "S": "§", "P": "¶", "copyright": "©",
	"textregistered": "®", "texttrademark": "™", "textemdash": "—",
	"textendash": "–", "textasciitilde": "~", "textbackslash": "\\",
	"textasciicircum": "^", "textbar": "|", "textless": "<", "textgreater": ">",
	"textquotedbl": "\"", "textbullet": "•", "textperiodcentered": "·",
	"ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
	"aa": "å", "AA": "Å", "l": "ł", "L": "Ł", "i": "ı",
	"log": "log", "ln": "ln", "exp": "exp", "min": "min", "max": "max", "sup": "sup",
	"inf": "inf", "lim": "lim", "arg": "arg", "argmax": "argmax", "argmin": "argmin",
	"det": "det", "Pr": "Pr", "sin": "sin", "cos": "cos", "tan": "tan", "tanh": "tanh",
	"sinh": "sinh", "cosh": "cosh", "deg": "deg", "dim": "dim", "ker": "ker",
	"eg": "e.g.", "ie": "i.e.", "etal": "et al.", "etc": "etc.", "vs": "vs.",
	"LaTeX": "LaTeX", "TeX": "TeX",
	"quad": " ", "qquad": " ", "newline": " ", "par": " ", "enspace": " ",
	"thinspace": " ", "medspace": " ", "nobreakspace": " ", "space": " ",
}
