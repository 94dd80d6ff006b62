package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
)

// testExtractorOnce is one Extractor for the package's tests: loading the
// vocabulary takes a while.
var testExtractorOnce = sync.OnceValues(func() (*extract.Extractor, error) { return extract.New(extract.Options{}) })

func testExtractor(tb testing.TB) *extract.Extractor {
	tb.Helper()
	x, err := testExtractorOnce()
	if err != nil {
		tb.Fatal(err)
	}
	return x
}

// generatedJSONL returns n generated documents of seed as JSON Lines.
func generatedJSONL(t *testing.T, x *extract.Extractor, seed uint64, n int) []byte {
	t.Helper()
	c, err := Open(x.Vocabulary(), seed, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, c, n); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGeneratorDeterministic(t *testing.T) {
	x := testExtractor(t)
	a := generatedJSONL(t, x, 1, 50)
	b := generatedJSONL(t, x, 1, 50)
	if !bytes.Equal(a, b) {
		t.Fatal("two corpora of seed 1 differ")
	}
	if c := generatedJSONL(t, x, 2, 50); bytes.Equal(a, c) {
		t.Fatal("corpora of seeds 1 and 2 are equal")
	}
	if n := bytes.Count(a, []byte("\n")); n != 50 {
		t.Fatalf("corpus of 50 documents has %d lines", n)
	}
}

// TestGeneratorPapers reads a generated corpus back through extract's
// Reader and checks that every document is a distinct paper of realistic
// length, with markup, in which the extractor finds tasks, datasets and
// techniques, and that popularity is skewed: some dataset is a hub.
func TestGeneratorPapers(t *testing.T) {
	const n = 300
	x := testExtractor(t)
	file := filepath.Join(t.TempDir(), "corpus.jsonl")
	if err := os.WriteFile(file, generatedJSONL(t, x, 7, n), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Open(x.Vocabulary(), 0, file)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ids := map[string]bool{}
	datasetPapers := map[string]int{}
	markup := 0
	for i := range n {
		d, err := c.Next()
		if err != nil {
			t.Fatal(err)
		}
		if d.Index != i+1 || d.Title == "" {
			t.Fatalf("document %d: index %d, title %q", i+1, d.Index, d.Title)
		}
		if l := len(d.Abstract); l < 700 || l > 2300 {
			t.Errorf("document %d: abstract of %d bytes, want about 800 to 2000", i+1, l)
		}
		if strings.ContainsAny(d.Abstract, `$\*`) {
			markup++
		}
		p, err := x.Extract(t.Context(), d)
		if err != nil {
			t.Fatal(err)
		}
		if ids[p.ID] {
			t.Fatalf("document %d: paper id %s repeats", i+1, p.ID)
		}
		ids[p.ID] = true
		for _, k := range []graph.Kind{graph.Task, graph.Dataset, graph.Technique} {
			if len(p.Names(k)) == 0 {
				t.Errorf("document %d: no %s found in %q", i+1, k.Plural(), d.Abstract)
			}
		}
		for _, name := range p.Names(graph.Dataset) {
			datasetPapers[name]++
		}
	}
	if markup < n/2 {
		t.Errorf("%d of %d abstracts have markup, want most", markup, n)
	}
	top := 0
	for _, c := range datasetPapers {
		top = max(top, c)
	}
	if top < n/10 {
		t.Errorf("most popular dataset in %d of %d papers; want a hub (Zipf popularity)", top, n)
	}
	if len(datasetPapers) < n/5 {
		t.Errorf("%d distinct datasets in %d papers; want a long tail", len(datasetPapers), n)
	}
}

// TestFileRepeats checks that a file shorter than the run is
// repeated with new paper ids.
func TestFileRepeats(t *testing.T) {
	x := testExtractor(t)
	file := filepath.Join(t.TempDir(), "two.jsonl")
	body := `{"title": "A", "abstract": "We propose Foo, a method for image classification on ImageNet."}
{"abstract": "Experiments on CIFAR-10 show gains for object detection."}
`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Open(x.Vocabulary(), 0, file)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ids := map[string]bool{}
	for i := range 5 {
		d, err := c.Next()
		if err != nil {
			t.Fatal(err)
		}
		p, err := x.Extract(t.Context(), d)
		if err != nil {
			t.Fatal(err)
		}
		if ids[p.ID] {
			t.Fatalf("document %d (%q): paper id %s repeats", i+1, d.Abstract, p.ID)
		}
		ids[p.ID] = true
		if i >= 2 && !strings.HasSuffix(d.Abstract, ")") {
			t.Errorf("document %d: abstract %q has no variant suffix", i+1, d.Abstract)
		}
	}

	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Open(x.Vocabulary(), 0, empty)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Next(); err == nil {
		t.Fatal("Next on an empty corpus file: no error")
	}
}
