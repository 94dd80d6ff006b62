package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-graphviz"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// seedGraph is a database holding the seed files ingested with the real
// extractor.
type seedGraph struct{ dir string }

func newSeedGraph(tb testing.TB) seedGraph {
	tb.Helper()
	dir := tb.TempDir()
	files, err := filepath.Glob("seeds/*.txt")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no seed files (%v)", err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), append([]string{"ingest", "--db", dir}, files...), nil, &out, &out); err != nil {
		tb.Fatalf("ingest seeds: %v\n%s", err, out.Bytes())
	}
	return seedGraph{dir}
}

// export runs papergraph export on the seed database and returns
// its standard output.
func (sg seedGraph) export(tb testing.TB, args ...string) ([]byte, error) {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"export", "--db", sg.dir}, args...), nil, &stdout, &stderr)
	return stdout.Bytes(), err
}

func (sg seedGraph) mustExport(tb testing.TB, args ...string) []byte {
	tb.Helper()
	out, err := sg.export(tb, args...)
	if err != nil {
		tb.Fatalf("export %v: %v", args, err)
	}
	return out
}

// seedCounts is what the seed graph should export: Stats' nodes and
// paper-entity edges, and the taxonomy edges counted by walking it.
type seedCounts struct {
	stats   graph.Stats
	nodes   int
	broader int
}

func (sg seedGraph) counts(tb testing.TB) seedCounts {
	tb.Helper()
	st, err := openStore(sg.dir, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	var c seedCounts
	if c.stats, err = st.Stats(context.Background()); err != nil {
		tb.Fatal(err)
	}
	c.nodes = c.stats.Papers
	for _, n := range c.stats.Entities {
		c.nodes += n
	}
	err = st.Walk(context.Background(), nil, func(e graph.Entity) error {
		c.broader += len(e.Broader)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// seedPaper returns a seed paper that has datasets.
func (sg seedGraph) paper(tb testing.TB) graph.Paper {
	tb.Helper()
	st, err := openStore(sg.dir, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	var found graph.Paper
	stop := errors.New("found")
	err = st.Walk(context.Background(), func(p graph.Paper) error {
		if len(p.Names(graph.Dataset)) > 0 {
			found = p
			return stop
		}
		return nil
	}, nil)
	if !errors.Is(err, stop) {
		tb.Fatalf("no seed paper has a dataset (walk: %v)", err)
	}
	return found
}

// TestExportSeedGraph checks the whole seed graph as DOT against Stats,
// read by Graphviz's own tools and by the in-process parser.
func TestExportSeedGraph(t *testing.T) {
	sg := newSeedGraph(t)
	want := sg.counts(t)
	edges := want.stats.Edges + want.broader
	t.Logf("seed graph: %d nodes, %d paper-entity edges, %d taxonomy edges", want.nodes, want.stats.Edges, want.broader)
	for _, flags := range [][]string{nil, {"--cluster", "--legend"}} {
		dot := sg.mustExport(t, flags...)
		legend := 0
		if len(flags) > 0 {
			legend = len(graph.Kinds) + 1
		}

		g, err := graphviz.ParseBytes(dot)
		if err != nil || g == nil {
			t.Fatalf("export %v: in-process parser: %v", flags, err)
		}
		n, _ := g.NodeNum()
		e, _ := g.EdgeNum()
		g.Close()
		if n != want.nodes+legend || e != edges {
			t.Errorf("export %v: in-process parser counts %d nodes, %d edges; want %d+%d legend, %d", flags, n, e, want.nodes, legend, edges)
		}

		if _, err := exec.LookPath("dot"); err != nil {
			t.Log("Graphviz's dot is not on PATH (apt-get install graphviz): skipping the check with Graphviz's own tools")
			continue
		}
		cmd := exec.Command("dot", "-Tcanon")
		cmd.Stdin = bytes.NewReader(dot)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("export %v: dot -Tcanon: %v\n%s", flags, err, stderr.Bytes())
		}
		cmd = exec.Command("gc", "-ne")
		cmd.Stdin = bytes.NewReader(dot)
		counts, err := cmd.Output()
		if err != nil {
			t.Fatalf("gc -ne: %v", err)
		}
		f := strings.Fields(string(counts))
		gn, _ := strconv.Atoi(f[0])
		ge, _ := strconv.Atoi(f[1])
		if gn != want.nodes+legend || ge != edges {
			t.Errorf("export %v: Graphviz's gc counts %d nodes, %d edges; want %d+%d legend, %d", flags, gn, ge, want.nodes, legend, edges)
		}
	}
}

func TestExportSeedGraphML(t *testing.T) {
	sg := newSeedGraph(t)
	want := sg.counts(t)
	var doc struct {
		Nodes []struct {
			ID string `xml:"id,attr"`
		} `xml:"graph>node"`
		Edges []struct {
			Kind string `xml:"data"`
		} `xml:"graph>edge"`
	}
	out := sg.mustExport(t, "--format", "graphml")
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("GraphML does not parse: %v", err)
	}
	broader := 0
	for _, e := range doc.Edges {
		if e.Kind == graph.BroaderEdge {
			broader++
		}
	}
	if len(doc.Nodes) != want.nodes || len(doc.Edges)-broader != want.stats.Edges || broader != want.broader {
		t.Errorf("GraphML has %d nodes, %d paper edges, %d broader; want %d, %d, %d",
			len(doc.Nodes), len(doc.Edges)-broader, broader, want.nodes, want.stats.Edges, want.broader)
	}

	var cy struct {
		Elements struct {
			Nodes []json.RawMessage `json:"nodes"`
			Edges []json.RawMessage `json:"edges"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(sg.mustExport(t, "--format", "cytoscape"), &cy); err != nil {
		t.Fatalf("Cytoscape JSON does not decode: %v", err)
	}
	if len(cy.Elements.Nodes) != want.nodes || len(cy.Elements.Edges) != want.stats.Edges+want.broader {
		t.Errorf("Cytoscape JSON has %d nodes, %d edges; want %d, %d", len(cy.Elements.Nodes), len(cy.Elements.Edges), want.nodes, want.stats.Edges+want.broader)
	}
}

// TestExportSVG draws a seed paper's neighbourhood and looks for the
// paper's label and its datasets' names in the picture.
func TestExportSVG(t *testing.T) {
	sg := newSeedGraph(t)
	p := sg.paper(t)
	file := filepath.Join(t.TempDir(), "paper.svg")
	if out := sg.mustExport(t, "--format", "svg", "--paper", p.ID, "--legend", "-o", file); len(out) > 0 {
		t.Errorf("export -o wrote %d bytes to standard output", len(out))
	}
	svg, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var strs []string
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.CharData:
			strs = append(strs, string(tok))
		case xml.StartElement:
			for _, a := range tok.Attr {
				strs = append(strs, a.Value)
			}
		}
	}
	text := strings.Join(strs, "\n")
	for _, want := range append([]string{strings.Join(strings.Fields(p.Label), " ")}, p.Names(graph.Dataset)...) {
		if !strings.Contains(text, want) {
			t.Errorf("SVG of paper %s lacks %q", p.ID, want)
		}
	}

	png := sg.mustExport(t, "--format", "png", "--paper", p.ID)
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("export --format png wrote %q...; want a PNG", png[:min(8, len(png))])
	}
}

func TestExportDeterministic(t *testing.T) {
	sg := newSeedGraph(t)
	p := sg.paper(t)
	for _, args := range [][]string{
		{"--cluster", "--legend"},
		{"--format", "graphml"},
		{"--format", "cytoscape"},
		{"--paper", p.ID, "--hops", "2", "--cluster"},
		{"--search", "language model", "--format", "graphml"},
	} {
		a, b := sg.mustExport(t, args...), sg.mustExport(t, args...)
		if !bytes.Equal(a, b) {
			t.Errorf("two exports %v differ", args)
		}
	}
}

func TestExportBadSelections(t *testing.T) {
	sg := newSeedGraph(t)
	p := sg.paper(t)
	tests := []struct {
		name string
		args []string
		want error
		msg  string
	}{
		{"unknown paper", []string{"--paper", "00000000000000ff"}, graph.ErrNotFound, "paper 00000000000000ff"},
		{"malformed paper", []string{"--paper", "dolphin"}, graph.ErrBadID, "not a paper id"},
		{"unknown entity", []string{"--entity", "dataset:no-such-set"}, graph.ErrNotFound, `no dataset has that name`},
		{"unknown entity kind", []string{"--entity", "colour:red"}, graph.ErrBadKind, `"colour"`},
		{"entity without kind", []string{"--entity", "gsm8k"}, graph.ErrBadID, "want kind:name"},
		{"unknown kind filter", []string{"--paper", p.ID, "--kinds", "task,colour"}, errUsage, "colour"},
		{"hops out of range", []string{"--paper", p.ID, "--hops", "5"}, graph.ErrBadArgument, "hops 5 out of range 0..4"},
		{"negative hops", []string{"--paper", p.ID, "--hops", "-1"}, graph.ErrBadArgument, "out of range"},
		{"two starts", []string{"--paper", p.ID, "--entity", "dataset:gsm8k"}, graph.ErrBadArgument, "one of paper, entity and search"},
		{"limit on the whole graph", []string{"--limit", "5"}, graph.ErrBadArgument, "limit needs"},
		{"nothing found", []string{"--search", "qqqzzzxxx"}, graph.ErrNotFound, "no paper or entity matches"},
		{"unknown format", []string{"--format", "pdf"}, errUsage, `"pdf"`},
		{"stray argument", []string{p.ID}, errUsage, "--paper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sg.export(t, tt.args...)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("export %v = %v; want %v saying %q", tt.args, err, tt.want, tt.msg)
			}
		})
	}

	// A failed export to a file leaves no file behind.
	file := filepath.Join(t.TempDir(), "out.dot")
	if _, err := sg.export(t, "--paper", "00000000000000ff", "-o", file); err == nil {
		t.Fatal("export of an unknown paper succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "*")); len(left) > 0 {
		t.Errorf("failed export left %v", left)
	}
}

// TestExportSVGTooBig checks that drawing more than renderLimit nodes is
// refused with advice, for the whole graph (counted before loading it) and
// for a subgraph.
func TestExportSVGTooBig(t *testing.T) {
	sg := newSeedGraph(t)
	if n := sg.counts(t).nodes; n > renderLimit {
		t.Errorf("the seed graph has %d nodes, more than the render limit %d", n, renderLimit)
	}
	defer func(n int) { renderLimit = n }(renderLimit)
	renderLimit = 20
	for _, args := range [][]string{{"--format", "svg"}, {"--format", "png", "--search", "model", "--hops", "2"}} {
		_, err := sg.export(t, args...)
		if !errors.Is(err, graph.ErrBadArgument) || !regexp.MustCompile(`too many to draw.*as dot`).MatchString(err.Error()) {
			t.Errorf("export %v with a limit of %d nodes = %v; want a refusal suggesting dot", args, renderLimit, err)
		}
	}
}

// TestExportNeo4j writes the seed graph's neo4j-admin files, as DIR and
// as -o DIR, and refuses a missing directory.
func TestExportNeo4j(t *testing.T) {
	sg := newSeedGraph(t)
	for _, args := range [][]string{{filepath.Join(t.TempDir(), "neo4j")}, {"-o", filepath.Join(t.TempDir(), "neo4j")}} {
		if _, err := sg.export(t, append([]string{"--format", "neo4j"}, args...)...); err != nil {
			t.Fatalf("export --format neo4j %q: %v", args, err)
		}
		dir := args[len(args)-1]
		nodes, rels := export.Neo4jFiles()
		for _, name := range append(nodes, rels...) {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
				t.Errorf("export --format neo4j %q: %s missing or empty (%v)", args, name, err)
			}
		}
	}
	if _, err := sg.export(t, "--format", "neo4j"); !errors.Is(err, errUsage) {
		t.Errorf("export --format neo4j without a directory: %v; want a usage error", err)
	}
}
