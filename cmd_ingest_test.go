package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// runCmd runs the command line args and returns its stdout, stderr and
// error.
func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// statsJSON runs stats --json on db.
func statsJSON(t *testing.T, db string) map[string]any {
	t.Helper()
	out, _, err := runCmd(t, "stats", "--db", db, "--json")
	if err != nil {
		t.Fatalf("stats: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stats --json printed %q: %v", out, err)
	}
	return m
}

// jsonl writes records as a JSON Lines file in dir and returns its path.
func jsonl(t *testing.T, dir, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func record(title, abstract string) string {
	b, _ := json.Marshal(map[string]string{"title": title, "abstract": abstract})
	return string(b)
}

var testAbstracts = []string{
	"We fine-tune large language models with LoRA and evaluate mathematical reasoning on GSM8K and MATH.",
	"We present a vision-language model for GUI grounding, evaluated on ScreenSpot and OSWorld-G.",
	"Reinforcement learning from human feedback improves instruction following on AlpacaEval.",
}

func TestIngestStatsCheck(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	in := jsonl(t, dir, "papers.jsonl",
		record("Math LoRA", testAbstracts[0]), record("GUI VLM", testAbstracts[1]), record("RLHF", testAbstracts[2]))

	out, _, err := runCmd(t, "ingest", "--db", db, "--batch", "2", in)
	if err != nil {
		t.Fatalf("ingest: %v", err)
	}
	if !strings.Contains(out, "3 added, 0 updated, 0 unchanged, 0 skipped") {
		t.Errorf("ingest summary = %q; want 3 added", out)
	}
	m := statsJSON(t, db)
	if m["papers"] != 3.0 {
		t.Errorf("stats papers = %v; want 3", m["papers"])
	}
	ents, ok := m["entities"].(map[string]any)
	if !ok || len(ents) != 4 {
		t.Errorf("stats entities = %v; want the four kinds", m["entities"])
	}

	// Again: nothing changes.
	out, _, err = runCmd(t, "ingest", "--db", db, in)
	if err != nil {
		t.Fatalf("second ingest: %v", err)
	}
	if !strings.Contains(out, "0 added, 0 updated, 3 unchanged") {
		t.Errorf("second ingest summary = %q; want 3 unchanged", out)
	}
	if m2 := statsJSON(t, db); fmt.Sprint(m2) != fmt.Sprint(m) {
		t.Errorf("stats after re-ingest = %v; want %v", m2, m)
	}

	out, _, err = runCmd(t, "check", "--db", db)
	if err != nil || !strings.HasPrefix(out, "ok: 3 papers") {
		t.Errorf("check = %q, %v; want ok", out, err)
	}
	out, _, err = runCmd(t, "stats", "--db", db)
	if err != nil || !strings.Contains(out, "papers") || !strings.Contains(out, "techniques") {
		t.Errorf("stats = %q, %v; want a table", out, err)
	}
}

func TestIngestBadInput(t *testing.T) {
	dir := t.TempDir()
	in := jsonl(t, dir, "bad.jsonl",
		record("A", testAbstracts[0]), record("B", testAbstracts[1]), `{"title": "broken", "abstract": `, record("C", testAbstracts[2]))

	tests := []struct {
		name    string
		flags   []string
		wantErr string // substring, "" for success
		papers  float64
		summary string
	}{
		{"stop at the bad line", nil, "bad.jsonl:3", 2, "2 added"},
		{"skip it", []string{"--skip-bad"}, "", 3, "3 added, 0 updated, 0 unchanged, 1 skipped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "db")
			args := append(append([]string{"ingest", "--db", db}, tt.flags...), in)
			out, _, err := runCmd(t, args...)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("ingest %v error = %v; want %q", tt.flags, err, tt.wantErr)
			}
			if !strings.Contains(out, tt.summary) {
				t.Errorf("ingest %v summary = %q; want %q", tt.flags, out, tt.summary)
			}
			// What was written before the bad record stays, consistent.
			if m := statsJSON(t, db); m["papers"] != tt.papers {
				t.Errorf("stats papers = %v; want %v", m["papers"], tt.papers)
			}
			if out, _, err := runCmd(t, "check", "--db", db); err != nil {
				t.Errorf("check = %q, %v; want ok", out, err)
			}
		})
	}
}

func TestIngestUsage(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	in := jsonl(t, dir, "p.jsonl", record("A", testAbstracts[0]))
	tests := []struct {
		args []string
		want error
	}{
		{[]string{"ingest", "--db", db}, errUsage},
		{[]string{"ingest", "--db", db, "--batch", "0", in}, errUsage},
		{[]string{"ingest", "--db", db, "--input-format", "xml", in}, errUsage},
		{[]string{"ingest", "--no-such-flag", in}, errUsage},
		{[]string{"ingest", "-h"}, flag.ErrHelp},
		{[]string{"stats", "--db", db, "extra"}, errUsage},
		{[]string{"check", "--db", db, "extra"}, errUsage},
	}
	for _, tt := range tests {
		if _, _, err := runCmd(t, tt.args...); !errors.Is(err, tt.want) {
			t.Errorf("run(%q) error = %v; want %v", tt.args, err, tt.want)
		}
	}
	if _, _, err := runCmd(t, "ingest", "--db", db, filepath.Join(dir, "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("ingest of a missing file error = %v; want one naming the file", err)
	}
}

func TestIngestLocked(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	s, err := openStore(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in := jsonl(t, dir, "p.jsonl", record("A", testAbstracts[0]))
	_, _, err = runCmd(t, "ingest", "--db", db, in)
	if !errors.Is(err, graph.ErrLocked) || !strings.Contains(err.Error(), "another papergraph process") {
		t.Errorf("ingest into an open database error = %v; want ErrLocked", err)
	}
}

func TestDefaultDB(t *testing.T) {
	t.Setenv("PAPERGRAPH_DB", "/some/where")
	if got := defaultDB(); got != "/some/where" {
		t.Errorf("defaultDB() = %q; want $PAPERGRAPH_DB", got)
	}
	t.Setenv("PAPERGRAPH_DB", "")
	if got := defaultDB(); !strings.HasSuffix(got, filepath.Join("papergraph", "db")) {
		t.Errorf("defaultDB() = %q; want .../papergraph/db", got)
	}
}

// TestIngestSeedsAndCorpus is the merge rule on real data: the seeds' 36
// abstracts that are also in the JSON export are one node each, and keep
// the export's title.
func TestIngestSeedsAndCorpus(t *testing.T) {
	corpus := filepath.Join("..", "shared", "corpus", "papers.jsonl")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("no shared corpus: %v", err)
	}
	if testing.Short() {
		t.Skip("ingests 4,275 papers")
	}
	seeds, err := filepath.Glob(filepath.Join("seeds", "*.txt"))
	if err != nil || len(seeds) == 0 {
		t.Fatalf("no seeds: %v", err)
	}
	db := filepath.Join(t.TempDir(), "db")
	if _, _, err := runCmd(t, append([]string{"ingest", "--db", db}, seeds...)...); err != nil {
		t.Fatalf("ingest seeds: %v", err)
	}
	out, _, err := runCmd(t, "ingest", "--db", db, corpus)
	if err != nil {
		t.Fatalf("ingest corpus: %v", err)
	}
	t.Logf("%s", out)
	if m := statsJSON(t, db); m["papers"] != 4277.0 {
		t.Errorf("stats papers = %v; want 4277", m["papers"])
	}
	if out, _, err := runCmd(t, "check", "--db", db); err != nil {
		t.Errorf("check = %q, %v; want ok", out, err)
	}
	// The seeds again: every paper unchanged, titles kept.
	out, _, err = runCmd(t, append([]string{"ingest", "--db", db}, seeds...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, " 0 added, 0 updated") {
		t.Errorf("re-ingest of the seeds = %q; want nothing added or updated", out)
	}
}
