package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// openTest opens a store in a fresh temporary directory, closed at the end
// of the test.
func openTest(tb testing.TB) *Store {
	tb.Helper()
	s, err := Open(tb.TempDir(), Options{})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return s
}

// put writes papers and fails the test on error.
func put(tb testing.TB, s *Store, papers ...graph.Paper) graph.PutResult {
	tb.Helper()
	r, err := s.PutPapers(context.Background(), papers)
	if err != nil {
		tb.Fatalf("PutPapers: %v", err)
	}
	return r
}

// mustCheck fails the test when the store has violations.
func mustCheck(tb testing.TB, s *Store) {
	tb.Helper()
	v, err := s.Check(context.Background())
	if err != nil {
		tb.Fatalf("Check: %v", err)
	}
	if len(v) > 0 {
		tb.Fatalf("Check found %d violations:\n%s", len(v), strings.Join(v, "\n"))
	}
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, corpus.Papers(5, 50, 20)...)

	// A second opener, even in this process, finds the directory locked.
	if _, err := Open(dir, Options{}); !errors.Is(err, graph.ErrLocked) || !strings.Contains(err.Error(), dir) {
		t.Errorf("second Open(%q) error = %v; want ErrLocked naming the directory", dir, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stats(ctx); st.Papers != 50 {
		t.Errorf("Stats().Papers after reopening = %d; want 50", st.Papers)
	}
	mustCheck(t, s)
	s.Close()

	// A database from a newer papergraph is refused, naming both versions.
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.db.Update(func(txn *badger.Txn) error { return txn.Set(versionKey(), []byte{0, 0, 0, 99}) })
	s.Close()
	_, err = Open(dir, Options{})
	if !errors.Is(err, graph.ErrNewerFormat) || !strings.Contains(err.Error(), "99") || !strings.Contains(err.Error(), fmt.Sprint(formatVersion)) {
		t.Errorf("Open of a format-99 database error = %v; want ErrNewerFormat naming 99 and %d", err, formatVersion)
	}
	// So is one from an older papergraph, whose keys mean something else.
	bo := badger.DefaultOptions(dir).WithLogger(nil)
	db, err := badger.Open(bo)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(txn *badger.Txn) error { return txn.Set(versionKey(), []byte{0, 0, 0, 3}) })
	db.Close()
	// The message tells the user what to do: format 3's terms are not
	// stemmed, so the database has to be built again.
	_, err = Open(dir, Options{})
	for _, want := range []string{"format 3", fmt.Sprintf("reads format %d", formatVersion), "remove " + dir, "ingest the input files again"} {
		if !errors.Is(err, graph.ErrOlderFormat) || !strings.Contains(err.Error(), want) {
			t.Errorf("Open of a format-3 database error = %v; want ErrOlderFormat saying %q", err, want)
		}
	}
}

// TestConcurrentReadWrite reads while another goroutine writes; run it
// with -race.
func TestConcurrentReadWrite(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	papers := corpus.Papers(6, 150, 20)
	put(t, s, papers[:50]...)
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for i := 50; i < len(papers); i += 25 {
			if _, err := s.PutPapers(ctx, papers[i:i+25]); err != nil {
				t.Errorf("PutPapers: %v", err)
				return
			}
		}
	}()
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				p, err := s.Paper(ctx, papers[(i*7+r)%50].ID)
				if err != nil {
					t.Errorf("Paper: %v", err)
					return
				}
				if len(p.Entities) > 0 {
					if _, err := s.Entity(ctx, p.Entities[0].ID()); err != nil {
						t.Errorf("Entity: %v", err)
						return
					}
				}
				// Traversals fill the read cache that each write empties.
				if _, err := s.Sharing(ctx, p.ID, graph.SharingQuery{Kinds: graph.Kinds}); err != nil {
					t.Errorf("Sharing: %v", err)
					return
				}
				if _, err := s.Neighborhood(ctx, p.ID, graph.NeighborhoodQuery{Hops: 2}); err != nil {
					t.Errorf("Neighborhood: %v", err)
					return
				}
				st, err := s.Stats(ctx)
				if err != nil || st.Papers < 50 {
					t.Errorf("Stats() = %+v, %v; want at least 50 papers", st, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	mustCheck(t, s)
}

// TestCollectGarbage rewrites papers with long abstracts, whose records
// live in the value log, and collects the garbage they leave.
func TestCollectGarbage(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	papers := corpus.Papers(11, 200, 400)
	put(t, s, papers...)
	for i := range papers {
		papers[i].Abstract += " revised"
	}
	if r := put(t, s, papers...); r.Updated != len(papers) {
		t.Fatalf("second put: %+v; want all updated", r)
	}
	if err := s.CollectGarbage(ctx); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	if p, err := s.Paper(ctx, papers[7].ID); err != nil || p.Abstract != papers[7].Abstract {
		t.Errorf("Paper after CollectGarbage: %v; abstract %q", err, p.Abstract)
	}
}
