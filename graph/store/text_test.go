package store

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"The model and the GSM8K benchmark", []string{"model", "gsm8k", "benchmark"}},
		{"a b c of to", nil},
		{"Vision-Language Models (VLMs)", []string{"vision", "languag", "model", "vlms"}},
		{"agents, agent; benchmarks benchmarking", []string{"agent", "agent", "benchmark", "benchmark"}},
		{"Über große Daten: π-Light, 5.5% × 17", []string{"über", "große", "daten", "light", "17"}},
		{"ÉCOLE é", []string{"école"}},
	}
	for _, tt := range tests {
		if got := terms(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("terms(%q) = %q; want %q", tt.text, got, tt.want)
		}
	}
}

// termsByFields is the plain definition of terms: split at runes other
// than letters and digits, lower-case, drop short terms and stop words,
// stem.
func termsByFields(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		f = strings.Map(unicode.ToLower, f)
		if utf8.RuneCountInString(f) >= 2 && !stopWords[f] {
			out = append(out, english.Stem(f, false))
		}
	}
	return out
}

// FuzzTerms checks that terms' ASCII fast path agrees with its plain
// Unicode definition.
func FuzzTerms(f *testing.F) {
	for _, s := range []string{"GSM8K and MATH", "Über-große π", "x\xffy", "İstanbul", "a-b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// Invalid bytes decode to U+FFFD, not a letter: both split there.
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		if got, want := terms(s), termsByFields(s); !slices.Equal(got, want) {
			t.Errorf("terms(%q) = %q; want %q", s, got, want)
		}
	})
}

func TestStemName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"", ""},
		{"--", ""},
		{"agents", "agent"},
		{"Vision-Language Models", "vision languag model"},
		{"vision language model", "vision languag model"},
		{"GPT-4", "gpt 4"},
		{"chain of thought", "chain of thought"},
		{"Über  Daten", "über daten"},
	}
	for _, tt := range tests {
		var st stemmer
		if got := stemName(tt.name, &st); got != tt.want {
			t.Errorf("stemName(%q) = %q; want %q", tt.name, got, tt.want)
		}
	}
}
