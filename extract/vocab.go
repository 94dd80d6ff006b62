package extract

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/papergraph/papergraph/graph"
)

// The embedded vocabulary: one entry per line, tab-separated,
//
//	kind <TAB> canonical name <TAB> aliases separated by | <TAB> broader names separated by |
//
// with # comments. A canonical name written with a leading "=" ("=Weather")
// makes the entry's one-word names match only as written, for datasets
// named by ordinary words. A task written with a leading "~"
// ("~contrastive learning") is a role of the technique of that name
// (GUIDELINES.md: the concept a paper studies is its task): it shares the
// technique's aliases and is linked only where the paper is about it
// (see doc.roles). Users add entries of their own in the same format with
// --vocab; an entry whose kind and canonical name already exist adds its
// aliases and broader names to it.
//
//go:embed vocab/*.tsv
var vocabFS embed.FS

// entry is one vocabulary entity.
type entry struct {
	kind  graph.Kind
	exact bool // names match only as written
	// role marks a task that is a technique's role: linked only where the
	// paper is about the technique.
	role    bool
	name    string
	aliases []string
	broader []string
	// id and anc (the ancestors, nearest first) are computed once after
	// loading: extraction reads them for every mention.
	id  string
	anc []int
}

// alias is one way to write an entry, as stored in the trie.
type alias struct {
	entry   int   // index in vocab.entries
	entries []int // []int{entry}, shared by every match of the alias
	// exact is the alias as written when it must match case-sensitively:
	// a single token with a capital ("SAM", "LoRA"), which as a lower-case
	// word is usually something else, or any alias of an exact entry.
	// Empty otherwise.
	exact string
}

// vocab is the loaded vocabulary and its token tries.
type vocab struct {
	entries []entry
	byKey   map[string]int // kind:slug -> entry index
	// Modality cues and the other kinds are matched by separate tries, so
	// that a cue ("human pose" -> motion) and an entity that contains it
	// ("human pose estimation") do not shadow each other in the
	// leftmost-longest match.
	entities, modalities *trie
	// tasks maps the normalised names and aliases of the tasks that are
	// not roles to their entries, for the task phrase grammar.
	tasks map[string]int
}

// trie maps token sequences to aliases. It is keyed by (node, token id);
// node 0 is the root. Token ids intern the normalised tokens that occur in
// some alias, so a text token that is in no alias costs one map miss.
type trie struct {
	tokenIDs *table    // token key -> token id; a key of 0 is stored as 1
	children *table    // node<<32 | token id -> child node
	terminal [][]alias // by node id, while inserting
	nodes    uint32
	maxLen   int // longest alias in tokens
	// root[id] is the root's child for token id (0: none), a slice rather
	// than a map lookup because every token of a text starts a walk there.
	root []uint32
	// term[node] is 0 for a node that ends no alias, else 1 + the index in
	// ends of what it ends. Matching reads these instead of terminal:
	// term is a sixth of its size, so the test for the common non-terminal
	// node stays in cache, and a terminal node's entries need no second
	// look at its aliases when none is case-sensitive.
	term []uint32
	ends []end
}

// end is what a trie node ends: the entries its aliases name, or, when
// one of them is case-sensitive, the aliases, for accept to decide.
type end struct {
	entries []int
	aliases []alias
}

// build fills root, term and ends; call it after the last insert.
func (v *trie) build() {
	v.root = make([]uint32, v.tokenIDs.n+1)
	for i, key := range v.children.keys {
		if key != 0 && key>>32 == 0 {
			v.root[uint32(key)] = v.children.vals[i]
		}
	}
	v.term = make([]uint32, v.nodes)
	v.ends = v.ends[:0]
	for node, aliases := range v.terminal {
		if len(aliases) == 0 {
			continue
		}
		e := end{aliases: aliases}
		if !slices.ContainsFunc(aliases, func(a alias) bool { return a.exact != "" }) {
			// Without a case rule, accept does not read the tokens.
			e = end{entries: accept(aliases, nil)}
		}
		v.ends = append(v.ends, e)
		v.term[node] = uint32(len(v.ends))
	}
	v.terminal = nil
}

func newTrie() *trie {
	return &trie{
		tokenIDs: new(table),
		children: new(table),
		nodes:    1,
	}
}

func newVocab() *vocab {
	v := &vocab{byKey: map[string]int{}, entities: newTrie(), modalities: newTrie(), tasks: map[string]int{}}
	// One token-id space for both tries, so a text's tokens are looked up
	// once.
	v.modalities.tokenIDs = v.entities.tokenIDs
	return v
}

// tableKey maps a token hash to a table key: 0 marks an empty slot.
func tableKey(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

// appendTokenIDs appends the id of each token to ids, 0 for a token in
// no alias.
func (v *vocab) appendTokenIDs(ids []uint32, toks []token) []uint32 {
	for _, t := range toks {
		ids = append(ids, v.entities.tokenIDs.get(tableKey(t.key)))
	}
	return ids
}

// loadVocab reads the embedded vocabulary and then the files, in order.
func loadVocab(files []string) (*vocab, error) {
	return loadVocabSkipping("", files)
}

// loadVocabSkipping is loadVocab without the embedded file named skip,
// for the ablation's measure of what one file adds.
func loadVocabSkipping(skip string, files []string) (*vocab, error) {
	v := newVocab()
	names, err := fs.Glob(vocabFS, "vocab/*.tsv")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for _, name := range names {
		if path.Base(name) == skip {
			continue
		}
		f, err := vocabFS.Open(name)
		if err != nil {
			return nil, err
		}
		err = v.read(f, path.Base(name))
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("vocabulary: %w", err)
		}
		err = v.read(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	if err := v.shareRoles(); err != nil {
		return nil, err
	}
	v.checkBroader()
	for i := range v.entries {
		v.entries[i].id = graph.EntityID(v.entries[i].kind, v.entries[i].name)
	}
	for i := range v.entries {
		v.entries[i].anc = v.ancestors(i)
	}
	v.index()
	return v, nil
}

// read adds the entries of one vocabulary file.
func (v *vocab) read(r io.Reader, name string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) < 2 || len(f) > 4 {
			return fmt.Errorf("%s:%d: want 2 to 4 tab-separated fields (kind, name, aliases, broader), got %d", name, line, len(f))
		}
		for len(f) < 4 {
			f = append(f, "")
		}
		kind, err := graph.ParseKind(f[0])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		canon := strings.TrimSpace(f[1])
		exact := strings.HasPrefix(canon, "=")
		canon = strings.TrimPrefix(canon, "=")
		role := strings.HasPrefix(canon, "~")
		canon = strings.TrimPrefix(canon, "~")
		if role && kind != graph.Task {
			return fmt.Errorf("%s:%d: a role (~) is a task, not a %s", name, line, kind)
		}
		if normPhrase(canon) == "" {
			return fmt.Errorf("%s:%d: empty name", name, line)
		}
		v.add(entry{kind: kind, exact: exact, role: role, name: canon, aliases: splitList(f[2]), broader: splitList(f[3])})
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, a := range strings.Split(s, "|") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// add merges e into the vocabulary.
func (v *vocab) add(e entry) {
	key := graph.EntityID(e.kind, e.name)
	if i, ok := v.byKey[key]; ok {
		old := &v.entries[i]
		old.exact = old.exact || e.exact
		old.role = old.role || e.role
		old.aliases = appendNew(old.aliases, e.aliases...)
		old.broader = appendNew(old.broader, e.broader...)
		return
	}
	v.byKey[key] = len(v.entries)
	v.entries = append(v.entries, e)
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		found := false
		for _, b := range list {
			if b == a {
				found = true
				break
			}
		}
		if !found {
			list = append(list, a)
		}
	}
	return list
}

// shareRoles gives each role the names of its technique, so that every
// way of writing the technique can link the task.
func (v *vocab) shareRoles() error {
	for i := range v.entries {
		e := &v.entries[i]
		if !e.role {
			continue
		}
		j, ok := v.byKey[graph.EntityID(graph.Technique, e.name)]
		if !ok {
			return fmt.Errorf("vocabulary: role %q: no technique of that name", e.name)
		}
		t := v.entries[j]
		e.exact = e.exact || t.exact
		e.aliases = appendNew(e.aliases, t.aliases...)
	}
	return nil
}

// checkBroader resolves every broader name to its entry's canonical name
// (a broader name may be an alias: "reinforcement learning from human
// feedback" is RLHF), adds an entry for a broader name that has none, so
// the taxonomy never points at a missing node, and drops
// self-references.
func (v *vocab) checkBroader() {
	byAlias := map[string]int{}
	for i, e := range v.entries {
		for _, a := range e.aliases {
			byAlias[e.kind.String()+":"+normPhrase(a)] = i
		}
	}
	for i, e := range v.entries {
		byAlias[e.kind.String()+":"+normPhrase(e.name)] = i
	}
	for i := 0; i < len(v.entries); i++ {
		e := v.entries[i]
		var kept []string
		for _, b := range e.broader {
			if j, ok := byAlias[e.kind.String()+":"+normPhrase(b)]; ok {
				b = v.entries[j].name
			}
			if graph.EntityID(e.kind, b) == graph.EntityID(e.kind, e.name) {
				continue
			}
			kept = appendNew(kept, b)
			if _, ok := v.byKey[graph.EntityID(e.kind, b)]; !ok {
				v.add(entry{kind: e.kind, name: b})
				byAlias[e.kind.String()+":"+normPhrase(b)] = len(v.entries) - 1
			}
		}
		v.entries[i].broader = kept
	}
}

// index builds the tries over every entry's name and aliases. A
// modality's canonical name is not indexed: "code" and "action" are
// cues only in some phrases, which the modality's aliases list.
func (v *vocab) index() {
	// named holds every name and alias, so that a derived form (see
	// modeling) never takes the name of another entry: "language
	// modeling" is a task of its own.
	named := map[string]bool{}
	for _, e := range v.entries {
		for _, a := range append([]string{e.name}, e.aliases...) {
			named[normPhrase(a)] = true
		}
	}
	for i, e := range v.entries {
		t := v.entities
		if e.kind == graph.Modality {
			t = v.modalities
		} else {
			t.insert(e.name, i, e.exact)
		}
		for _, a := range e.aliases {
			t.insert(a, i, e.exact)
		}
		if e.kind == graph.Dataset {
			for _, a := range append([]string{e.name}, e.aliases...) {
				if y, ok := apostropheYear(a); ok {
					t.insert(y, i, e.exact)
				}
			}
		}
		if e.kind == graph.Technique {
			for _, a := range append([]string{e.name}, e.aliases...) {
				if l, ok := learner(a); ok {
					t.insert(l, i, e.exact)
				}
			}
			// From the canonical name only: a loose alias ("multi-modal
			// model") makes a looser gerund.
			for _, g := range modeling(e.name) {
				if !named[normPhrase(g)] {
					t.insert(g, i, e.exact)
				}
			}
		}
		if e.kind == graph.Task && !e.role {
			for _, a := range append([]string{e.name}, e.aliases...) {
				if _, ok := v.tasks[normPhrase(a)]; !ok {
					v.tasks[normPhrase(a)] = i
				}
			}
		}
	}
	v.entities.build()
	v.modalities.build()
}

func (v *trie) insert(phrase string, entry int, exact bool) {
	toks := tokenize(phrase)
	if len(toks) == 0 || hasSymbol(phrase) {
		// Tokens drop symbols, so "∞Bench" would match every "Bench".
		return
	}
	node := uint32(0)
	for _, t := range toks {
		id := v.tokenIDs.get(tableKey(t.key))
		if id == 0 {
			id = uint32(v.tokenIDs.n) + 1
			v.tokenIDs.put(tableKey(t.key), id)
		}
		key := uint64(node)<<32 | uint64(id)
		next := v.children.get(key)
		if next == 0 {
			next = v.nodes
			v.nodes++
			v.children.put(key, next)
		}
		node = next
	}
	a := alias{entry: entry, entries: []int{entry}}
	switch {
	case exact:
		a.exact = tokenTexts(toks)
	case len(toks) == 1 && hasUpper(phrase) && caseSensitive(toks[0].text):
		a.exact = singular(toks[0].text)
	}
	for int(node) >= len(v.terminal) {
		v.terminal = append(v.terminal, nil)
	}
	for _, old := range v.terminal[node] {
		if old.entry == a.entry && old.exact == a.exact {
			return
		}
	}
	v.terminal[node] = append(v.terminal[node], a)
	if len(toks) > v.maxLen {
		v.maxLen = len(toks)
	}
}

// apostropheYear returns a dataset name's form with its two-digit year
// after an apostrophe, as older papers write it: "WMT'14" for "WMT14",
// "IWSLT'14 German-English" for "IWSLT14 German-English".
func apostropheYear(name string) (string, bool) {
	i := 0
	for i < len(name) && 'A' <= name[i] && name[i] <= 'Z' {
		i++
	}
	if i < 2 || digits(name[i:]) != 2 || i+2 < len(name) && name[i+2] != ' ' {
		return "", false
	}
	return name[:i] + "'" + name[i:], true
}

// tokenTexts is toks as written, one space between: the form an exact
// alias of several words must match.
func tokenTexts(toks []token) string {
	texts := make([]string, len(toks))
	for i, t := range toks {
		texts[i] = t.text
	}
	return strings.Join(texts, " ")
}

// caseSensitive reports whether a one-token alias must match with its
// case: acronyms and camel-case names ("SAM", "LoRA", "ImageNet", "GPT4"),
// whose lower-case forms are often ordinary words, but not a capitalised
// ordinary word ("Transformer") or a proper name with one capital that
// is written lower case too.
func caseSensitive(w string) bool {
	return countUpper(w) >= 2 || (countUpper(w) == 1 && !startsUpper(w)) || (hasUpper(w) && hasDigit(w))
}

// hasSymbol reports whether s has a rune other than a letter, digit,
// space, or ASCII punctuation.
func hasSymbol(s string) bool {
	for _, r := range s {
		if r >= 0x80 && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) && r != '–' && r != '’' {
			return true
		}
	}
	return false
}

func startsUpper(w string) bool {
	for _, r := range w {
		return r >= 'A' && r <= 'Z'
	}
	return false
}

func hasDigit(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			return true
		}
	}
	return false
}

// ancestors returns the entries broader than entry i, transitively,
// nearest first, without repeats. Cycles in user vocabularies are cut.
func (v *vocab) ancestors(i int) []int {
	var out []int
	seen := map[int]bool{i: true}
	queue := []int{i}
	for len(queue) > 0 {
		e := v.entries[queue[0]]
		queue = queue[1:]
		for _, b := range e.broader {
			j, ok := v.byKey[graph.EntityID(e.kind, b)]
			if !ok || seen[j] {
				continue
			}
			seen[j] = true
			out = append(out, j)
			queue = append(queue, j)
		}
	}
	return out
}

// entity returns entry i as a graph.Entity.
func (v *vocab) entity(i int) graph.Entity {
	e := &v.entries[i]
	return graph.Entity{Kind: e.kind, Name: e.name, Aliases: e.aliases, Broader: e.broader}
}

// Vocabulary returns a copy of the extractor's vocabulary: every entity
// with its canonical name, aliases and broader names, in the order the
// vocabulary files list them (embedded files by name, then
// Options.VocabFiles), taxonomy parents that no file lists last. Modality
// entries are cues: their aliases are matched, their names are not. The
// benchmark corpus generator writes abstracts from it.
func (x *Extractor) Vocabulary() []graph.Entity {
	out := make([]graph.Entity, len(x.v.entries))
	for i, e := range x.v.entries {
		out[i] = graph.Entity{Kind: e.kind, Name: e.name, Aliases: slices.Clone(e.aliases), Broader: slices.Clone(e.broader)}
	}
	return out
}

// learner returns the agent noun of a learning paradigm, which names the
// paradigm as a component does: "an in-context learner" uses in-context
// learning, "a meta-learner" meta-learning. Only modified paradigms:
// "a learner" alone says nothing.
func learner(name string) (string, bool) {
	for _, sep := range []string{" ", "-"} {
		if base, ok := strings.CutSuffix(name, sep+"learning"); ok && base != "" {
			return base + sep + "learner", true
		}
	}
	return "", false
}

// modeling returns the gerunds of a model family's name, which name the
// practice of using it: "energy-based modeling" uses an energy-based
// model. Only names that end in "model".
func modeling(name string) []string {
	base, ok := strings.CutSuffix(name, " model")
	if !ok {
		base, ok = strings.CutSuffix(name, " models")
	}
	if !ok || base == "" {
		return nil
	}
	return []string{base + " modeling", base + " modelling"}
}
