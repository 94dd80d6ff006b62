package extract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/papergraph/papergraph/graph"
)

// Options configures New.
type Options struct {
	// VocabFiles are extra vocabulary files in the format of vocab/*.tsv,
	// read after the embedded ones.
	VocabFiles []string
}

// Extractor finds papers' names and entities in abstracts. An Extractor is
// safe for concurrent use by multiple goroutines: it only reads its
// vocabulary after New.
type Extractor struct {
	v *vocab
	// off switches stages off, for the ablation that measures what each
	// adds (ablation_test.go); New leaves every stage on.
	off stage
}

// stage is a stage of extraction past the vocabulary match, as a bit of
// Extractor.off.
type stage uint16

const (
	stageTitle            stage = 1 << iota // read the title as a first sentence
	stageNegation                           // denied mentions are not links
	stageRoles                              // techniques the paper is about are tasks
	stageTaskPhrases                        // the task phrase grammar
	stageTitleMethods                       // what a title's "via X" names is a technique
	stageCompose                            // tasks take their model family's name
	stageEnsureTask                         // every paper gets a task
	stageSystems                            // named systems known by their company
	stageModalityEvidence                   // incidental modality cues are no evidence
	stageComponents                         // an enumeration's own components are techniques
)

// New returns an Extractor with the embedded vocabulary and
// opts.VocabFiles. A bad vocabulary file is an error naming file and line.
func New(opts Options) (*Extractor, error) {
	v, err := loadVocab(opts.VocabFiles)
	if err != nil {
		return nil, err
	}
	return &Extractor{v: v}, nil
}

// ID returns the paper id of an abstract: the first PaperIDLen hex digits
// of the SHA-256 of its cleaned text, lower-cased, with everything but
// letters and digits removed. Case, whitespace, punctuation and markup do
// not change it, so one paper read from two sources gets one id.
func ID(abstract string) string {
	return idOf(Clean(abstract).Clean)
}

func idOf(clean string) string {
	return idInto(make([]byte, 0, len(clean)), clean)
}

// id is idInto of the abstract, reading the tokens' lower-cased text when
// lower is known: tokens are exactly the runs of letters and digits that
// the id hashes. The title, when there is one, is not part of the id.
func (w *work) id(buf []byte, lower string) string {
	if lower == "" {
		return idInto(buf, w.text.Clean[w.body:])
	}
	b := buf[:0]
	for _, t := range w.toks[w.bodyTok:] {
		b = append(b, lower[t.start:t.end]...)
	}
	return sumID(b)
}

// sumID is the paper id of the folded text b.
func sumID(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:graph.PaperIDLen]
}

// idInto is idOf using buf (from length 0) for the folded text.
func idInto(buf []byte, clean string) string {
	b := buf[:0]
	for i := 0; i < len(clean); {
		c := clean[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				b = append(b, c)
			case 'A' <= c && c <= 'Z':
				b = append(b, c+'a'-'A')
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(clean[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
		i += n
	}
	return sumID(b)
}

// found is an entity found in one abstract, with its evidence.
type found struct {
	id    string // entity id
	kind  graph.Kind
	name  string
	entry int // vocabulary entry, or -1 for a name found by a context pattern
	// broader is the vocabulary entry of the task a task phrase
	// specialises ("human motion forecasting" of motion forecasting), or
	// -1.
	broader  int
	mentions []graph.Mention
	// spans are the (Start, End) of mentions once there are many, so
	// that a name written thousands of times is not scanned for each new
	// one (a 1 MiB text of one name took a minute). Only addMention
	// appends to mentions, so a deletion leaves spans longer than them,
	// and addMention then builds it again.
	spans map[[2]int]struct{}
}

// spanIndexAt is the number of mentions from which addMention keeps spans.
const spanIndexAt = 16

// work is the working state of one extraction.
type work struct {
	x     *Extractor
	text  Text
	toks  []token
	words []word
	found map[string]*found // by entity id
	order []*found          // in order of first mention
	// founds and mentions are arenas for add's found values and their
	// mentions, reused across abstracts: most of an abstract's allocations
	// were these.
	founds   []found
	mentions []graph.Mention
	// taken marks cleaned-text bytes already explained by a vocabulary
	// match, so context patterns don't re-read them as new names.
	taken   []bool
	cand    []int8  // memo of candidate: 0 unknown, 1 yes, -1 no
	matches []match // matchVocab's, kept for its array
	// body is the cleaned offset where the abstract starts, after the
	// title (0 without one); bodyTok and bodyWord are the first token and
	// word there, and base the abstract's offset in text.Orig.
	body, bodyTok, bodyWord, base int
	// focus is where the title's part about the paper's problem ends and
	// where the abstract's opening sentence's does (offsets in
	// text.Orig): see about.
	focus struct{ title, opening int }
	// intro is the word of the abstract's first "we propose" (at), or
	// -1, once known: see firstContribution.
	intro struct {
		known bool
		at    int
	}
	// fieldLists are the lists of fields a background sentence says a
	// family of methods succeeded on (see modalityEvidence): no modality
	// of the paper, and no task of it either.
	fieldLists []span
	// titleNotion is the phrase a title gives before its colon when the
	// abstract names the paper otherwise ("Negotiated Reasoning: ..." of
	// SVNR): the paper's own, so no task, though not its name.
	titleNotion string
	// spare holds what ensureTask links when nothing else is a task: the
	// first role and the first task phrase that were not in focus, and
	// the first vocabulary task named only in the backdrop.
	spare struct {
		role     *found
		phrase   phrase
		backdrop *found
	}
}

// Extract returns the paper described by d with its id, name, label,
// entities, their taxonomy ancestors and the evidence for each link.
//
// Extract stops when ctx is done and returns ctx's error, wrapped: the
// stages that can run long on a long text check ctx before each step
// that links or scans (a match, a word, a phrase, an entity), so it
// stops within one step, and the cost of a step is at most linear in
// the text. The rest (cleaning, tokenizing, the final copy) is linear in
// the text and runs to its end.
func (x *Extractor) Extract(ctx context.Context, d Document) (graph.Paper, error) {
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	var t Text
	t, s.out = cleanInto(d.Abstract, s.out, s.start, s.end)
	// Keep the grown buffers; t does not outlive this call.
	s.start, s.end = t.start, t.end
	title := strings.TrimSpace(d.Title)
	body := 0
	if x.off&stageTitle == 0 {
		t, body = withTitle(Clean(title), t)
	}
	s.parts.split(t.Clean, true)
	s.taken = resize(s.taken, len(t.Clean)+1)
	s.cand = resize(s.cand, len(s.parts.words))
	s.ids = x.v.appendTokenIDs(s.ids[:0], s.parts.toks)
	if s.found == nil {
		s.found = map[string]*found{}
	}
	clear(s.found)
	w := &work{
		x: x, text: t, toks: s.parts.toks, words: s.parts.words,
		found: s.found, order: s.order[:0], founds: s.founds[:0], mentions: s.mentions[:0],
		taken: s.taken, cand: s.cand, matches: s.matches,
		body: body,
	}
	if body > 0 {
		w.base = len(title) + len(titleSep)
		w.bodyTok, _ = slices.BinarySearchFunc(w.toks, body, func(t token, at int) int { return t.start - at })
		w.bodyWord, _ = slices.BinarySearchFunc(w.words, body, func(wd word, at int) int { return wd.start - at })
	}
	w.focus.title = w.problemEnd(0, w.bodyWord)
	w.focus.opening = w.problemEnd(w.bodyWord, len(w.words))
	if err := ctx.Err(); err != nil {
		return graph.Paper{}, stopped(d, err)
	}
	// Each stage below returns early, with part of its work, once ctx is
	// done; the check after them discards what they found.
	ids := s.ids
	w.matchVocab(ctx, x.v.entities, ids)
	w.ellipses(ctx, x.v.entities, ids)
	w.versionLists(ctx, x.v.entities, ids)
	w.matchVocab(ctx, x.v.modalities, ids)
	s.matches = w.matches
	if x.off&stageModalityEvidence == 0 {
		w.modalityEvidence()
	}
	acronyms := w.resolveAcronyms(ctx)
	name := w.name(acronyms)
	w.datasets(ctx, acronyms, name)
	w.titleBenchmark(name)
	w.checkpoints(ctx, name)
	if x.off&stageSystems == 0 {
		w.systems(ctx, acronyms, name)
	}
	w.verbTechniques(ctx)
	if name != "" {
		w.dropOwnName(name)
	}
	w.roles(ctx)
	w.backdrops()
	if x.off&stageTaskPhrases == 0 {
		w.taskPhrases(ctx, name)
	}
	if x.off&stageTitleMethods == 0 {
		w.titleMethods(name)
	}
	if x.off&stageComponents == 0 {
		w.components(ctx, name)
	}
	if x.off&stageCompose == 0 {
		w.compose(ctx)
	}
	if x.off&stageEnsureTask == 0 {
		w.ensureTask()
	}
	if err := ctx.Err(); err != nil {
		// Keep the arrays for the next abstract, as below.
		s.order, s.founds, s.mentions = w.order, w.founds, w.mentions
		return graph.Paper{}, stopped(d, err)
	}

	p := graph.Paper{
		ID:       w.id(s.out, s.parts.lower),
		Name:     name,
		Title:    title,
		Abstract: d.Abstract,
		Source:   d.Source,
		Index:    d.Index,
		URL:      d.URL,
		Venue:    d.Venue,
		Year:     d.Year,
		Authors:  d.Authors,
		Keywords: d.Keywords,
	}
	w.fill(&p)
	p.Label = label(p, t.Clean)
	// Keep the arrays, possibly grown, for the next abstract: p holds
	// copies of everything in them.
	s.order, s.founds, s.mentions = w.order, w.founds, w.mentions
	return p, nil
}

// stopped is Extract's error when ctx ended with err before d was done:
// it names the document where the reader gave its place.
func stopped(d Document, err error) error {
	if d.Source != "" {
		return fmt.Errorf("extract %s:%d: %w", d.Source, d.Line, err)
	}
	return fmt.Errorf("extract: %w", err)
}

// scratch holds the per-abstract buffers, reused across calls through
// scratchPool to spare the garbage collector: they are several times the
// size of the abstract.
type scratch struct {
	out        []byte
	start, end []int32
	parts      parts
	ids        []uint32
	matches    []match
	found      map[string]*found
	order      []*found
	founds     []found
	mentions   []graph.Mention
	taken      []bool
	cand       []int8
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// resize returns s with length n and every element zero, reusing its
// array when large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// add records an entity mention covering cleaned bytes [start, end),
// unless the text denies it (negated).
func (w *work) add(kind graph.Kind, name string, entry, start, end int) {
	if w.x.off&stageNegation == 0 && w.negated(start, end) {
		return
	}
	a, b := w.text.Span(start, end)
	w.addMention(kind, name, entry, graph.Mention{Text: w.text.Orig[a:b], Start: a, End: b})
}

// addMention records the evidence m (offsets in text.Orig) for an
// entity.
func (w *work) addMention(kind graph.Kind, name string, entry int, m graph.Mention) {
	var id string
	if entry >= 0 {
		id = w.x.v.entries[entry].id
	} else {
		id = graph.EntityID(kind, name)
	}
	f, ok := w.found[id]
	if !ok {
		f = w.newFound(found{id: id, kind: kind, name: name, entry: entry, broader: -1})
		w.found[id] = f
		w.order = append(w.order, f)
	}
	span := [2]int{m.Start, m.End}
	if len(f.spans) != len(f.mentions) {
		f.spans = nil // mentions were deleted since
	}
	if f.spans == nil && len(f.mentions) >= spanIndexAt {
		f.spans = make(map[[2]int]struct{}, 2*len(f.mentions))
		for _, o := range f.mentions {
			f.spans[[2]int{o.Start, o.End}] = struct{}{}
		}
	}
	if f.spans != nil {
		if _, dup := f.spans[span]; dup {
			return
		}
		f.spans[span] = struct{}{}
	} else {
		for _, o := range f.mentions {
			if o.Start == m.Start && o.End == m.End {
				return
			}
		}
	}
	if len(f.mentions) == cap(f.mentions) {
		f.mentions = append(w.carve(2*len(f.mentions)), f.mentions...)
	}
	m.Kind, m.Entity = kind, name
	f.mentions = append(f.mentions, m)
}

// matchVocab links the vocabulary matches of t in the title and in the
// abstract; no match spans the two. It stops early once ctx is done.
func (w *work) matchVocab(ctx context.Context, t *trie, ids []uint32) {
	w.matches = t.match(w.matches[:0], w.toks[:w.bodyTok], ids[:w.bodyTok])
	n := len(w.matches)
	w.matches = t.match(w.matches, w.toks[w.bodyTok:], ids[w.bodyTok:])
	for i := n; i < len(w.matches); i++ {
		w.matches[i].first += w.bodyTok
		w.matches[i].last += w.bodyTok
	}
	// heads are the matches before k of more than one token, by their
	// last token's key, for shortFor: scanning all of them for each match
	// made a text of one name written 100,000 times take a minute.
	var heads map[uint64][]int
	for k, m := range w.matches {
		if ctx.Err() != nil {
			return
		}
		if k > 0 && w.matches[k-1].last > w.matches[k-1].first {
			if heads == nil {
				heads = make(map[uint64][]int)
			}
			key := w.toks[w.matches[k-1].last].key
			heads[key] = append(heads[key], k-1)
		}
		start, end := w.toks[m.first].start, w.toks[m.last].end
		if t == w.x.v.entities && (w.partOfName(start, end) || w.setPhrase(m, idioms) || w.shortFor(heads, m)) {
			continue
		}
		if t == w.x.v.modalities && w.setPhrase(m, methodSenses) {
			continue
		}
		for _, e := range m.entries {
			ent := &w.x.v.entries[e]
			w.add(ent.kind, ent.name, e, start, end)
		}
		if t == w.x.v.entities {
			for i := start; i < end; i++ {
				w.taken[i] = true
			}
			w.nested(t, ids, m)
		}
	}
}

// shortFor reports whether the one-token match m is the head of an
// earlier, longer match of another entry, which it then stands for: in a
// paper on dataset distillation, "the distillation problem" is dataset
// distillation's, not knowledge distillation's. heads are the earlier
// matches of more than one token by their last token's key.
func (w *work) shortFor(heads map[uint64][]int, m match) bool {
	if m.first != m.last {
		return false
	}
	for _, j := range heads[w.toks[m.first].key] {
		if !slices.Equal(w.matches[j].entries, m.entries) {
			return true
		}
	}
	return false
}

// neighbours are the words before and after a one-word alias that make
// a set phrase of it, by the alias lower-cased.
type neighbours map[string]struct{ before, after map[string]bool }

// idioms are the set phrases in which a one-word alias is an ordinary
// word: the attention a problem draws is no attention mechanism.
var idioms = neighbours{
	"attention": {
		before: setOf(`pay pays paid paying draw draws drew drawn drawing attract attracts attracted
			attracting gain gains gained gaining garner garnered receive receives received receiving
			little less more much growing increasing considerable significant widespread special
			particular careful close limited renewed public`),
		after: setOf("to from"),
	},
	// "simulation tasks" and "simulation benchmarks" are a domain.
	"simulation": {after: setOf("task tasks benchmark benchmarks")},
}

// methodSenses are the set phrases in which a one-word modality cue is
// part of a method, not the data: "3D RoPE" and "3D rank allocation" take
// no 3D data, "proximity graphs" and "graph-based abstraction" no graphs.
var methodSenses = neighbours{
	"3d": {after: setOf(`positions position positional rope decomposition decompositions rank ranks
		convolution convolutions conv kernel kernels tensor tensors attention embedding embeddings
		encoding encodings`)},
	// "visual prompts", "box prompts" and the learned prompts of
	// "prompt-based continual learning" are no text.
	"prompts": {before: promptKinds, after: setOf("based tuning pool pools")},
	// One prompt is as often a point or a box ("with a single prompt,
	// the model segments the part") as text.
	"prompt": {before: setOf(promptKindWords + " a an one single each every any the this"), after: setOf("based tuning pool pools")},
	// "Tactile MNIST" and "Audio-MNIST" are no images.
	"mnist": {before: setOf("tactile audio spoken")},
	// "Our vision is to ...": an aim, not images.
	"vision": {before: setOf("our their this shared broader grand")},
	"graph":  {before: setOf("memory proximity computation computational factor call"), after: setOf("based theoretic search")},
	"graphs": {before: setOf("memory proximity computation computational factor call")},
}

// promptKinds are the words before "prompt" that make it no text.
var promptKinds = setOf(promptKindWords)

const promptKindWords = "visual point points box boxes mask masks soft learnable continuous spatial geometric image audio video motion click scribble"

// setPhrase reports whether the one-token match m is part of a set
// phrase of table.
func (w *work) setPhrase(m match, table neighbours) bool {
	if m.first != m.last {
		return false
	}
	id, ok := table[strings.ToLower(w.toks[m.first].text)]
	if !ok {
		return false
	}
	if m.first > 0 && id.before[strings.ToLower(w.toks[m.first-1].text)] {
		return true
	}
	return m.last+1 < len(w.toks) && id.after[strings.ToLower(w.toks[m.last+1].text)]
}

// ellipses links the first conjunct of a coordination that shares its
// head with the second: "large language and vision-language models"
// names large language models too, whose "models" the text leaves out.
// Only the words just before the "and" are tried, up to three, with the
// head of the match after it. It stops early once ctx is done.
func (w *work) ellipses(ctx context.Context, t *trie, ids []uint32) {
	var buf splice
	for _, m := range w.matches {
		and := m.first - 1
		if and < 1 || m.last == m.first || w.toks[and].text != "and" && w.toks[and].text != "or" {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		for k := min(3, and); k >= 1; k-- {
			first := and - k
			if first < w.bodyTok && and >= w.bodyTok {
				break
			}
			entries := w.spliced(t, ids, &buf, first, and, m.last)
			if entries == nil {
				continue
			}
			start, end := w.toks[first].start, w.toks[and-1].end
			if w.taken[start] {
				break
			}
			for _, e := range entries {
				if ent := &w.x.v.entries[e]; ent.kind == graph.Technique || ent.kind == graph.Task {
					w.add(ent.kind, ent.name, e, start, end)
				}
			}
			break
		}
	}
}

// versionLists links the other versions a list gives after a dataset
// whose name ends with its year: "PASCAL VOC 2007, 2012, and MS COCO"
// names VOC2012 too, where the vocabulary knows "PASCAL VOC 2012". Up to
// three years follow, with "and" or "or" between. It stops early once
// ctx is done.
func (w *work) versionLists(ctx context.Context, t *trie, ids []uint32) {
	var buf splice
	for _, m := range w.matches {
		if m.last == m.first || !year(w.toks[m.last].text) || !slices.ContainsFunc(m.entries, func(e int) bool { return w.x.v.entries[e].kind == graph.Dataset }) {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		for k, n := m.last+1, 0; k < len(w.toks) && n < 3; k++ {
			if l := w.toks[k].text; l == "and" || l == "or" {
				continue
			}
			if !year(w.toks[k].text) || w.taken[w.toks[k].start] {
				break
			}
			n++
			for _, e := range w.spliced(t, ids, &buf, m.first, m.last, k) {
				if ent := &w.x.v.entries[e]; ent.kind == graph.Dataset {
					w.add(ent.kind, ent.name, e, w.toks[k].start, w.toks[k].end)
				}
			}
		}
	}
}

// splice is the scratch of spliced: tokens and their trie ids.
type splice struct {
	toks []token
	ids  []uint32
}

// spliced returns the entries that tokens from..to-1 followed by token
// last name as one whole alias, or nil: the words a coordination or a
// list leaves out, put back ("large language [models]", "PASCAL VOC
// [2007 →] 2012"). ids are the tokens' trie ids; buf is reused.
func (w *work) spliced(t *trie, ids []uint32, buf *splice, from, to, last int) []int {
	buf.toks = append(append(buf.toks[:0], w.toks[from:to]...), w.toks[last])
	buf.ids = append(append(buf.ids[:0], ids[from:to]...), ids[last])
	got := t.match(nil, buf.toks, buf.ids)
	if len(got) != 1 || got[0].first != 0 || got[0].last != len(buf.toks)-1 {
		return nil
	}
	return got[0].entries
}

// year reports whether s is a year: four digits from 19 or 20.
func year(s string) bool {
	return len(s) == 4 && (s[:2] == "19" || s[:2] == "20") && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9'
}

// nested links the techniques that a task's match starts or ends with:
// "aligning large language models" is LLM alignment done on a large
// language model, and the longer match hid it. A technique joined to the
// rest by a hyphen is a modifier: "non-convex optimization" is not convex
// optimization.
func (w *work) nested(t *trie, ids []uint32, m match) {
	if m.last == m.first || !slices.ContainsFunc(m.entries, func(e int) bool { return w.x.v.entries[e].kind == graph.Task }) {
		return
	}
	for _, r := range [][2]int{{m.first, m.last - 1}, {m.first + 1, m.last}} {
		for _, in := range t.match(nil, w.toks[r[0]:r[1]+1], ids[r[0]:r[1]+1]) {
			if in.first != 0 && in.last != r[1]-r[0] {
				continue // inside, not at an end
			}
			if r[0] > m.first && in.first == in.last && !strings.HasSuffix(w.toks[m.first].text, "ing") {
				// The head of "dataset distillation" names what it is
				// a kind of, not a technique it uses.
				continue
			}
			start, end := w.toks[r[0]+in.first].start, w.toks[r[0]+in.last].end
			if c := w.text.Clean; start > 0 && c[start-1] == '-' || end < len(c) && c[end] == '-' {
				continue
			}
			for _, e := range in.entries {
				if ent := &w.x.v.entries[e]; ent.kind == graph.Technique {
					w.add(ent.kind, ent.name, e, start, end)
				}
			}
		}
	}
}

// partOfName reports whether cleaned bytes [start, end) are only part of
// a longer hyphenated name: "MMBench" in "MMBench-GUI", "MAS" in
// "A2A-MAS", "GPT" in "GPT-o4-mini" (a version "v2" or an o-series
// model "o4" continues a name too). A lower-case continuation
// ("LLM-based") or prefix ("multi-LLM") keeps the match.
func (w *work) partOfName(start, end int) bool {
	s := w.text.Clean
	if end+1 < len(s) && s[end] == '.' && s[end+1] >= '0' && s[end+1] <= '9' {
		// "DeepSeek-V3" in the checkpoint "DeepSeek-V3.1-671B-A37B",
		// which checkpoints links whole.
		word := s[start:]
		if i := strings.IndexAny(word, " \n"); i >= 0 {
			word = word[:i]
		}
		return isModelName(strings.TrimRight(word, ",.;:)"))
	}
	if end+1 < len(s) && s[end] == '-' {
		if c := s[end+1]; c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || (c == 'v' || c == 'o') && end+2 < len(s) && s[end+2] >= '0' && s[end+2] <= '9' {
			return true
		}
	}
	// "MAS" in "A2A-MAS" is part of a name; "diffusion" in
	// "MLLM-diffusion architecture" is a compound's.
	if start >= 2 && s[start-1] == '-' && !('a' <= s[start] && s[start] <= 'z') {
		if c := s[start-2]; c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

// newFound returns a pointer to a copy of f, from w's arena, with room
// for a few mentions.
func (w *work) newFound(f found) *found {
	if len(w.founds) == cap(w.founds) {
		// A new array: w.found points into the old one.
		w.founds = make([]found, 0, max(64, 2*cap(w.founds)))
	}
	f.mentions = w.carve(4)
	w.founds = append(w.founds, f)
	return &w.founds[len(w.founds)-1]
}

// carve returns an empty slice with room for n mentions from w's arena.
func (w *work) carve(n int) []graph.Mention {
	if cap(w.mentions)-len(w.mentions) < n {
		// A new array: found entities' mentions point into the old one.
		w.mentions = make([]graph.Mention, 0, max(256, 2*cap(w.mentions), n))
	}
	k := len(w.mentions)
	w.mentions = w.mentions[:k+n]
	return w.mentions[k : k : k+n]
}

// fill copies the found entities, their ancestors and mentions into p.
func (w *work) fill(p *graph.Paper) {
	fs := slices.Clone(w.order)
	nMentions := 0
	for _, f := range fs {
		nMentions += len(f.mentions)
	}
	slices.SortFunc(fs, func(a, b *found) int {
		if a.kind != b.kind {
			return int(a.kind) - int(b.kind)
		}
		return strings.Compare(a.id, b.id)
	})
	p.Entities = make([]graph.Entity, 0, len(fs))
	p.Mentions = make([]graph.Mention, 0, nMentions)
	for _, f := range fs {
		switch {
		case f.entry >= 0:
			p.Entities = append(p.Entities, w.x.v.entity(f.entry))
		case f.broader >= 0:
			p.Entities = append(p.Entities, graph.Entity{Kind: f.kind, Name: f.name, Broader: []string{w.x.v.entries[f.broader].name}})
		default:
			p.Entities = append(p.Entities, graph.Entity{Kind: f.kind, Name: f.name})
		}
		p.Mentions = append(p.Mentions, f.mentions...)
	}
	var anc []int
	for _, f := range fs {
		var up []int
		switch {
		case f.entry >= 0:
			up = w.x.v.entries[f.entry].anc
		case f.broader >= 0:
			up = append([]int{f.broader}, w.x.v.entries[f.broader].anc...)
		}
		for _, a := range up {
			aid := w.x.v.entries[a].id
			if _, linked := w.found[aid]; !linked && !slices.Contains(anc, a) {
				anc = append(anc, a)
			}
		}
	}
	slices.SortFunc(anc, func(a, b int) int { return strings.Compare(w.x.v.entries[a].id, w.x.v.entries[b].id) })
	if len(anc) > 0 {
		p.Ancestors = make([]graph.Entity, 0, len(anc))
	}
	for _, a := range anc {
		p.Ancestors = append(p.Ancestors, w.x.v.entity(a))
	}
	for i := range p.Mentions {
		m := &p.Mentions[i]
		switch {
		case w.body == 0:
		case m.Start < w.base:
			m.InTitle = true
		default:
			m.Start -= w.base
			m.End -= w.base
		}
	}
	slices.SortFunc(p.Mentions, func(a, b graph.Mention) int {
		if a.InTitle != b.InTitle {
			if a.InTitle {
				return -1
			}
			return 1
		}
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return int(a.Kind) - int(b.Kind)
	})
}

// dropOwnName removes the paper's own name from its techniques and tasks:
// a paper's new method is its name, not a technique it uses
// (GUIDELINES.md). A dataset the paper introduces stays a dataset.
func (w *work) dropOwnName(name string) {
	for _, k := range []graph.Kind{graph.Technique, graph.Task} {
		if f, ok := w.found[graph.EntityID(k, name)]; ok {
			w.unlink(f)
		}
	}
	// "We introduce Relational Graph Convolutional Networks (R-GCNs)", "...
	// via cumulative error minimization, named CEM": what the name
	// abbreviates, or what a vocabulary spells as it, is the paper's own
	// too. A part of the long form is not ("a lightweight Anonymizing
	// Adapter Module (AAM)" uses adapters).
	for _, f := range slices.Clone(w.order) {
		if (f.kind == graph.Technique || f.kind == graph.Task) && len(f.mentions) > 0 {
			if !slices.ContainsFunc(f.mentions, func(m graph.Mention) bool { return !w.spellsName(m, name) }) {
				w.unlink(f)
			}
		}
	}
	// "We propose BBQ, the first ITO quantization method": a dataset a
	// vocabulary spells like the name is not linked when the paper calls
	// its own BBQ a method; its own benchmark stays a dataset.
	if f, ok := w.found[graph.EntityID(graph.Dataset, name)]; ok && f.entry >= 0 && w.calledMethod(name) {
		w.unlink(f)
	}
}

// spellsName reports whether mention m is the paper's name or the whole
// title-cased long form right before it: "Relational Graph Convolutional
// Networks" of "... (R-GCNs)", not the "fine-tuning" of "self-report
// fine-tuning (SRFT)".
func (w *work) spellsName(m graph.Mention, name string) bool {
	if singular(m.Text) == singular(name) {
		return true
	}
	rest, ok := strings.CutPrefix(w.text.Orig[m.End:], " (")
	if !ok || !strings.HasPrefix(rest, name) || !strings.Contains(m.Text, " ") {
		return false
	}
	for _, f := range strings.Fields(m.Text) {
		if !capitalised(f) {
			return false
		}
	}
	// The long form starts where the short form does ("Proximal Policy
	// Optimization (DO-HJ-PPO)" is a variation of PPO) and no capitalised
	// word before it belongs to it ("Anti-Adversarial Training (AT-AT)").
	if unicode.ToLower(rune(m.Text[0])) != unicode.ToLower(rune(name[0])) {
		return false
	}
	i := w.wordAtOrig(m.Start)
	return i == 0 || w.words[i-1].stop || !capitalised(w.words[i-1].text)
}

// calledMethod reports whether the words after the first mention of name
// in the abstract, within its clause, call it a method ("BBQ, the first
// quantization method") before any dataset head.
func (w *work) calledMethod(name string) bool {
	// "ST-WebAgentBench, a configurable framework": a bench by its name.
	if lower := strings.ToLower(name); strings.HasSuffix(lower, "bench") || strings.HasSuffix(lower, "gym") {
		return false
	}
	for i := w.bodyWord; i < len(w.words); i++ {
		if w.words[i].text != name {
			continue
		}
		for k := i + 1; k < len(w.words) && k <= i+8 && !w.words[k-1].stop; k++ {
			switch wd := w.words[k]; {
			case wd.class&datasetHead != 0:
				return false
			case ownKindHeads[wd.lower]:
				return true
			}
		}
		return false
	}
	return false
}

// unlink removes a found entity.
func (w *work) unlink(f *found) {
	delete(w.found, f.id)
	w.order = slices.DeleteFunc(w.order, func(o *found) bool { return o == f })
}

// relink adds back an entity that unlink removed.
func (w *work) relink(f *found) {
	w.found[f.id] = f
	w.order = append(w.order, f)
}

// roles unlinks the tasks that are roles of techniques the paper only
// uses: "Parameter-Efficient Fine-Tuning (PEFT) methods have become
// crucial ..." makes PEFT the paper's task; "we fine-tune with LoRA" in
// its fifth sentence does not (see about). It stops early once ctx is
// done.
func (w *work) roles(ctx context.Context) {
	for _, f := range slices.Clone(w.order) {
		if f.entry < 0 || !w.x.v.entries[f.entry].role {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if w.x.off&stageRoles != 0 || !slices.ContainsFunc(f.mentions, func(m graph.Mention) bool { return w.about(m.Start) || w.ownKind(f.name, m) }) {
			w.unlink(f)
			if w.spare.role == nil {
				w.spare.role = f
			}
		}
	}
}

// ownKindHeads are the nouns after a technique that make it the kind of
// the paper's own method: "we present DiaBlo, a simple yet effective
// PEFT approach".
var ownKindHeads = setOf("approach method framework technique algorithm")

// ownKind reports whether the mention m (offsets in text.Orig) of the
// role name says what kind of method the paper's first contribution is:
// the technique is then what the paper works on. A learning or training
// scheme ("a reinforcement learning framework") says how the method is
// trained, not what it is for.
func (w *work) ownKind(name string, m graph.Mention) bool {
	if m.Start < w.base || strings.HasSuffix(name, "learning") || strings.HasSuffix(name, "training") {
		return false
	}
	i := w.wordAtOrig(m.End)
	if i == 0 || i >= len(w.words) || !ownKindHeads[singularWord(w.words[i].lower)] || w.words[i-1].stop || w.words[i-1].comma {
		return false
	}
	for k := i - 1; k >= w.bodyWord && !w.words[k].stop; k-- {
		if w.ownIntro(k) {
			return w.firstContribution(k)
		}
	}
	return false
}

// ensureTask links a task to a paper that has none, as a graph where a
// third of the papers have no task answers few questions about them: the
// role the paper names first, else the first task phrase of the
// abstract, each of which failed only the test of being what the paper
// is about, else the technique its title is about, else the first task
// of its backdrop.
func (w *work) ensureTask() {
	if slices.ContainsFunc(w.order, func(f *found) bool { return f.kind == graph.Task }) {
		return
	}
	switch {
	case w.spare.role != nil:
		w.relink(w.spare.role)
	case w.spare.phrase.name != "":
		w.linkPhrase(w.spare.phrase)
	default:
		w.titleTechniqueTask()
		if f := w.spare.backdrop; f != nil && !slices.ContainsFunc(w.order, func(f *found) bool { return f.kind == graph.Task }) {
			// Last of all, as what the problem matters for says at
			// least which field the paper is in.
			w.relink(f)
		}
	}
}

// titleTechniqueTask links, as a task, the technique a title is about
// ("Gradient Descent with Large Step Sizes: ..."): the last resort of
// ensureTask, for papers that study a method for its own sake.
func (w *work) titleTechniqueTask() {
	// Before the title turns to its method ("... via X") if one is
	// there, else anywhere in the title: "Continuous Level-of-Detail via
	// 3D Gaussian Splatting" studies what splatting can do.
	for _, end := range []int{w.focus.title, w.base} {
		for _, f := range w.order {
			if f.kind != graph.Technique {
				continue
			}
			for _, m := range f.mentions {
				if m.Start < end {
					w.addMention(graph.Task, f.name, -1, m)
					return
				}
			}
		}
	}
}

// about reports whether what starts at byte a of text.Orig is what the
// paper is about: in its title or its abstract's opening sentence, before
// the words that turn to the method ("... via X", "... using X",
// "optimized through X").
func (w *work) about(a int) bool {
	return a < w.focus.title || w.base <= a && a < w.focus.opening
}

// problemEnd returns the offset in text.Orig where the part of words
// from..to-1 that states the problem ends: at the first word that turns
// to the method, or at the end of the first sentence.
func (w *work) problemEnd(from, to int) int {
	end := 0
	for i := from; i < to; i++ {
		wd := w.words[i]
		if i > from && methodTurn[wd.lower] {
			a, _ := w.text.Span(wd.start, wd.start)
			return a
		}
		end, _ = w.text.Span(wd.end, wd.end)
		if wd.stop && i >= w.bodyWord {
			break
		}
	}
	return end
}

// methodTurn are the words after which a title or sentence names the
// method rather than the problem.
var methodTurn = setOf("via using through by")

// label builds a readable label: the title, cleaned of markup as
// abstracts are ("Peng's Q(λ)", not "Peng's Q($\lambda$)"), when there is
// one, else the name and main task ("Dolphin: audio-visual speech
// separation"), else the abstract's first words.
func label(p graph.Paper, clean string) string {
	if p.Title != "" {
		return Clean(p.Title).Clean
	}
	tasks := p.Names(graph.Task)
	switch {
	case p.Name != "" && len(tasks) > 0:
		return p.Name + ": " + mainTask(p)
	case p.Name != "":
		return p.Name
	}
	return firstWords(clean, 10)
}

// mainTask is the task mentioned first in the abstract.
func mainTask(p graph.Paper) string {
	for _, m := range p.Mentions {
		if m.Kind == graph.Task {
			return m.Entity
		}
	}
	return p.Names(graph.Task)[0]
}

// firstWords returns the first n fields of s joined by spaces, with "…"
// when more follow. It reads no further than field n+1.
func firstWords(s string, n int) string {
	f := make([]string, 0, n)
	for w := range strings.FieldsSeq(s) {
		if len(f) == n {
			return strings.Join(f, " ") + "…"
		}
		f = append(f, w)
	}
	return strings.Join(f, " ")
}
