package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// The crash test runs a real ingest in a child process (this test binary,
// re-executed with crashDBEnv set), kills it with SIGKILL at random points,
// and checks that every reopened database is consistent: Badger commits a
// transaction whole or not at all, and a paper never spans transactions.
const (
	crashDBEnv   = "PAPERGRAPH_CRASH_DB"
	crashPapers  = 2000
	crashBatch   = 100
	crashWords   = 40
	crashRounds  = 6
	crashSeed    = 8
	crashTimeout = 40 * time.Second
)

// TestCrashChild is the child process: it ingests the generated corpus
// into $PAPERGRAPH_CRASH_DB, printing a line after each batch.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashDBEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestCrash")
	}
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	papers := corpus.Papers(crashSeed, crashPapers, crashWords)
	for i := 0; i < len(papers); i += crashBatch {
		if _, err := s.PutPapers(context.Background(), papers[i:min(i+crashBatch, len(papers))]); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("batch %d\n", i/crashBatch)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ctx := context.Background()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(crashSeed, 2))
	deadline := time.Now().Add(crashTimeout)
	stored := 0
	for round := range crashRounds {
		if time.Now().After(deadline) {
			t.Logf("stopping after %d rounds: slow machine", round)
			break
		}
		// Kill after a random number of batches past those already stored
		// (which the child finds unchanged), at a random moment of the
		// next one, so that the kill lands while new papers are written.
		after := stored/crashBatch + rng.IntN(3)
		delay := time.Duration(rng.IntN(50_000)) * time.Microsecond
		killed := runChild(t, "TestCrashChild", crashDBEnv, dir, fmt.Sprintf("batch %d", after), delay)
		st := reopenChecked(t, dir)
		stored = st.Papers
		t.Logf("round %d: killed=%v after %d batches + %v; %d papers stored, consistent", round, killed, after, delay, st.Papers)
	}
	// A last ingest runs to completion over whatever the kills left.
	runChild(t, "TestCrashChild", crashDBEnv, dir, "", 0)
	s, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustCheck(t, s)
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	edges := 0
	for _, p := range corpus.Papers(crashSeed, crashPapers, crashWords) {
		edges += len(p.Entities)
	}
	if st.Papers != crashPapers || st.Edges != edges {
		t.Errorf("Stats() after the final ingest = %d papers, %d edges; want %d, %d", st.Papers, st.Edges, crashPapers, edges)
	}
}

// readOnlyChecked opens the database a killed child left read-only, as
// check, stats and export do, before anything opened it read-write: it
// checks every invariant, counts and reads every record, and returns the
// counts.
func readOnlyChecked(t *testing.T, dir string) graph.Stats {
	t.Helper()
	ctx := context.Background()
	s, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open right after SIGKILL: %v", err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	mustCheck(t, s)
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats read-only after SIGKILL: %v", err)
	}
	papers := 0
	if err := s.Walk(ctx, func(graph.Paper) error { papers++; return nil }, func(graph.Entity) error { return nil }); err != nil {
		t.Fatalf("Walk (export) read-only after SIGKILL: %v", err)
	}
	if papers != st.Papers {
		t.Errorf("read-only after SIGKILL: Walk read %d papers, Stats says %d", papers, st.Papers)
	}
	return st
}

// reopenChecked opens the database a killed child left, first read-only
// (see readOnlyChecked), then read-write, checks every invariant and
// returns its counts, which must be the same both times.
func reopenChecked(t *testing.T, dir string) graph.Stats {
	t.Helper()
	ro := readOnlyChecked(t, dir)
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("reopen after SIGKILL: %v", err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	st, err := s.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	if st.Papers != ro.Papers || st.Edges != ro.Edges {
		t.Errorf("read-write open found %+v; read-only %+v", st, ro)
	}
	return st
}

// runChild runs the test child with env set to dir. With a line to wait
// for, it kills the child with SIGKILL delay after the child prints it,
// and reports whether the kill came before the child finished; with "" it
// waits for the child to finish.
func runChild(t *testing.T, child, env, dir, line string, delay time.Duration) (killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+child+"$", "-test.v")
	cmd.Env = append(os.Environ(), env+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	if line != "" {
		for lines.Scan() {
			if lines.Text() == line {
				time.Sleep(delay)
				killed = cmd.Process.Kill() == nil
				break
			}
		}
	}
	for lines.Scan() {
	}
	err = cmd.Wait()
	if line == "" && err != nil {
		t.Fatalf("child ingest: %v", err)
	}
	return killed && err != nil
}

// TestLoadCrashChild is the child of TestLoadCrash: it loads the generated
// corpus into an empty $PAPERGRAPH_LOAD_CRASH_DB, printing a line after
// each batch and before Finish.
func TestLoadCrashChild(t *testing.T) {
	dir := os.Getenv(loadCrashDBEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestLoadCrash")
	}
	ctx := context.Background()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := s.NewLoader()
	if err != nil {
		t.Fatal(err)
	}
	papers := corpus.Papers(crashSeed, crashPapers, crashWords)
	for i := 0; i < len(papers); i += crashBatch {
		if err := l.Add(ctx, papers[i:min(i+crashBatch, len(papers))]); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("batch %d\n", i/crashBatch)
	}
	fmt.Println("finish")
	if _, err := l.Finish(ctx); err != nil {
		t.Fatal(err)
	}
}

const loadCrashDBEnv = "PAPERGRAPH_LOAD_CRASH_DB"

// TestLoadCrash kills a load at random points, while it adds papers or
// while Finish writes them, and checks that the reopened database holds
// none of them or all, consistent either way.
func TestLoadCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	rng := rand.New(rand.NewPCG(crashSeed, 3))
	edges := 0
	for _, p := range corpus.Papers(crashSeed, crashPapers, crashWords) {
		edges += len(p.Entities)
	}
	deadline := time.Now().Add(crashTimeout)
	for round := range crashRounds {
		if time.Now().After(deadline) {
			t.Logf("stopping after %d rounds: slow machine", round)
			break
		}
		dir := t.TempDir()
		line := fmt.Sprintf("batch %d", rng.IntN(crashPapers/crashBatch))
		if round%2 == 1 {
			line = "finish"
		}
		delay := time.Duration(rng.IntN(200_000)) * time.Microsecond
		killed := runChild(t, "TestLoadCrashChild", loadCrashDBEnv, dir, line, delay)
		st := reopenChecked(t, dir)
		if (st.Papers != 0 || st.Edges != 0) && (st.Papers != crashPapers || st.Edges != edges) {
			t.Errorf("round %d: %d papers, %d edges after a kill; want none or all (%d, %d)", round, st.Papers, st.Edges, crashPapers, edges)
		}
		t.Logf("round %d: killed=%v after %q + %v; %d papers", round, killed, line, delay, st.Papers)
		if st.Papers == 0 {
			// An emptied database takes a new load.
			runChild(t, "TestLoadCrashChild", loadCrashDBEnv, dir, "", 0)
		}
	}
}

// TestOpenEmptyMemtable reopens a database where a crash left a memtable
// file created but not yet sized, as a SIGKILL in TestLoadCrash did.
func TestOpenEmptyMemtable(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutPapers(context.Background(), corpus.Papers(7, 5, 10)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "00099.mem"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := reopenChecked(t, dir); st.Papers != 5 {
		t.Errorf("after reopening: %d papers; want 5", st.Papers)
	}
}
