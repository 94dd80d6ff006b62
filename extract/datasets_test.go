package extract

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShapes holds the hand-written matchers to the regular expressions
// (and hasOddChar to strings.ContainsAny) they stand for, on tricky cases
// and on every word of the seed abstracts.
func TestShapes(t *testing.T) {
	shapes := []struct {
		name string
		f    func(string) bool
		re   *regexp.Regexp
	}{
		{"isModelName", isModelName, regexp.MustCompile(`[-_ ]\d+(\.\d+)?[Bb](-|$)|-(Instruct|Chat|Base|it)(-|$)`)},
		{"isDimensions", isDimensions, regexp.MustCompile(`^\d+(\.\d+)?[Dd](-\w+)?$`)},
		{"isModelSize", isModelSize, regexp.MustCompile(`(?i)^[\d.]+[kmbt]?$|\d+(\.\d+)?B$|^[A-Z]\d$`)},
	}
	words := []string{
		"", "-", "B", "7B", "7b", "-7B", "Llama3-70B", "Llama3-70B-chat", "Llama3-70Bx", "Qwen2.5-7B-Instruct",
		"Qwen2.5-7.5B", "x-7.B", "x-7.5.5B", "x_13b", "x 13B-y", "Gemma-2-9B-it", "Gemma-it", "Gemma-its",
		"x-Instruct", "x-Instructs", "x-Chat-v2", "x-Base", "x--7B", "x-", "x-.5B", "x-5.B",
		"2D", "3d", "3.5D", "3.D", "3D-aware", "3D-", "3D-_", "3D-a-b", "3D-é", "D", "12", "1.5", ".", "..",
		"1.5k", "100K", "100\u212A", "\u212A", "7t", "7m", "2x", "x7b", "abc12B", "12.5B", "V2", "v2", "\u212A2",
		"\u017F3", "S3", "ſ", "A", "A22", "AB", "é2", "\xff2", "2\xff", "1.2.3", "1e5",
	}
	files, err := filepath.Glob("../seeds/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		words = append(words, strings.Fields(string(data))...)
	}
	words = append(words, "a’b", "’", "\xe2\x80", "x@y", "(a)", "é", "a–b")
	for _, w := range words {
		if got, want := hasOddChar(w), strings.ContainsAny(w, "@%$/=+<>'’()"); got != want {
			t.Errorf("hasOddChar(%q) = %v; want %v", w, got, want)
		}
	}
	for _, sh := range shapes {
		for _, w := range words {
			if got, want := sh.f(w), sh.re.MatchString(w); got != want {
				t.Errorf("%s(%q) = %v; want %v as %s", sh.name, w, got, want, sh.re)
			}
		}
	}
}
