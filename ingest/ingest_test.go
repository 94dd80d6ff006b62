package ingest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

var (
	extractorOnce sync.Once
	extractor     *extract.Extractor
	extractorErr  error
)

// testExtractor returns the real extractor, built once.
func testExtractor(tb testing.TB) *extract.Extractor {
	tb.Helper()
	extractorOnce.Do(func() { extractor, extractorErr = extract.New(extract.Options{}) })
	if extractorErr != nil {
		tb.Fatal(extractorErr)
	}
	return extractor
}

// openTest opens a store in a temporary directory, closed at the end of
// the test.
func openTest(tb testing.TB) *store.Store {
	tb.Helper()
	st, err := store.Open(tb.TempDir(), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// writeJSONL writes one JSON Lines record per abstract (or the line itself
// when it does not start with a letter) and returns the file's path.
func writeJSONL(tb testing.TB, dir, name string, lines ...string) string {
	tb.Helper()
	var b strings.Builder
	for _, l := range lines {
		if l != "" && (l[0] == '{' || l[0] == '[') {
			b.WriteString(l + "\n")
			continue
		}
		rec, _ := json.Marshal(map[string]string{"abstract": l})
		b.Write(append(rec, '\n'))
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

var abstracts = []string{
	"We fine-tune large language models with LoRA and evaluate mathematical reasoning on GSM8K and MATH.",
	"We present a vision-language model for GUI grounding, evaluated on ScreenSpot and OSWorld-G.",
	"Reinforcement learning from human feedback improves instruction following on AlpacaEval.",
}

func TestRun(t *testing.T) {
	x := testExtractor(t)
	dir := t.TempDir()
	a := writeJSONL(t, dir, "a.jsonl", abstracts[0], abstracts[1])
	b := writeJSONL(t, dir, "b.jsonl", abstracts[2])
	bad := writeJSONL(t, dir, "bad.jsonl", abstracts[0], "{not json", abstracts[2])
	tests := []struct {
		name      string
		files     []string
		skipBad   bool
		opts      Options
		again     bool // ingest the files a second time into the same store
		want      Summary
		wantErr   string // a substring of the error; empty for none
		wantInDB  int
		wantBatch int // Progress calls
	}{
		{name: "bulk", files: []string{a, b}, opts: Options{Batch: 2},
			want: Summary{Bulk: true}, wantInDB: 3, wantBatch: 2},
		{name: "incremental", files: []string{a, b}, opts: Options{Incremental: true},
			want: Summary{}, wantInDB: 3, wantBatch: 1},
		{name: "again", files: []string{a, b}, again: true,
			want: Summary{}, wantInDB: 3, wantBatch: 1},
		{name: "bad record stops", files: []string{bad}, opts: Options{Batch: 1},
			want: Summary{Bulk: true}, wantErr: "bad.jsonl:2", wantInDB: 1, wantBatch: 2},
		{name: "bad record skipped", files: []string{bad}, skipBad: true,
			want: Summary{Bulk: true, Skipped: 1}, wantInDB: 2, wantBatch: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := openTest(t)
			ropts := extract.ReaderOptions{SkipBad: tt.skipBad}
			if tt.again {
				src := Files(context.Background(), tt.files, ropts)
				if _, err := Run(context.Background(), st, x, src, tt.opts); err != nil {
					t.Fatal(err)
				}
				src.Close()
			}
			calls, written := 0, 0
			tt.opts.Progress = func(Summary) { calls++ }
			tt.opts.Written = func(papers []graph.Paper) { written += len(papers) }
			src := Files(context.Background(), tt.files, ropts)
			defer src.Close()
			sum, err := Run(context.Background(), st, x, src, tt.opts)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Run = %v; want error %q", err, tt.wantErr)
			}
			if sum.Bulk != tt.want.Bulk || sum.Skipped != tt.want.Skipped || sum.Papers() != tt.wantInDB {
				t.Errorf("Run = %+v; want bulk %v, %d skipped, %d papers", sum, tt.want.Bulk, tt.want.Skipped, tt.wantInDB)
			}
			if tt.again && sum.Unchanged != tt.wantInDB {
				t.Errorf("Run again = %+v; want %d unchanged", sum, tt.wantInDB)
			}
			if written != tt.wantInDB {
				t.Errorf("Written saw %d papers; want %d", written, tt.wantInDB)
			}
			if calls != tt.wantBatch {
				t.Errorf("Progress called %d times; want %d", calls, tt.wantBatch)
			}
			stats, err := st.Stats(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if stats.Papers != tt.wantInDB {
				t.Errorf("store holds %d papers; want %d", stats.Papers, tt.wantInDB)
			}
			if v, err := st.Check(context.Background()); err != nil || len(v) > 0 {
				t.Errorf("Check = %q, %v; want consistent", v, err)
			}
		})
	}
}

// TestRunCanceled checks that an ingest whose context ends still writes
// what it read, and says why it stopped.
func TestRunCanceled(t *testing.T) {
	x := testExtractor(t)
	st := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	src := Files(context.Background(), []string{writeJSONL(t, t.TempDir(), "a.jsonl", abstracts...)}, extract.ReaderOptions{})
	defer src.Close()
	sum, err := Run(ctx, st, x, src, Options{Batch: 1, Progress: func(Summary) { cancel() }})
	if err != context.Canceled {
		t.Fatalf("Run = %v; want context.Canceled", err)
	}
	stats, serr := st.Stats(context.Background())
	if serr != nil {
		t.Fatal(serr)
	}
	if sum.Papers() < 1 || stats.Papers != sum.Papers() {
		t.Errorf("Run wrote %d papers and the store holds %d; want the same, at least 1", sum.Papers(), stats.Papers)
	}
}
