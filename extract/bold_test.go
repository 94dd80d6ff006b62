package extract

import (
	"regexp"
	"slices"
	"testing"
)

// boldRE is what eachBold scans for, as the regular expression it
// replaced: the oracle of its tests.
var boldRE = regexp.MustCompile(`\*\*([^*\n]{1,60})\*\*|\\textbf\{([^{}\n]{1,60})\}`)

func boldByRE(s string) []string {
	var out []string
	for _, m := range boldRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

func boldByScan(s string) []string {
	var out []string
	eachBold(s, func(b string) bool { out = append(out, b); return true })
	return out
}

func TestEachBold(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"We present **Dolphin**, a model.", []string{"Dolphin"}},
		{`We present \textbf{TP-GRPO} and **X** too`, []string{"TP-GRPO", "X"}},
		{"***A***", []string{"A"}},
		{"**** x", nil},
		{"**a\nb** **c**", []string{" "}},
		{"**" + string(make([]byte, 61)) + "**", nil},
		{"**ééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé**", []string{"ééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé"}},
		{`\textbf{a{b}} \textbf{}`, nil},
		{"*a* **b", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := boldByScan(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("eachBold(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if got, want := boldByScan(tt.in), boldByRE(tt.in); !slices.Equal(got, want) {
			t.Errorf("eachBold(%q) = %q; the regular expression finds %q", tt.in, got, want)
		}
	}
}

func FuzzEachBold(f *testing.F) {
	for _, s := range []string{"**a** \\textbf{b}", "***", "**x\n**", "\\textbf{{}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := boldByScan(s), boldByRE(s); !slices.Equal(got, want) {
			t.Errorf("eachBold(%q) = %q; the regular expression finds %q", s, got, want)
		}
	})
}
