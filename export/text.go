package export

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanText returns s with invalid UTF-8 replaced by U+FFFD and control
// characters and characters not allowed in XML 1.0 dropped, except tab and
// newline, which become spaces: text every export format can carry.
func cleanText(s string) string {
	clean := true
	for _, r := range s {
		if !textRune(r) || r == '\t' || r == '\n' {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
			b.WriteByte(' ')
		case textRune(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// textRune reports whether r is a printable character allowed in XML 1.0.
// The U+FFFD that ranging over invalid UTF-8 yields passes.
func textRune(r rune) bool {
	if unicode.IsControl(r) {
		return false
	}
	return r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= unicode.MaxRune
}
