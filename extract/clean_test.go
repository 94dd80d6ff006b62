package extract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "Plain text stays.", "Plain text stays."},
		// Examples from the issue.
		{"greek in math", `$\pi$-Light`, "π-Light"},
		{"textbf", `\textbf{GPS}`, "GPS"},
		{"emph", `we propose \emph{Dolphin}, a model`, "we propose Dolphin, a model"},
		{"markdown bold", "**Dolphin** is", "Dolphin is"},
		{"superscript", `UniF$^2$ace`, "UniF2ace"},
		{"escaped percent", `5.5\%`, "5.5%"},
		{"times", `$17\times$ faster`, "17× faster"},
		{"hyphenation", "it is nec- essary to", "it is necessary to"},
		// LaTeX math.
		{"subscript", `$x_{i}$`, "xi"},
		{"paren math", `\(\alpha\)-divergence`, "α-divergence"},
		{"bracket math", `\[a \leq b\]`, "a ≤ b"},
		{"display math", `$$\Omega(n)$$ time`, "Ω(n) time"},
		{"capital greek", `$\Delta\Sigma\Omega$`, "ΔΣΩ"},
		{"symbols", `$\leq \geq \approx \sim \pm \cdot \rightarrow \infty$`, "≤ ≥ ≈ ∼ ± · → ∞"},
		{"mathcal", `$\mathcal{O}(n \log n)$`, "O(n log n)"},
		{"mathbb", `$\mathbb{R}^d$`, "Rd"},
		{"frac", `$\frac{1}{2}$`, "1/2"},
		{"sqrt", `$\sqrt{d}$`, "√d"},
		{"operatorname", `$\operatorname*{argmax}_x$`, "argmaxx"},
		{"unknown math command", `$\widetilde{x}\foo y$`, "x y"},
		{"tilde in math", `$a~b$`, "a b"},
		{"dollar without close", "costs $5 and more", "costs $5 and more"},
		{"two prices", "$5 and $10", "$5 and $10"},
		{"escaped dollar", `\$100`, "$100"},
		{"lone dollar", "$", "$"},
		// LaTeX text commands.
		{"textit", `\textit{a} \texttt{b} \textsc{c}`, "a b c"},
		{"text mathrm mathbf", `$\text{x}\mathrm{y}\mathbf{z}$`, "xyz"},
		{"underline", `\underline{key}`, "key"},
		{"cite dropped", `results~\cite{smith2020}.`, "results."},
		{"citep dropped", `as shown \citep[p.~3]{a,b} here`, "as shown here"},
		{"ref dropped", `Table~\ref{tab:x} shows`, "Table shows"},
		{"label footnote dropped", `a\label{x}\footnote{note} b`, "a b"},
		{"url", `see \url{https://x.org/a_b~c}`, "see https://x.org/a_b~c"},
		{"href", `\href{https://x.org}{our site}`, "our site"},
		{"textcolor", `\textcolor{red}{hot}`, "hot"},
		{"declaration", `{\bf Bold} and {\em it}`, "Bold and it"},
		{"escapes", `\& \_ \# \$ \{ \}`, "& _ # $ { }"},
		{"tilde space", `Fig.~3 and et~al.`, "Fig. 3 and et al."},
		{"tilde approx", "about ~10% more", "about ~10% more"},
		{"tilde range", "3~5 dB and 2\\%~5\\%", "3~5 dB and 2%~5%"},
		{"tilde around math", `26.8\%~$\rightarrow$~56.3\%`, "26.8% → 56.3%"},
		{"en dash", "pages 1--2", "pages 1–2"},
		{"em dash", "models---standard", "models—standard"},
		{"accent", `Schr\"odinger and G\"{o}del, \c{c}a`, "Schrödinger and Gödel, ça"},
		{"eg", `\eg a dog`, "e.g. a dog"},
		{"latex quotes", "``quoted''", `"quoted"`},
		{"latex single quotes", "human `scapegoating'. and `x' y", "human 'scapegoating'. and 'x' y"},
		{"line break", `a\\b`, "a b"},
		{"backslash at end", `a\`, "a"},
		// Markdown.
		{"underscore bold", "__Bold__ text", "Bold text"},
		{"italic", "an *italic* word", "an italic word"},
		{"code", "the `foo_bar` flag", "the foo_bar flag"},
		{"link", "[our code](https://github.com/x/y) is", "our code is"},
		{"brackets", "in [0, 1] and [12]", "in [0, 1] and [12]"},
		{"multiplication star", "2 * 3 and a*b", "2 * 3 and a*b"},
		{"snake case", "use snake_case_name", "use snake_case_name"},
		{"underscore italic", "**_SpatiaLab_**, a benchmark", "SpatiaLab, a benchmark"},
		{"intraword bold", "**C**onfidence-**A**ware", "Confidence-Aware"},
		{"strong emphasis", "an average ***4%*** gain", "an average 4% gain"},
		{"star after letter", "V* Bench and p* values", "V* Bench and p* values"},
		// HTML.
		{"bold tag", "<b>Bold</b> move", "Bold move"},
		{"sub tag", "H<sub>2</sub>O", "H2O"},
		{"br tag", "line<br/>next", "line next"},
		{"anchor", `<a href="https://x.org">link</a>`, "link"},
		{"comment", "a<!-- hidden -->b", "ab"},
		{"less than", "a < b and c > d", "a < b and c > d"},
		{"angle pair", "<x, y>", "<x, y>"},
		{"entities", "&lt;tag&gt; &amp; &quot;q&quot; &#233;&#xE9;", `<tag> & "q" éé`},
		{"nbsp entity", "a&nbsp;b", "a b"},
		{"not an entity", "R&D and AT&T", "R&D and AT&T"},
		// Hyphenation.
		{"pre- and post-", "pre- and post-training", "pre- and post-training"},
		{"hyphen or", "first- or second-order", "first- or second-order"},
		{"hyphen to", "one- to two-shot", "one- to two-shot"},
		{"compound stays", "state-of-the- art", "state-of-the- art"},
		{"capital after", "Vision- Language", "Vision- Language"},
		{"hyphen newline", "gener-\nalization", "generalization"},
		{"compound tail", "a data- centric view", "a data-centric view"},
		{"compound head", "fine- grained and well- posed", "fine-grained and well-posed"},
		{"syllable break", "Trans- former and perfor- mance", "Transformer and performance"},
		{"dash as hyphen", "attributes- whose values", "attributes- whose values"},
		// Whitespace and bytes.
		{"whitespace runs", "  a \t\n b\r\n\nc  ", "a b c"},
		{"nbsp", "a\u00a0b\u2009c", "a b c"},
		{"zero width", "Dol\u200bphin\ufeff", "Dolphin"},
		{"soft hyphen", "hy\u00adphen", "hyphen"},
		{"control", "a\x01b", "a b"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"unicode kept", "naïve 中文 — ok", "naïve 中文 — ok"},
		// Malformed markup never panics and keeps the text.
		{"unbalanced open", `\textbf{GPS`, "GPS"},
		{"unbalanced close", "a}b", "ab"},
		{"open paren math", `\(x`, "x"},
		{"cite unclosed", `\cite{x`, "x"},
		{"deep nesting", strings.Repeat("{", 200) + "x" + strings.Repeat("}", 200), "x"},
		{"star alone", "*", "*"},
		{"bold unclosed", "**x", "**x"},
		{"entity at end", "&", "&"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.in).Clean; got != tt.want {
				t.Errorf("Clean(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSpan(t *testing.T) {
	tests := []struct {
		name, in, sub string
		want          []string // acceptable t.Orig[a:b]
	}{
		{"bold", "**Dolphin** is", "Dolphin", []string{"Dolphin", "**Dolphin**"}},
		{"math", `$\pi$-Light`, "π-Light", []string{`$\pi$-Light`}},
		{"math letter", `$\pi$-Light`, "π", []string{`$\pi$`}},
		{"text command", `we use \textbf{GPS} here`, "GPS", []string{`\textbf{GPS}`}},
		{"plain", "a plain word", "plain", []string{"plain"}},
		{"after markup", `$x$ and the Dolphin model`, "Dolphin", []string{"Dolphin"}},
		{"entity", "A&amp;B", "A&B", []string{"A&amp;B"}},
		{"collapsed space", "vision   language", "vision language", []string{"vision   language"}},
		{"hyphenation", "nec- essary", "necessary", []string{"nec- essary"}},
		{"url", `at \url{https://x.org} now`, "x.org", []string{"x.org", "x.org}"}},
		{"superscript", `UniF$^2$ace`, "UniF2ace", []string{`UniF$^2$ace`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			txt := Clean(tt.in)
			i := strings.Index(txt.Clean, tt.sub)
			if i < 0 {
				t.Fatalf("Clean(%q) = %q; no %q in it", tt.in, txt.Clean, tt.sub)
			}
			a, b := txt.Span(i, i+len(tt.sub))
			got := tt.in[a:b]
			for _, w := range tt.want {
				if got == w {
					return
				}
			}
			t.Errorf("Span of %q in Clean(%q) = %q; want one of %q", tt.sub, tt.in, got, tt.want)
		})
	}
}

func TestSpanBounds(t *testing.T) {
	txt := Clean("**a** b")
	for _, r := range [][2]int{{-5, 1}, {0, 100}, {3, 1}, {3, 3}, {100, 200}} {
		a, b := txt.Span(r[0], r[1])
		if a < 0 || a > b || b > len(txt.Orig) {
			t.Errorf("Span(%d, %d) = %d, %d; want 0 <= a <= b <= %d", r[0], r[1], a, b, len(txt.Orig))
		}
	}
	if a, b := Clean("").Span(0, 0); a != 0 || b != 0 {
		t.Errorf(`Clean("").Span(0, 0) = %d, %d; want 0, 0`, a, b)
	}
}

// checkClean checks the invariants that hold for every input.
func checkClean(t *testing.T, s string) {
	t.Helper()
	txt := Clean(s)
	c := txt.Clean
	if !utf8.ValidString(c) {
		t.Fatalf("Clean(%q) = %q: invalid UTF-8", s, c)
	}
	if strings.Contains(c, "  ") || strings.HasPrefix(c, " ") || strings.HasSuffix(c, " ") {
		t.Fatalf("Clean(%q) = %q: untrimmed or repeated spaces", s, c)
	}
	if strings.ContainsAny(c, "\t\n\r\u00a0\u200b") {
		t.Fatalf("Clean(%q) = %q: whitespace other than spaces", s, c)
	}
	if len(txt.start) != len(c) || len(txt.end) != len(c) {
		t.Fatalf("Clean(%q): %d/%d span entries for %d bytes", s, len(txt.start), len(txt.end), len(c))
	}
	pa, pb := 0, 0
	for i := 0; i < len(c); i++ {
		a, b := txt.Span(i, i+1)
		if a < 0 || a > b || b > len(s) || a < pa || b < pb {
			t.Fatalf("Clean(%q).Span(%d, %d) = %d, %d after %d, %d: out of order or bounds", s, i, i+1, a, b, pa, pb)
		}
		pa, pb = a, b
	}
	if a, b := txt.Span(0, len(c)); a < 0 || a > b || b > len(s) {
		t.Fatalf("Clean(%q).Span(0, %d) = %d, %d", s, len(c), a, b)
	}
	if again := Clean(s).Clean; again != c {
		t.Fatalf("Clean(%q) is not deterministic: %q then %q", s, c, again)
	}
	if !strings.ContainsAny(s, markupBytes) {
		if again := Clean(c).Clean; again != c {
			t.Fatalf("Clean(%q) = %q, but Clean of that = %q", s, c, again)
		}
	}
}

// markupBytes are the bytes outside of which Clean is idempotent.
const markupBytes = "\\${}*_`'[<&~-^"

func FuzzClean(f *testing.F) {
	for _, s := range []string{
		`$\pi$-Light`, `\textbf{GPS}`, "**Dolphin** is", `UniF$^2$ace`, `5.5\%`,
		`$17\times$`, "nec- essary", "pre- and post-training", "<b>x</b> &amp; &#233;",
		"[t](http://u) `c` __b__ *i*", `\cite{x} \url{y} \href{a}{b} \frac{1}{2}`,
		"{{{{\\(", "a\xffb\u00a0c\u200b", `\"o \c{c} ~ -- ---`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkClean(t, s)
	})
}

func TestCleanSeeds(t *testing.T) {
	files, _ := filepath.Glob("../seeds/*.txt")
	if len(files) == 0 {
		t.Skip("no seed files in ../seeds")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkClean(t, string(b))
	}
}

func BenchmarkClean(b *testing.B) {
	files, _ := filepath.Glob("../seeds/*.txt")
	var text strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		text.Write(data)
	}
	text.WriteString(`Markup: $\pi$-Light, \textbf{GPS}, **Dolphin**, UniF$^2$ace, 5.5\%, &amp;.`)
	s := text.String()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Clean(s)
	}
}

func ExampleClean() {
	t := Clean(`We propose **Dolphin**, $17\times$ faster on 5.5\% of \textbf{GPS} data.`)
	fmt.Println(t.Clean)
	i := strings.Index(t.Clean, "Dolphin")
	a, b := t.Span(i, i+len("Dolphin"))
	fmt.Println(t.Orig[a:b])
	// Output:
	// We propose Dolphin, 17× faster on 5.5% of GPS data.
	// **Dolphin**
}
