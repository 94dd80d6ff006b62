package export

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-graphviz"

	"github.com/papergraph/papergraph/graph"
)

func TestQuoteDOT(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\path\n`, `"C:\\path\\n"`},
		{`ends with \`, `"ends with \\"`},
		{"two\nlines", `"two\nlines"`},
		{"tab\there", `"tab here"`},
		{"nul\x00bell\x07cr\r", `"nulbellcr"`},
		{"bad \xff utf8", "\"bad \uFFFD utf8\""},
		{"<b>{x}|y</b>", `"<b>{x}|y</b>"`},
		{`$\alpha$-LoRA`, `"$\\alpha$-LoRA"`},
		{"数据集 é", `"数据集 é"`},
		{"nonchar \uFFFE", `"nonchar "`},
	}
	for _, tt := range tests {
		if got := string(appendDOTString(nil, tt.in)); got != tt.want {
			t.Errorf("appendDOTString(%q) = %s; want %s", tt.in, got, tt.want)
		}
	}
}

func TestWrapLabel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"short", "short"},
		{"Dolphin: a vision-language model for GUI grounding on OSWorld-G",
			"Dolphin: a vision-language\nmodel for GUI grounding on\nOSWorld-G"},
		{"  spaced\n\tout  ", "spaced out"},
		{"supercalifragilisticexpialidocious-and-even-longer word", "supercalifragilisticexpialidocious-and-even-longer\nword"},
		{"ü ü ü ü ü ü ü ü ü ü ü ü ü ü ü ü", "ü ü ü ü ü ü ü ü ü ü ü ü ü ü ü\nü"},
	}
	for _, tt := range tests {
		if got := wrapLabel(tt.in, labelWidth); got != tt.want {
			t.Errorf("wrapLabel(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// nastyGraph is a subgraph whose labels exercise the escaper.
func nastyGraph() graph.Subgraph {
	return graph.Subgraph{
		Nodes: []graph.Node{
			{Paper: &graph.Paper{ID: "00000000000000a1", Label: `A "quoted" \title\ with <html> {record|fields} and $\mathcal{O}(n)$`}},
			{Paper: &graph.Paper{ID: "00000000000000b2", Label: "line one\nline two\r\n\x00\x1b[31m"}},
			{Paper: &graph.Paper{ID: "00000000000000c3", Label: ""}},
			{Entity: &graph.Entity{Kind: graph.Task, Name: "question answering"}},
			{Entity: &graph.Entity{Kind: graph.Modality, Name: "音声"}},
			{Entity: &graph.Entity{Kind: graph.Dataset, Name: `GSM8K\`}},
			{Entity: &graph.Entity{Kind: graph.Dataset, Name: "MATH"}},
			{Entity: &graph.Entity{Kind: graph.Technique, Name: "LoRA"}},
		},
		Edges: []graph.Edge{
			{From: "00000000000000a1", To: "task:question-answering", Kind: "task"},
			{From: "00000000000000a1", To: "dataset:gsm8k", Kind: "dataset"},
			{From: "00000000000000b2", To: "modality:音声", Kind: "modality"},
			{From: "00000000000000b2", To: "technique:lora", Kind: "technique"},
			{From: "00000000000000c3", To: "dataset:math", Kind: "dataset"},
			{From: "dataset:gsm8k", To: "dataset:math", Kind: graph.BroaderEdge},
		},
	}
}

// parsedDOT is what Graphviz's parser read back from a DOT text: the label
// of each node (legend nodes apart) and the number of edges.
type parsedDOT struct {
	labels map[string]string
	legend int
	edges  int
}

// parseDOT parses dot with Graphviz's own parser (compiled to WebAssembly
// by go-graphviz) and fails the test if it does not parse.
func parseDOT(tb testing.TB, dot []byte) parsedDOT {
	tb.Helper()
	g, err := graphviz.ParseBytes(dot)
	if err != nil || g == nil {
		tb.Fatalf("graphviz.ParseBytes: %v (graph %v)\n%s", err, g, dot)
	}
	defer g.Close()
	p := parsedDOT{labels: map[string]string{}}
	n, err := g.FirstNode()
	for ; err == nil && n != nil; n, err = g.NextNode(n) {
		name, err := n.Name()
		if err != nil {
			tb.Fatal(err)
		}
		if strings.HasPrefix(name, LegendPrefix) {
			p.legend++
			continue
		}
		p.labels[name] = n.Label()
	}
	if err != nil {
		tb.Fatal(err)
	}
	if p.edges, err = g.EdgeNum(); err != nil {
		tb.Fatal(err)
	}
	return p
}

// unescapeLabel undoes the escapes appendDOTString writes that Graphviz's lexer
// leaves in a label (it turns \" into " itself): \\ and \n. Any other
// backslash would be a label escape the writer did not mean.
func unescapeLabel(tb testing.TB, s string) string {
	tb.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch {
		case i < len(s) && s[i] == '\\':
			b.WriteByte('\\')
		case i < len(s) && s[i] == 'n':
			b.WriteByte('\n')
		default:
			tb.Fatalf("label %q has a stray escape at byte %d", s, i-1)
		}
	}
	return b.String()
}

// wantLabel is the label a node should show.
func wantLabel(n graph.Node) string {
	if l := wrapLabel(n.Label(), labelWidth); l != "" {
		return l
	}
	return n.ID()
}

func TestWriteDOTParses(t *testing.T) {
	g := nastyGraph()
	for _, opts := range []DOTOptions{{}, {Cluster: true}, {Legend: true}, {Cluster: true, Legend: true}} {
		var buf bytes.Buffer
		if err := WriteDOT(&buf, g, opts); err != nil {
			t.Fatalf("WriteDOT(%+v): %v", opts, err)
		}
		p := parseDOT(t, buf.Bytes())
		if len(p.labels) != len(g.Nodes) || p.edges != len(g.Edges) {
			t.Errorf("WriteDOT(%+v) parses to %d nodes, %d edges; want %d, %d\n%s",
				opts, len(p.labels), p.edges, len(g.Nodes), len(g.Edges), buf.Bytes())
		}
		if want := map[bool]int{false: 0, true: 5}[opts.Legend]; p.legend != want {
			t.Errorf("WriteDOT(%+v) has %d legend nodes; want %d", opts, p.legend, want)
		}
		for _, n := range g.Nodes {
			if got := unescapeLabel(t, p.labels[n.ID()]); got != wantLabel(n) {
				t.Errorf("WriteDOT(%+v) node %s label = %q; want %q", opts, n.ID(), got, wantLabel(n))
			}
		}
		if got := strings.Count(buf.String(), "subgraph cluster_"); opts.Cluster && got != len(graph.Kinds)+map[bool]int{false: 0, true: 1}[opts.Legend] {
			t.Errorf("WriteDOT(%+v) has %d clusters; want one per kind", opts, got)
		}
	}
}

func TestWriteDOTDeterministic(t *testing.T) {
	g := nastyGraph()
	var want bytes.Buffer
	if err := WriteDOT(&want, g, DOTOptions{Cluster: true, Legend: true}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		rng.Shuffle(len(g.Nodes), func(i, j int) { g.Nodes[i], g.Nodes[j] = g.Nodes[j], g.Nodes[i] })
		rng.Shuffle(len(g.Edges), func(i, j int) { g.Edges[i], g.Edges[j] = g.Edges[j], g.Edges[i] })
		var got bytes.Buffer
		if err := WriteDOT(&got, g, DOTOptions{Cluster: true, Legend: true}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("WriteDOT of shuffled input differs:\n%s\n---\n%s", got.Bytes(), want.Bytes())
		}
	}
}

func TestDOTWriterNodeAfterEdge(t *testing.T) {
	var buf bytes.Buffer
	dw := NewDOTWriter(&buf, DOTOptions{})
	if err := dw.WriteEdge(graph.Edge{From: "a", To: "b", Kind: "task"}); err != nil {
		t.Fatal(err)
	}
	if err := dw.WriteNode(graph.Node{Entity: &graph.Entity{Kind: graph.Task, Name: "c"}}); err == nil {
		t.Error("WriteNode after WriteEdge succeeded; want an error")
	}
}

// FuzzDOTLabel checks that any paper label gives DOT that Graphviz parses
// back to the label (wrapped and cleaned).
func FuzzDOTLabel(f *testing.F) {
	for _, n := range nastyGraph().Nodes {
		f.Add(n.Label())
	}
	f.Add(`\N \G \E \T \H \L \l \r`)
	f.Add("trailing backslash \\")
	f.Add("\"")
	f.Add("\\\"")
	f.Fuzz(func(t *testing.T, label string) {
		if len(label) > 2000 {
			t.Skip("labels are short")
		}
		n := graph.Node{Paper: &graph.Paper{ID: "0123456789abcdef", Label: label}}
		var buf bytes.Buffer
		if err := WriteDOT(&buf, graph.Subgraph{Nodes: []graph.Node{n}}, DOTOptions{}); err != nil {
			t.Fatal(err)
		}
		p := parseDOT(t, buf.Bytes())
		if len(p.labels) != 1 || p.edges != 0 {
			t.Fatalf("WriteDOT(label %q) parses to %v, %d edges; want one node\n%s", label, p.labels, p.edges, buf.Bytes())
		}
		got := unescapeLabel(t, p.labels[n.ID()])
		if got != wantLabel(n) {
			t.Fatalf("label %q parses back as %q; want %q\n%s", label, got, wantLabel(n), buf.Bytes())
		}
		if words := strings.Fields(cleanText(label)); len(words) > 0 && !slices.Equal(strings.Fields(got), words) {
			t.Fatalf("label %q parses back as words %q; want %q", label, strings.Fields(got), words)
		}
	})
}

func ExampleWriteDOT() {
	lora := graph.Entity{Kind: graph.Technique, Name: "LoRA"}
	g := graph.Subgraph{
		Nodes: []graph.Node{
			{Paper: &graph.Paper{ID: "00000000000000d1", Label: `Dolphin: a "small" VLM`}},
			{Entity: &lora},
		},
		Edges: []graph.Edge{{From: "00000000000000d1", To: lora.ID(), Kind: "technique"}},
	}
	if err := WriteDOT(os.Stdout, g, DOTOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// digraph papergraph {
	// 	graph [rankdir=LR, fontname="Helvetica", fontsize=10];
	// 	node [fontname="Helvetica", fontsize=10, penwidth=0.8];
	// 	edge [color="#808080", arrowsize=0.6];
	// 	"00000000000000d1" [label="Dolphin: a \"small\" VLM", shape=box, style="rounded,filled", fillcolor="#eeeeee", class="paper", tooltip="Dolphin: a \"small\" VLM"];
	// 	"technique:lora" [label="LoRA", shape=octagon, style="filled", fillcolor="#dadaeb", class="technique"];
	// 	"00000000000000d1" -> "technique:lora" [class="technique"];
	// }
}

// TestWriteDOTGraphviz has Graphviz's own dot read the nasty graph and
// write it back canonically: it must accept it without a warning and keep
// every label.
func TestWriteDOTGraphviz(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("Graphviz's dot is not on PATH (apt-get install graphviz)")
	}
	var buf bytes.Buffer
	if err := WriteDOT(&buf, nastyGraph(), DOTOptions{Cluster: true, Legend: true}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dot", "-Tcanon")
	cmd.Stdin = bytes.NewReader(buf.Bytes())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	canon, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("dot -Tcanon: %v\n%s\n%s", err, stderr.Bytes(), buf.Bytes())
	}
	want, got := parseDOT(t, buf.Bytes()), parseDOT(t, canon)
	if !maps.Equal(got.labels, want.labels) || got.edges != want.edges || got.legend != want.legend {
		t.Errorf("dot -Tcanon changed the graph:\n%+v\nwant\n%+v", got, want)
	}
}
