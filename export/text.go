package export

import (
	"unicode"
	"unicode/utf8"
)

// An escaper says how each ASCII byte is written inside a quoted string
// of one format: as itself (""), dropped ("\x00"), or as its replacement.
// Characters beyond ASCII are written as they are when textRune allows
// them and dropped otherwise; invalid UTF-8 becomes U+FFFD. One table per
// format keeps one loop for every format's text, with a fast path for the
// plain ASCII most ids and names are.
type escaper [utf8.RuneSelf]string

// drop marks a byte an escaper leaves out.
const drop = "\x00"

// newEscaper returns the escaper that drops ASCII control characters,
// writes tab and newline as a space, and replaces the bytes of repl.
func newEscaper(repl map[byte]string) *escaper {
	var e escaper
	for c := range utf8.RuneSelf {
		if c < 0x20 || c == 0x7F {
			e[c] = drop
		}
	}
	e['\t'], e['\n'] = " ", " "
	for c, s := range repl {
		e[c] = s
	}
	return &e
}

// The escapers of the formats: plain text (cleanText), XML text and
// attribute values, JSON strings, DOT double-quoted strings (a lone
// backslash would start a Graphviz label escape such as \N or \l; a
// newline is the \n escape, a line break in a label), and unquoted CSV
// fields (escaped for quoting by appendCSV).
var (
	plainEscaper = newEscaper(nil)
	xmlEscaper   = newEscaper(map[byte]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&apos;"})
	jsonEscaper  = newEscaper(map[byte]string{'"': `\"`, '\\': `\\`})
	dotEscaper   = newEscaper(map[byte]string{'"': `\"`, '\\': `\\`, '\n': `\n`})
)

// appendEscaped appends s to b as esc writes it.
func appendEscaped(b []byte, s string, esc *escaper) []byte {
	start := 0 // s[start:i] is plain and not yet appended
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if r := esc[c]; r != "" {
				b = append(b, s[start:i]...)
				if r != drop {
					b = append(b, r...)
				}
				start = i + 1
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !textRune(r) {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = utf8.AppendRune(b, r)
			}
			start = i + n
		}
		i += n
	}
	return append(b, s[start:]...)
}

// cleanText returns s with invalid UTF-8 replaced by U+FFFD and control
// characters and characters not allowed in XML 1.0 dropped, except tab and
// newline, which become spaces: text every export format can carry.
func cleanText(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || plainEscaper[c] != "" {
			return string(appendEscaped(make([]byte, 0, len(s)), s, plainEscaper))
		}
	}
	return s
}

// textRune reports whether r is a printable character allowed in XML 1.0.
// The U+FFFD that ranging over invalid UTF-8 yields passes.
func textRune(r rune) bool {
	if unicode.IsControl(r) {
		return false
	}
	return r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= unicode.MaxRune
}
