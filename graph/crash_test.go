package graph

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"
	"time"
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
	papers := genCorpus(crashSeed, crashPapers, crashWords)
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
		killed := runChild(t, dir, after, delay)
		s, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		st, err := s.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, s)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		stored = st.Papers
		t.Logf("round %d: killed=%v after %d batches + %v; %d papers stored, consistent", round, killed, after, delay, st.Papers)
	}
	// A last ingest runs to completion over whatever the kills left.
	runChild(t, dir, -1, 0)
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
	for _, p := range genCorpus(crashSeed, crashPapers, crashWords) {
		edges += len(p.Entities)
	}
	if st.Papers != crashPapers || st.Edges != edges {
		t.Errorf("Stats() after the final ingest = %d papers, %d edges; want %d, %d", st.Papers, st.Edges, crashPapers, edges)
	}
}

// runChild runs the child ingest into dir. With after >= 0 it kills the
// child with SIGKILL delay after it reports batch number after, and
// reports whether the kill came before the child finished; otherwise it
// waits for the child to finish.
func runChild(t *testing.T, dir string, after int, delay time.Duration) (killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.v")
	cmd.Env = append(os.Environ(), crashDBEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	if after >= 0 {
		want := fmt.Sprintf("batch %d", after)
		for lines.Scan() {
			if lines.Text() == want {
				time.Sleep(delay)
				killed = cmd.Process.Kill() == nil
				break
			}
		}
	}
	for lines.Scan() {
	}
	err = cmd.Wait()
	if after < 0 && err != nil {
		t.Fatalf("child ingest: %v", err)
	}
	return killed && err != nil
}
