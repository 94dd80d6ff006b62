package store

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// TestCacheFollowsWrites fills the read cache with traversals, changes the
// papers' datasets, and checks that the traversals see the new graph.
func TestCacheFollowsWrites(t *testing.T) {
	ctx := context.Background()
	papers := hubPapers()
	s := openFixture(t, papers)
	sharing := func(id string) []string {
		t.Helper()
		got, err := s.Sharing(ctx, id, graph.SharingQuery{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return matchIDs(got)
	}
	ids := []string{fxID(1), fxID(3), fxID(150), fxID(2500)}
	for _, id := range ids {
		if got, want := sharing(id), bruteSharing(papers, id, []graph.Kind{graph.Dataset}, 1, 10); !slices.Equal(got, want) {
			t.Fatalf("before the write: Sharing(%s) = %v; want %v", id, got, want)
		}
	}
	if _, err := s.Neighborhood(ctx, graph.EntityID(graph.Dataset, "Big"), graph.NeighborhoodQuery{Hops: 1, Limit: 50}); err != nil {
		t.Fatal(err)
	}

	// Paper 3 leaves Rare for a new dataset that papers 150..159 share;
	// paper 1 gains it too.
	fresh := graph.Entity{Kind: graph.Dataset, Name: "Fresh"}
	join := map[string]bool{fxID(1): true}
	for n := 150; n < 160; n++ {
		join[fxID(n)] = true
	}
	var changed []graph.Paper
	for i := range papers {
		p := &papers[i]
		switch {
		case p.ID == fxID(3):
			p.Entities = []graph.Entity{fresh}
		case join[p.ID]:
			p.Entities = append(slices.Clip(p.Entities), fresh)
		default:
			continue
		}
		changed = append(changed, *p)
	}
	put(t, s, changed...)
	for _, id := range ids {
		if got, want := sharing(id), bruteSharing(papers, id, []graph.Kind{graph.Dataset}, 1, 10); !slices.Equal(got, want) {
			t.Errorf("after the write: Sharing(%s) = %v; want %v", id, got, want)
		}
	}
	g, err := s.Neighborhood(ctx, fresh.ID(), graph.NeighborhoodQuery{Hops: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(g.Nodes); got != 13 {
		t.Errorf("Neighborhood(%s) has %d nodes; want 13 (itself and 12 papers)", fresh.ID(), got)
	}
	mustCheck(t, s)
}

// TestCacheSnapshot checks that a read transaction opened before a write
// reads its own snapshot, not what later transactions put in the cache.
func TestCacheSnapshot(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	p := graph.Paper{ID: corpus.PaperID(1), Name: "One", Entities: []graph.Entity{{Kind: graph.Dataset, Name: "Old"}}}
	put(t, s, p)
	old := s.db.NewTransaction(false)
	defer old.Discard()
	if _, err := paperEdges(old, s.cache, p.ID); err != nil {
		t.Fatal(err)
	}

	p.Entities = []graph.Entity{{Kind: graph.Dataset, Name: "New"}}
	put(t, s, p)
	if err := s.db.View(func(txn *badger.Txn) error {
		got, err := paperEdges(txn, s.cache, p.ID)
		if want := []string{"dataset:new"}; !slices.Equal(got, want) {
			t.Errorf("new transaction: edges %v; want %v", got, want)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	got, err := paperEdges(old, s.cache, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"dataset:old"}; !slices.Equal(got, want) {
		t.Errorf("transaction opened before the write: edges %v; want %v", got, want)
	}
	if _, err := s.Sharing(ctx, p.ID, graph.SharingQuery{}); err != nil {
		t.Fatal(err)
	}
}

// TestEachPosting reads an entity's papers in pieces, each continuing from
// what the cache holds, and checks every piece against Badger.
func TestEachPosting(t *testing.T) {
	s := openTest(t)
	big := graph.Entity{Kind: graph.Dataset, Name: "Big"}
	var papers []graph.Paper
	for n := range 300 {
		papers = append(papers, graph.Paper{ID: corpus.PaperID(uint64(n + 1)), Name: fmt.Sprint("P", n), Entities: []graph.Entity{big}})
	}
	put(t, s, papers...)
	want := idsOf(papers)
	slices.Sort(want)
	err := s.db.View(func(txn *badger.Txn) error {
		sc := newKeyScanner(txn, s.cache)
		defer sc.close()
		for _, n := range []int{0, 1, 5, 5, 120, 299, 300, 300, 1000} {
			var got []string
			err := sc.eachPosting(big.ID(), func(pid paperKeyID) bool {
				if len(got) == n {
					return false
				}
				got = append(got, string(pid[:]))
				return true
			})
			if err != nil {
				return err
			}
			if w := want[:min(n, len(want))]; !slices.Equal(got, w) {
				t.Errorf("first %d postings: got %d, want %d: %v", n, len(got), len(w), got)
			}
		}
		c := s.cache.postings.m[big.ID()]
		if !c.complete || len(c.ids) != len(want) {
			t.Errorf("cached %d postings, complete %v; want all %d", len(c.ids), c.complete, len(want))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCacheMapBound(t *testing.T) {
	m := cacheMap[int, []byte]{m: make(map[int][]byte), keep: 1000}
	for i := range 100 {
		m.put(i, make([]byte, 36), 100, bytesSize)
		if m.bytes > m.keep {
			t.Fatalf("after %d puts: %d bytes held; bound %d", i+1, m.bytes, m.keep)
		}
	}
	if len(m.m) != 10 || m.bytes != 1000 {
		t.Errorf("%d entries, %d bytes; want 10 entries, 1000 bytes", len(m.m), m.bytes)
	}
	m.put(1000, make([]byte, 200), 200, bytesSize) // over keep/8: not kept
	if _, ok := m.m[1000]; ok {
		t.Error("an entry over an eighth of the bound was kept")
	}
}

func TestCacheMapReplace(t *testing.T) {
	// Replacing an entry of a full map with a larger one makes room;
	// whichever entry goes (map order is random, hence the trials), the
	// count must hold.
	val := func(n int) []byte { return make([]byte, n-cacheEntryOverhead) }
	for trial := range 100 {
		m := cacheMap[int, []byte]{m: make(map[int][]byte), keep: 2000}
		for k := range 10 {
			m.put(k, val(200), 200, bytesSize)
		}
		m.put(0, val(250), 250, bytesSize)
		want := 0
		for _, v := range m.m {
			want += bytesSize(v)
		}
		if m.bytes != want || m.bytes > m.keep {
			t.Fatalf("trial %d: %d entries, %d bytes counted; want %d bytes, at most %d", trial, len(m.m), m.bytes, want, m.keep)
		}
	}
}
