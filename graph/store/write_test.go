package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

func TestPutPapersOutcomes(t *testing.T) {
	ctx := context.Background()
	base := graph.Paper{
		ID: corpus.PaperID(1), Label: "Dolphin for GUI agents", Abstract: "We train Dolphin on GSM8K with LoRA.",
		Source: "a.txt", Index: 1,
		Entities: []graph.Entity{{Kind: graph.Dataset, Name: "GSM8K"}, {Kind: graph.Technique, Name: "LoRA"}},
	}
	changed := base
	changed.Entities = []graph.Entity{{Kind: graph.Dataset, Name: "MATH"}, {Kind: graph.Technique, Name: "LoRA"}}
	other := graph.Paper{ID: corpus.PaperID(2), Label: "Whales", Abstract: "Whales sing on GSM8K."}
	titled := base
	titled.Title, titled.Label, titled.Source, titled.Index, titled.URL = "Dolphin: Agents", "Dolphin: Agents", "papers.jsonl", 7, "https://x.org/1"
	titledLinks := titled
	titledLinks.Entities = []graph.Entity{{Kind: graph.Task, Name: "GUI agents"}, {Kind: graph.Technique, Name: "LoRA"}}
	titledLinks.Mentions = []graph.Mention{{Kind: graph.Task, Entity: "GUI agents", Text: "Agents", Start: 9, End: 15, InTitle: true}}

	tests := []struct {
		name  string
		puts  [][]graph.Paper
		want  graph.PutResult // of the last put
		check func(t *testing.T, s *Store)
	}{
		{name: "new", puts: [][]graph.Paper{{base}}, want: graph.PutResult{Added: 1}},
		{name: "same again", puts: [][]graph.Paper{{base}, {base}}, want: graph.PutResult{Unchanged: 1}},
		{name: "twice in one batch", puts: [][]graph.Paper{{base, base}}, want: graph.PutResult{Added: 1, Unchanged: 1}},
		// A changed text moves the paper's postings to the new block,
		// within one transaction or out of an older block that another
		// paper keeps.
		{name: "retitled in one batch", puts: [][]graph.Paper{{base, titled}}, want: graph.PutResult{Added: 1, Updated: 1}},
		{
			name: "retitled out of a shared block", puts: [][]graph.Paper{{base, other}, {titled}}, want: graph.PutResult{Updated: 1},
			check: func(t *testing.T, s *Store) {
				for q, want := range map[string]string{"agents": base.ID, "dolphin": base.ID, "whales": other.ID} {
					hits, err := s.Search(ctx, q, 5)
					if err != nil || len(hits) == 0 || hits[0].Node.Paper == nil || hits[0].Node.Paper.ID != want {
						t.Errorf("Search(%q) = %+v, %v; want paper %s first", q, hits, err, want)
					}
				}
			},
		},
		{
			name: "changed extraction", puts: [][]graph.Paper{{base}, {changed}}, want: graph.PutResult{Updated: 1},
			check: func(t *testing.T, s *Store) {
				p, err := s.Paper(ctx, base.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := entityIDs(p.Entities), []string{"dataset:math", "technique:lora"}; !slices.Equal(got, want) {
					t.Errorf("Paper(%q).Entities = %v; want %v", base.ID, got, want)
				}
				e, err := s.Entity(ctx, "dataset:gsm8k")
				if err != nil {
					t.Fatal(err)
				}
				if e.PaperCount != 0 {
					t.Errorf("Entity(dataset:gsm8k).PaperCount = %d; want 0", e.PaperCount)
				}
			},
		},
		{
			name: "titled source after untitled", puts: [][]graph.Paper{{base}, {titled}}, want: graph.PutResult{Updated: 1},
			check: func(t *testing.T, s *Store) {
				p, err := s.Paper(ctx, base.ID)
				if err != nil {
					t.Fatal(err)
				}
				if p.Title != "Dolphin: Agents" || p.Source != "papers.jsonl" {
					t.Errorf("Paper(%q) title, source = %q, %q; want the JSON export's", base.ID, p.Title, p.Source)
				}
			},
		},
		{
			// Extraction read the title too: a read without it keeps the
			// links the title gave.
			name: "untitled source after titled, extracted with the title", puts: [][]graph.Paper{{titledLinks}, {base}}, want: graph.PutResult{Unchanged: 1},
			check: func(t *testing.T, s *Store) {
				p, err := s.Paper(ctx, base.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := entityIDs(p.Entities), []string{"task:gui-agents", "technique:lora"}; !slices.Equal(got, want) || len(p.Mentions) != 1 || !p.Mentions[0].InTitle {
					t.Errorf("Paper(%q) entities %v, mentions %+v; want %v and the title's mention", base.ID, got, p.Mentions, want)
				}
			},
		},
		{
			name: "untitled source after titled", puts: [][]graph.Paper{{titled}, {base}}, want: graph.PutResult{Unchanged: 1},
			check: func(t *testing.T, s *Store) {
				p, err := s.Paper(ctx, base.ID)
				if err != nil {
					t.Fatal(err)
				}
				if p.Title != "Dolphin: Agents" || p.Label != "Dolphin: Agents" || p.URL != "https://x.org/1" {
					t.Errorf("Paper(%q) = title %q label %q url %q; want the titled record kept", base.ID, p.Title, p.Label, p.URL)
				}
				st, _ := s.Stats(ctx)
				if st.Papers != 1 {
					t.Errorf("Stats().Papers = %d; want 1 (one node for both sources)", st.Papers)
				}
				var sources []string
				s.db.View(func(txn *badger.Txn) error {
					return scanPrefix(ctx, txn, []byte{prefixSource}, func(k []byte) error {
						src, i, _ := parseSourceKey(k)
						sources = append(sources, fmt.Sprintf("%s#%d", src, i))
						return nil
					})
				})
				if want := []string{"a.txt#1", "papers.jsonl#7"}; !slices.Equal(sources, want) {
					t.Errorf("source index = %v; want %v", sources, want)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			var got graph.PutResult
			for _, batch := range tt.puts {
				got = put(t, s, batch...)
			}
			if got != tt.want {
				t.Errorf("PutPapers = %+v; want %+v", got, tt.want)
			}
			if tt.check != nil {
				tt.check(t, s)
			}
			mustCheck(t, s)
		})
	}
}

func entityIDs(es []graph.Entity) []string {
	var ids []string
	for _, e := range es {
		ids = append(ids, e.ID())
	}
	return ids
}

func TestPutPapersBadInput(t *testing.T) {
	tests := []struct {
		name  string
		paper graph.Paper
	}{
		{"short id", graph.Paper{ID: "abc"}},
		{"upper-case id", graph.Paper{ID: "ABCDEF0123456789"}},
		{"bad kind", graph.Paper{ID: corpus.PaperID(1), Entities: []graph.Entity{{Kind: 9, Name: "x"}}}},
		{"empty entity name", graph.Paper{ID: corpus.PaperID(1), Entities: []graph.Entity{{Kind: graph.Task, Name: "--"}}}},
	}
	s := openTest(t)
	good := graph.Paper{ID: corpus.PaperID(2), Abstract: "fine"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.PutPapers(context.Background(), []graph.Paper{good, tt.paper})
			if !errors.Is(err, graph.ErrBadID) {
				t.Errorf("PutPapers(%+v) error = %v; want ErrBadID", tt.paper, err)
			}
		})
	}
	// Nothing of a rejected batch is written.
	if st, _ := s.Stats(context.Background()); st.Papers != 0 {
		t.Errorf("Stats().Papers = %d after rejected batches; want 0", st.Papers)
	}
	mustCheck(t, s)
}

func broaderIDs(e graph.Entity) []string {
	var ids []string
	for _, b := range e.Broader {
		ids = append(ids, graph.EntityID(e.Kind, b))
	}
	return ids
}

// TestPutPapersSplit writes a batch far larger than one transaction may
// hold and checks that it lands whole and consistent.
func TestPutPapersSplit(t *testing.T) {
	s := openTest(t)
	s.maxTxnEntries = 500 // a few papers per transaction
	papers := corpus.Papers(2, 400, 60)
	if r := put(t, s, papers...); r.Added != len(papers) {
		t.Errorf("PutPapers = %+v; want %d added", r, len(papers))
	}
	if r := put(t, s, papers...); r.Unchanged != len(papers) {
		t.Errorf("PutPapers again = %+v; want %d unchanged", r, len(papers))
	}
	mustCheck(t, s)
}

// TestPutPapersPipeline writes one paper per transaction, so that each
// transaction is built while the one before it commits: what a paper's
// later versions read (its record, text record and postings block, its
// entities and their degrees) must come from the transaction in flight.
func TestPutPapersPipeline(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	s.maxTxnEntries = 1 // one paper per transaction
	e := func(aliases ...string) []graph.Entity {
		return []graph.Entity{{Kind: graph.Dataset, Name: "GSM8K", Aliases: aliases}}
	}
	a := graph.Paper{ID: corpus.PaperID(1), Label: "Dolphin", Abstract: "Dolphin swims.", Source: "a.txt", Index: 1, Entities: e("gsm-8k")}
	a2 := a
	a2.Title, a2.Label, a2.Entities = "Porpoise", "Porpoise", e("GSM 8K")
	a3 := a
	a3.Title, a3.Label, a3.Source, a3.Index = "Narwhal", "Narwhal", "b.jsonl", 4
	b := graph.Paper{ID: corpus.PaperID(2), Label: "Whale", Abstract: "Whale sings.", Source: "a.txt", Index: 2, Entities: e()}
	b2 := b
	b2.Title, b2.Label = "Orca", "Orca"
	c := graph.Paper{ID: corpus.PaperID(3), Label: "Seal", Abstract: "Seal naps.", Entities: e()}
	r := put(t, s, a, a2, b, a3, c, b2)
	if want := (graph.PutResult{Added: 3, Updated: 3}); r != want {
		t.Errorf("PutPapers = %+v; want %+v", r, want)
	}
	mustCheck(t, s)
	ent, err := s.Lookup(ctx, graph.Dataset, "GSM8K")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ent.Aliases, []string{"gsm-8k", "GSM 8K"}) || ent.PaperCount != 3 {
		t.Errorf("GSM8K = aliases %q, %d papers; want both aliases, 3 papers", ent.Aliases, ent.PaperCount)
	}
	for q, want := range map[string]string{"narwhal": a.ID, "orca": b.ID, "seal": c.ID, "porpoise": "", "whale": b.ID} {
		hits, err := s.Search(ctx, q, 5)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if len(hits) > 0 && hits[0].Node.Paper != nil {
			got = hits[0].Node.Paper.ID
		}
		if got != want {
			t.Errorf("Search(%q) first paper = %q; want %q", q, got, want)
		}
	}
}

// TestPutPapersTxnTooBig lets Badger, not PutPapers's estimate, end
// transactions: PutPapers must retry with fewer papers, never splitting
// one.
func TestPutPapersTxnTooBig(t *testing.T) {
	s, err := Open(t.TempDir(), Options{memTableSize: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.maxTxnEntries = 1 << 30
	papers := corpus.Papers(10, 300, 60)
	if r := put(t, s, papers...); r.Added != len(papers) {
		t.Errorf("PutPapers = %+v; want %d added", r, len(papers))
	}
	mustCheck(t, s)
}

func TestReextract(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	old := corpus.Papers(3, 200, 50)
	put(t, s, old...)
	changed := corpus.Papers(4, 200, 50)
	for i := range changed {
		changed[i].ID, changed[i].Index = old[i].ID, old[i].Index
		changed[i].Title, changed[i].Label = old[i].Title, old[i].Label
	}
	if r := put(t, s, changed...); r.Updated != len(changed) {
		t.Errorf("PutPapers(changed) = %+v; want %d updated", r, len(changed))
	}
	mustCheck(t, s)
	fresh := openTest(t)
	put(t, fresh, changed...)
	for _, p := range changed[:20] {
		got, err := s.Paper(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := fresh.Paper(ctx, p.ID)
		for i := range want.Entities {
			want.Entities[i].PaperCount = 0
		}
		for i := range got.Entities {
			got.Entities[i].PaperCount = 0
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Paper(%q) after re-extraction differs from a fresh ingest (-want +got):\n%s", p.ID, diff)
		}
	}
	a, _ := s.Stats(ctx)
	b, _ := fresh.Stats(ctx)
	if a.Papers != b.Papers || a.Edges != b.Edges {
		t.Errorf("Stats() after re-extraction = %+v; a fresh ingest gives %+v", a, b)
	}
}
