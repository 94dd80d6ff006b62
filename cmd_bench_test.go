package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/extract"
)

// runBenchArgs runs `papergraph bench args...` and returns its stdout.
func runBenchArgs(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), append([]string{"bench"}, args...), nil, &stdout, &stderr); err != nil {
		t.Fatalf("bench %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// TestBenchJSON runs the whole benchmark, HTTP load included, on a tiny
// corpus and checks that the JSON object has every key and sane values.
// It asserts no timings: the machine may be slow.
func TestBenchJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	out := runBenchArgs(t, "--papers", "200", "--queries", "20", "--http", "--concurrency", "4",
		"--duration", "500ms", "--db", dir, "--json")
	var got map[string]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("bench --json output is not one JSON object: %v\n%s", err, out)
	}
	for _, key := range []string{"papers", "extract_mb_s", "extract_papers_s", "ingest_papers_s", "db_bytes", "peak_rss_bytes", "queries", "http"} {
		if _, ok := got[key]; !ok {
			t.Errorf("bench --json: no key %q in\n%s", key, out)
		}
	}

	var res struct {
		Papers       int     `json:"papers"`
		StoredPapers int     `json:"stored_papers"`
		Edges        int     `json:"edges"`
		ExtractMBs   float64 `json:"extract_mb_s"`
		IngestS      float64 `json:"ingest_papers_s"`
		DBBytes      int64   `json:"db_bytes"`
		ExportEdgesS float64 `json:"export_edges_s"`
		ExportBytes  int64   `json:"export_bytes"`
		Queries      map[string]struct {
			N   int     `json:"n"`
			P50 float64 `json:"p50_us"`
			P95 float64 `json:"p95_us"`
			P99 float64 `json:"p99_us"`
		} `json:"queries"`
		HTTP *struct {
			Requests int     `json:"requests"`
			RPS      float64 `json:"rps"`
			P99ms    float64 `json:"p99_ms"`
			Errors   int     `json:"errors"`
		} `json:"http"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.Papers != 200 || res.StoredPapers != 200 {
		t.Errorf("papers %d, stored %d; want 200 and 200", res.Papers, res.StoredPapers)
	}
	if res.Edges == 0 || res.ExtractMBs <= 0 || res.IngestS <= 0 || res.DBBytes <= 0 {
		t.Errorf("edges %d, extract %v MB/s, ingest %v papers/s, db %d bytes; want all positive", res.Edges, res.ExtractMBs, res.IngestS, res.DBBytes)
	}
	for _, name := range []string{"papersSharing", "neighborhood", "neighborhoodEntity", "path", "search"} {
		q, ok := res.Queries[name]
		switch {
		case !ok:
			t.Errorf("no query %q in %s", name, got["queries"])
		case q.N != 20 || q.P50 <= 0 || q.P50 > q.P95 || q.P95 > q.P99:
			t.Errorf("query %s: %+v; want 20 timings with p50 <= p95 <= p99", name, q)
		}
	}
	if res.ExportEdgesS <= 0 || res.ExportBytes <= 0 {
		t.Errorf("export: %v edges/s, %d bytes; want both positive", res.ExportEdgesS, res.ExportBytes)
	}
	if res.HTTP == nil || res.HTTP.Requests == 0 || res.HTTP.Errors != 0 {
		t.Errorf("http: %+v; want requests and no errors", res.HTTP)
	}
	// --db is kept, holding the database.
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST")); err != nil {
		t.Errorf("--db %s not kept: %v", dir, err)
	}
	// ... and never written to again.
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"bench", "--papers", "10", "--db", dir}, nil, &bytes.Buffer{}, &stderr)
	if !errors.Is(err, errUsage) {
		t.Errorf("bench --db on a non-empty directory: %v; want a usage error", err)
	}

	// --reuse queries it again, finding its papers.
	out = runBenchArgs(t, "--reuse", "--db", dir, "--queries", "10", "--json")
	res.Queries = nil
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("bench --reuse: %v\n%s", err, out)
	}
	if q := res.Queries["papersSharing"]; res.StoredPapers != 200 || q.N != 10 {
		t.Errorf("bench --reuse: %d papers, %d sharing queries; want 200 and 10\n%s", res.StoredPapers, q.N, out)
	}
	err = run(context.Background(), []string{"bench", "--reuse"}, nil, &bytes.Buffer{}, &stderr)
	if !errors.Is(err, errUsage) {
		t.Errorf("bench --reuse without --db: %v; want a usage error", err)
	}
}

func TestBenchTable(t *testing.T) {
	out := string(runBenchArgs(t, "--papers", "50", "--queries", "10", "--incremental"))
	for _, want := range []string{"extract", "incremental: ", "papersSharing", "peak RSS", "on disk"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench table has no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "http") {
		t.Errorf("bench without --http reports http:\n%s", out)
	}
}

// TestBenchWriteCorpus checks --write-corpus against the generator and
// that a real corpus given with --corpus is repeated up to --papers.
func TestBenchWriteCorpus(t *testing.T) {
	file := filepath.Join(t.TempDir(), "corpus.jsonl")
	runBenchArgs(t, "--papers", "30", "--seed", "3", "--write-corpus", file)
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	x, err := extract.New(extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Open(x.Vocabulary(), 3, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var want bytes.Buffer
	if err := corpus.WriteJSONL(&want, c, 30); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("--write-corpus wrote %d bytes, unlike the generator's %d", len(got), want.Len())
	}

	again := filepath.Join(t.TempDir(), "again.jsonl")
	runBenchArgs(t, "--papers", "70", "--corpus", file, "--write-corpus", again)
	data, err := os.ReadFile(again)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != 70 {
		t.Errorf("30 documents repeated to --papers 70: %d lines", n)
	}
	if !bytes.Contains(data, []byte("(variant 2)")) {
		t.Error("third pass over the corpus has no (variant 2) suffix")
	}
}

// TestBenchRealCorpus runs bench on the shared corpus when it is there.
func TestBenchRealCorpus(t *testing.T) {
	const file = "../shared/corpus/papers.jsonl"
	if _, err := os.Stat(file); err != nil {
		t.Skipf("no shared corpus: %v", err)
	}
	var res struct {
		StoredPapers int `json:"stored_papers"`
	}
	out := runBenchArgs(t, "--papers", "100", "--queries", "10", "--corpus", file, "--json")
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.StoredPapers == 0 || res.StoredPapers > 100 {
		t.Errorf("stored %d papers of 100 read from %s", res.StoredPapers, file)
	}
}

func TestBenchBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--papers", "0"},
		{"--queries", "0"},
		{"--http", "--concurrency", "0"},
		{"extra"},
	} {
		err := run(context.Background(), append([]string{"bench"}, args...), nil, &bytes.Buffer{}, &bytes.Buffer{})
		if !errors.Is(err, errUsage) {
			t.Errorf("bench %s: %v; want a usage error", strings.Join(args, " "), err)
		}
	}
}
