package store

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
	"github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// dumpKeys returns every key and value of s but the postings blocks and
// text records (0x0A, 0x0E) and the blocks counter, whose block numbers
// depend on how papers were split into transactions.
func dumpKeys(tb testing.TB, s *Store) map[string]string {
	tb.Helper()
	out := make(map[string]string)
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if k[0] == prefixPosting || k[0] == prefixText || bytes.Equal(k, counterKey("blocks")) {
				continue
			}
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			out[string(k)] = string(v)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// loadCorpus is corpus.Papers with some papers given again from another
// source, as a merge test would.
func loadCorpus() []graph.Paper {
	papers := corpus.Papers(21, 700, 30)
	for i := 0; i < 700; i += 50 {
		p := papers[i]
		p.Source, p.Index, p.Title, p.Label = "other.jsonl", i, "", ""
		papers = append(papers, p)
	}
	return papers
}

// TestLoaderMatchesPutPapers loads a corpus in batches, spilling runs
// often, and checks that the store holds what PutPapers writes.
func TestLoaderMatchesPutPapers(t *testing.T) {
	ctx := context.Background()
	papers := loadCorpus()
	want := openTest(t)
	var wantRes graph.PutResult
	for i := 0; i < len(papers); i += 100 {
		r := put(t, want, papers[i:min(i+100, len(papers))]...)
		wantRes.Added += r.Added
		wantRes.Updated += r.Updated
		wantRes.Unchanged += r.Unchanged
	}

	got := openTest(t)
	l, err := got.NewLoader()
	if err != nil {
		t.Fatal(err)
	}
	l.runBytes = 64 << 10
	for i := 0; i < len(papers); i += 100 {
		if err := l.Add(ctx, papers[i:min(i+100, len(papers))]); err != nil {
			t.Fatal(err)
		}
	}
	if len(l.runs) < 3 {
		t.Errorf("%d runs spilled; want several", len(l.runs))
	}
	res, err := l.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res != wantRes || res.Added != 700 {
		t.Errorf("Finish = %+v; PutPapers gave %+v", res, wantRes)
	}
	mustCheck(t, got)

	wk, gk := dumpKeys(t, want), dumpKeys(t, got)
	if d := cmp.Diff(slices.Sorted(maps.Keys(wk)), slices.Sorted(maps.Keys(gk))); d != "" {
		t.Errorf("keys differ (-PutPapers +Loader):\n%.3000s", d)
	}
	for k, v := range wk {
		if g, ok := gk[k]; ok && g != v {
			t.Errorf("key %q: Loader wrote %q; PutPapers %q", k, g, v)
		}
	}
	for _, q := range []string{papers[3].Abstract[:20], "generated paper 17", papers[99].Abstract[:30]} {
		wh, err := want.Search(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		gh, err := got.Search(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wh, gh); d != "" {
			t.Errorf("Search(%q) differs (-PutPapers +Loader):\n%s", q, d)
		}
	}

	// The loaded store takes writes as usual.
	p := papers[5]
	p.Entities = p.Entities[:1]
	if r := put(t, got, p); r.Updated != 1 {
		t.Errorf("PutPapers after a load: %+v; want 1 updated", r)
	}
	mustCheck(t, got)
}

func TestLoaderNotEmpty(t *testing.T) {
	s := openTest(t)
	put(t, s, corpus.Papers(3, 1, 5)...)
	if _, err := s.NewLoader(); !errors.Is(err, graph.ErrNotEmpty) {
		t.Fatalf("NewLoader on a store with a paper: %v; want ErrNotEmpty", err)
	}
	put(t, s, corpus.Papers(4, 1, 5)...) // the write lock was released
}

// TestLoaderInterrupted checks that a load closed before Finish, or cut
// short by a crash, leaves an empty store.
func TestLoaderInterrupted(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	l, err := s.NewLoader()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Add(ctx, corpus.Papers(5, 50, 10)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if st, err := s.Stats(ctx); err != nil || st.Papers != 0 {
		t.Fatalf("after Close without Finish: %+v, %v; want no papers", st, err)
	}

	// A load whose Add failed half-way is abandoned: Finish writes nothing.
	l, err = s.NewLoader()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Add(ctx, corpus.Papers(5, 50, 10)); err != nil {
		t.Fatal(err)
	}
	l.failed = errors.New("disk on fire")
	if _, err := l.Finish(ctx); err == nil {
		t.Error("Finish after a failed Add: no error")
	}
	if st, err := s.Stats(ctx); err != nil || st.Papers != 0 {
		t.Fatalf("after an abandoned load: %+v, %v; want no papers", st, err)
	}

	// A crash during Finish: the marker and some keys are written.
	dir := t.TempDir()
	s2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s2, corpus.Papers(6, 20, 10)...)
	if err := s2.db.Update(func(txn *badger.Txn) error { return txn.Set(loadingKey(), nil) }); err != nil {
		t.Fatal(err)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	s3, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if st, err := s3.Stats(ctx); err != nil || st.Papers != 0 {
		t.Errorf("reopened after an interrupted load: %+v, %v; want an empty store", st, err)
	}
	if v := dumpKeys(t, s3); len(v) != 1 {
		t.Errorf("reopened after an interrupted load: keys %q; want the version only", slices.Sorted(maps.Keys(v)))
	}
	put(t, s3, corpus.Papers(7, 5, 10)...)
	mustCheck(t, s3)
}

// TestAppendKV holds appendKV to Badger's own encoder, byte for byte.
func TestAppendKV(t *testing.T) {
	long := bytes.Repeat([]byte("v"), 300)
	kvs := []struct {
		key, val []byte
		version  uint64
		stream   uint32
	}{
		{[]byte("k"), []byte("value"), 1, 0},
		{[]byte{prefixEntityEdge, 'd', 0, 'x'}, nil, 1, 2},
		{[]byte{prefixEntityEdge, 'd', 0, 'x'}, []byte{}, 1, 3},
		{bytes.Repeat([]byte("k"), 200), long, 1 << 40, 1 << 20},
		{[]byte("k"), long, 0, 1},
	}
	mine, theirs := z.NewBuffer(1<<10, "test"), z.NewBuffer(1<<10, "test")
	defer mine.Release()
	defer theirs.Release()
	for _, kv := range kvs {
		appendKV(mine, kv.key, kv.val, kv.version, kv.stream)
		badger.KVToBuffer(&pb.KV{Key: kv.key, Value: kv.val, Version: kv.version, StreamId: kv.stream}, theirs)
	}
	var want [][]byte
	theirs.SliceIterate(func(s []byte) error { want = append(want, slices.Clone(s)); return nil })
	i := 0
	mine.SliceIterate(func(s []byte) error {
		if i >= len(want) || !bytes.Equal(s, want[i]) {
			t.Errorf("kv %d: appendKV wrote %x; KVToBuffer %x", i, s, want[min(i, len(want)-1)])
		}
		i++
		return nil
	})
	if i != len(want) {
		t.Errorf("appendKV wrote %d messages; KVToBuffer %d", i, len(want))
	}
}
