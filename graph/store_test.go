package graph

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/google/go-cmp/cmp"
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
func put(tb testing.TB, s *Store, papers ...Paper) PutResult {
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

// paperID returns a valid paper id for n.
func paperID(n uint64) string { return fmt.Sprintf("%016x", n*0x9e3779b97f4a7c15) }

// genWords is the vocabulary of generated abstracts: pronounceable
// made-up words, drawn with a skewed distribution as real text is.
func genWords(n int) []string {
	cons, vows := "bcdfghklmnprstvz", "aeiou"
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		x := i + 1
		for x > 0 || b.Len() < 4 {
			b.WriteByte(cons[x%len(cons)])
			x /= len(cons)
			b.WriteByte(vows[x%len(vows)])
			x /= len(vows)
		}
		words[i] = b.String()
	}
	return words
}

// genCorpus returns n deterministic papers drawn from seed: abstracts of
// about words terms from a vocabulary of 20,000, and entities from pools of
// tasks, modalities, datasets and techniques, a few datasets of a family
// with a broader parent. The degree distribution is skewed so that some
// entities are hubs.
func genCorpus(seed uint64, n, words int) []Paper {
	rng := rand.New(rand.NewPCG(seed, 1))
	vocab := genWords(20000)
	pools := []struct {
		kind Kind
		size int
		per  int
	}{{Task, 60, 2}, {Modality, 8, 1}, {Dataset, 3000, 3}, {Technique, 600, 3}}
	skewed := func(size int) int { return int(float64(size) * rng.Float64() * rng.Float64() * rng.Float64()) }
	papers := make([]Paper, n)
	for i := range papers {
		p := &papers[i]
		p.ID = paperID(uint64(i) + seed<<32)
		p.Source, p.Index = "gen.jsonl", i+1
		var b strings.Builder
		for j := range words {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[skewed(len(vocab))])
		}
		p.Abstract = b.String()
		p.Title = fmt.Sprintf("Generated paper %d", i)
		p.Label = p.Title
		seen := map[string]bool{}
		for _, pool := range pools {
			for range 1 + rng.IntN(pool.per) {
				j := skewed(pool.size)
				e := Entity{Kind: pool.kind, Name: fmt.Sprintf("%s %d", pool.kind, j)}
				if pool.kind == Dataset && j%10 == 1 {
					e.Name += "-G"
					e.Broader = []string{fmt.Sprintf("%s %d", pool.kind, j)}
					e.Aliases = []string{fmt.Sprintf("DS%dG", j)}
				}
				if !seen[e.ID()] {
					seen[e.ID()] = true
					p.Entities = append(p.Entities, e)
				}
			}
		}
		slices.SortFunc(p.Entities, func(a, b Entity) int {
			if a.Kind != b.Kind {
				return int(a.Kind) - int(b.Kind)
			}
			return strings.Compare(a.Name, b.Name)
		})
	}
	return papers
}

func TestPutPapersOutcomes(t *testing.T) {
	ctx := context.Background()
	base := Paper{
		ID: paperID(1), Label: "Dolphin for GUI agents", Abstract: "We train Dolphin on GSM8K with LoRA.",
		Source: "a.txt", Index: 1,
		Entities: []Entity{{Kind: Dataset, Name: "GSM8K"}, {Kind: Technique, Name: "LoRA"}},
	}
	changed := base
	changed.Entities = []Entity{{Kind: Dataset, Name: "MATH"}, {Kind: Technique, Name: "LoRA"}}
	other := Paper{ID: paperID(2), Label: "Whales", Abstract: "Whales sing on GSM8K."}
	titled := base
	titled.Title, titled.Label, titled.Source, titled.Index, titled.URL = "Dolphin: Agents", "Dolphin: Agents", "papers.jsonl", 7, "https://x.org/1"
	titledLinks := titled
	titledLinks.Entities = []Entity{{Kind: Task, Name: "GUI agents"}, {Kind: Technique, Name: "LoRA"}}
	titledLinks.Mentions = []Mention{{Kind: Task, Entity: "GUI agents", Text: "Agents", Start: 9, End: 15, InTitle: true}}

	tests := []struct {
		name  string
		puts  [][]Paper
		want  PutResult // of the last put
		check func(t *testing.T, s *Store)
	}{
		{name: "new", puts: [][]Paper{{base}}, want: PutResult{Added: 1}},
		{name: "same again", puts: [][]Paper{{base}, {base}}, want: PutResult{Unchanged: 1}},
		{name: "twice in one batch", puts: [][]Paper{{base, base}}, want: PutResult{Added: 1, Unchanged: 1}},
		// A changed text moves the paper's postings to the new block,
		// within one transaction or out of an older block that another
		// paper keeps.
		{name: "retitled in one batch", puts: [][]Paper{{base, titled}}, want: PutResult{Added: 1, Updated: 1}},
		{
			name: "retitled out of a shared block", puts: [][]Paper{{base, other}, {titled}}, want: PutResult{Updated: 1},
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
			name: "changed extraction", puts: [][]Paper{{base}, {changed}}, want: PutResult{Updated: 1},
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
			name: "titled source after untitled", puts: [][]Paper{{base}, {titled}}, want: PutResult{Updated: 1},
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
			name: "untitled source after titled, extracted with the title", puts: [][]Paper{{titledLinks}, {base}}, want: PutResult{Unchanged: 1},
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
			name: "untitled source after titled", puts: [][]Paper{{titled}, {base}}, want: PutResult{Unchanged: 1},
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
			var got PutResult
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

func entityIDs(es []Entity) []string {
	var ids []string
	for _, e := range es {
		ids = append(ids, e.ID())
	}
	return ids
}

func TestPutPapersBadInput(t *testing.T) {
	tests := []struct {
		name  string
		paper Paper
	}{
		{"short id", Paper{ID: "abc"}},
		{"upper-case id", Paper{ID: "ABCDEF0123456789"}},
		{"bad kind", Paper{ID: paperID(1), Entities: []Entity{{Kind: 9, Name: "x"}}}},
		{"empty entity name", Paper{ID: paperID(1), Entities: []Entity{{Kind: Task, Name: "--"}}}},
	}
	s := openTest(t)
	good := Paper{ID: paperID(2), Abstract: "fine"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.PutPapers(context.Background(), []Paper{good, tt.paper})
			if !errors.Is(err, ErrBadID) {
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

func TestPaperErrors(t *testing.T) {
	s := openTest(t)
	put(t, s, Paper{ID: paperID(1), Abstract: "x"})
	tests := []struct {
		id   string
		want error
	}{
		{paperID(1), nil},
		{paperID(2), ErrNotFound},
		{"dataset:gsm8k", ErrBadID},
		{"", ErrBadID},
	}
	for _, tt := range tests {
		_, err := s.Paper(context.Background(), tt.id)
		if !errors.Is(err, tt.want) {
			t.Errorf("Paper(%q) error = %v; want %v", tt.id, err, tt.want)
		}
	}
	got, err := s.Papers(context.Background(), []string{paperID(2), paperID(1), "bad"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != nil || got[1] == nil || got[1].ID != paperID(1) || got[2] != nil {
		t.Errorf("Papers = %v; want [nil, paper 1, nil]", got)
	}
}

func TestEntityAndLookup(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	osg := Entity{Kind: Dataset, Name: "OSWorld-G", Aliases: []string{"OSWorld G"}, Broader: []string{"OSWorld"}}
	put(t, s,
		Paper{ID: paperID(1), Abstract: "a", Entities: []Entity{osg, {Kind: Technique, Name: "Vision-Language Model", Aliases: []string{"VLM"}}}},
		Paper{ID: paperID(2), Abstract: "b", Entities: []Entity{{Kind: Dataset, Name: "OSWorld-Verified", Broader: []string{"OSWorld"}}}},
		// A later paper adds an alias to a known entity.
		Paper{ID: paperID(3), Abstract: "c", Entities: []Entity{{Kind: Dataset, Name: "OSWorld-G", Aliases: []string{"OSW-G"}}}},
	)
	e, err := s.Entity(ctx, "dataset:osworld")
	if err != nil {
		t.Fatal(err)
	}
	want := Entity{Kind: Dataset, Name: "OSWorld", Narrower: []string{"OSWorld-G", "OSWorld-Verified"}}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Entity(dataset:osworld) mismatch (-want +got):\n%s", diff)
	}
	e, err = s.Entity(ctx, "dataset:osworld-g")
	if err != nil {
		t.Fatal(err)
	}
	want = Entity{Kind: Dataset, Name: "OSWorld-G", Aliases: []string{"OSWorld G", "OSW-G"}, Broader: []string{"OSWorld"}, PaperCount: 2}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Entity(dataset:osworld-g) mismatch (-want +got):\n%s", diff)
	}

	lookups := []struct {
		kind Kind
		name string
		want string // entity id, "" for ErrNotFound
	}{
		{Dataset, "osworld-g", "dataset:osworld-g"},
		{Dataset, "OSW-G", "dataset:osworld-g"},
		{Dataset, "  osworld   g ", "dataset:osworld-g"},
		{Technique, "vlm", "technique:vision-language-model"},
		{Technique, "vision language model", "technique:vision-language-model"},
		{Dataset, "vlm", ""},
		{Task, "nothing", ""},
	}
	for _, tt := range lookups {
		e, err := s.Lookup(ctx, tt.kind, tt.name)
		if tt.want == "" {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("Lookup(%v, %q) = %v, %v; want ErrNotFound", tt.kind, tt.name, e.ID(), err)
			}
			continue
		}
		if err != nil || e.ID() != tt.want {
			t.Errorf("Lookup(%v, %q) = %q, %v; want %q", tt.kind, tt.name, e.ID(), err, tt.want)
		}
	}
	for _, id := range []string{"paper:x", "dataset", "1234567890abcdef"} {
		if _, err := s.Entity(ctx, id); !errors.Is(err, ErrBadID) {
			t.Errorf("Entity(%q) error = %v; want ErrBadID", id, err)
		}
	}
	if _, err := s.Entity(ctx, "task:missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Entity(task:missing) error = %v; want ErrNotFound", err)
	}
	mustCheck(t, s)
}

func TestStats(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Entities: map[Kind]int{Task: 0, Modality: 0, Dataset: 0, Technique: 0}}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("Stats() of an empty store mismatch (-want +got):\n%s", diff)
	}
	papers := genCorpus(1, 300, 40)
	put(t, s, papers...)
	want = Stats{Papers: 300, Entities: map[Kind]int{}}
	ids := map[string]bool{}
	for _, p := range papers {
		want.Edges += len(p.Entities)
		for _, e := range p.Entities {
			for _, id := range append([]string{e.ID()}, broaderIDs(e)...) {
				if !ids[id] {
					ids[id] = true
					want.Entities[e.Kind]++
				}
			}
		}
	}
	for _, k := range Kinds {
		want.Entities[k] += 0
	}
	if st, _ = s.Stats(ctx); !cmp.Equal(st, want) {
		t.Errorf("Stats() = %+v; want %+v", st, want)
	}
	mustCheck(t, s)
}

func broaderIDs(e Entity) []string {
	var ids []string
	for _, b := range e.Broader {
		ids = append(ids, EntityID(e.Kind, b))
	}
	return ids
}

// TestPutPapersSplit writes a batch far larger than one transaction may
// hold and checks that it lands whole and consistent.
func TestPutPapersSplit(t *testing.T) {
	s := openTest(t)
	s.maxTxnEntries = 500 // a few papers per transaction
	papers := genCorpus(2, 400, 60)
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
	e := func(aliases ...string) []Entity {
		return []Entity{{Kind: Dataset, Name: "GSM8K", Aliases: aliases}}
	}
	a := Paper{ID: paperID(1), Label: "Dolphin", Abstract: "Dolphin swims.", Source: "a.txt", Index: 1, Entities: e("gsm-8k")}
	a2 := a
	a2.Title, a2.Label, a2.Entities = "Porpoise", "Porpoise", e("GSM 8K")
	a3 := a
	a3.Title, a3.Label, a3.Source, a3.Index = "Narwhal", "Narwhal", "b.jsonl", 4
	b := Paper{ID: paperID(2), Label: "Whale", Abstract: "Whale sings.", Source: "a.txt", Index: 2, Entities: e()}
	b2 := b
	b2.Title, b2.Label = "Orca", "Orca"
	c := Paper{ID: paperID(3), Label: "Seal", Abstract: "Seal naps.", Entities: e()}
	r := put(t, s, a, a2, b, a3, c, b2)
	if want := (PutResult{Added: 3, Updated: 3}); r != want {
		t.Errorf("PutPapers = %+v; want %+v", r, want)
	}
	mustCheck(t, s)
	ent, err := s.Lookup(ctx, Dataset, "GSM8K")
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
	papers := genCorpus(10, 300, 60)
	if r := put(t, s, papers...); r.Added != len(papers) {
		t.Errorf("PutPapers = %+v; want %d added", r, len(papers))
	}
	mustCheck(t, s)
}

func TestReextract(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	old := genCorpus(3, 200, 50)
	put(t, s, old...)
	changed := genCorpus(4, 200, 50)
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

func TestReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, genCorpus(5, 50, 20)...)

	// A second opener, even in this process, finds the directory locked.
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), dir) {
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
	if !errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), "99") || !strings.Contains(err.Error(), fmt.Sprint(formatVersion)) {
		t.Errorf("Open of a format-99 database error = %v; want ErrNewerFormat naming 99 and %d", err, formatVersion)
	}
	// So is one from an older papergraph, whose keys mean something else.
	bo := badger.DefaultOptions(dir).WithLogger(nil)
	db, err := badger.Open(bo)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(txn *badger.Txn) error { return txn.Set(versionKey(), []byte{0, 0, 0, 1}) })
	db.Close()
	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrOlderFormat) || !strings.Contains(err.Error(), "format 1") {
		t.Errorf("Open of a format-1 database error = %v; want ErrOlderFormat naming format 1", err)
	}
}

// TestConcurrentReadWrite reads while another goroutine writes; run it
// with -race.
func TestConcurrentReadWrite(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	papers := genCorpus(6, 150, 20)
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
				if _, err := s.Sharing(ctx, p.ID, SharingQuery{Kinds: Kinds}); err != nil {
					t.Errorf("Sharing: %v", err)
					return
				}
				if _, err := s.Neighborhood(ctx, p.ID, NeighborhoodQuery{Hops: 2}); err != nil {
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

func TestWalk(t *testing.T) {
	s := openTest(t)
	papers := genCorpus(7, 60, 10)
	put(t, s, papers...)
	var ids []string
	edges, entities := 0, 0
	err := s.Walk(context.Background(), func(p Paper) error {
		ids = append(ids, p.ID)
		edges += len(p.Entities)
		return nil
	}, func(e Entity) error {
		entities++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stats(context.Background())
	n := 0
	for _, c := range st.Entities {
		n += c
	}
	if !slices.IsSorted(ids) || len(ids) != st.Papers || edges != st.Edges || entities != n {
		t.Errorf("Walk saw %d papers (sorted %v), %d edges, %d entities; want %d, %d, %d",
			len(ids), slices.IsSorted(ids), edges, entities, st.Papers, st.Edges, n)
	}
	stop := errors.New("stop")
	if err := s.Walk(context.Background(), func(Paper) error { return stop }, nil); !errors.Is(err, stop) {
		t.Errorf("Walk error = %v; want the callback's", err)
	}
}

// TestCollectGarbage rewrites papers with long abstracts, whose records
// live in the value log, and collects the garbage they leave.
func TestCollectGarbage(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	papers := genCorpus(11, 200, 400)
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
