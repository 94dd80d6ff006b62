package graph

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSlug checks that Slug's ASCII fast path agrees with its plain
// Unicode definition.
func FuzzSlug(f *testing.F) {
	for _, s := range []string{"GSM8K and MATH", "Über-große π", "x\xffy", "İstanbul", "a-b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// Invalid bytes decode to U+FFFD, not a letter: both split there.
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		if got, want := Slug(s), string(appendSlugUnicode(nil, s)); got != want {
			t.Errorf("Slug(%q) = %q; want %q", s, got, want)
		}
	})
}
