package graph

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is the kind of an entity a paper links to.
type Kind uint8

// The entity kinds. Their numeric values are part of the on-disk format:
// never renumber.
const (
	Task      Kind = 1
	Modality  Kind = 2
	Dataset   Kind = 3
	Technique Kind = 4
)

// Kinds lists every entity kind in display order.
var Kinds = []Kind{Task, Modality, Dataset, Technique}

var kindNames = [...]string{Task: "task", Modality: "modality", Dataset: "dataset", Technique: "technique"}

var kindPlurals = [...]string{Task: "tasks", Modality: "modalities", Dataset: "datasets", Technique: "techniques"}

// String returns the lower-case singular name of k ("dataset"), or
// "kind(N)" for an unknown value.
func (k Kind) String() string {
	if k.Valid() {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Plural returns the lower-case plural name of k ("datasets"), as used for
// the JSON field names of extract's output.
func (k Kind) Plural() string {
	if k.Valid() {
		return kindPlurals[k]
	}
	return k.String()
}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return k >= Task && k <= Technique }

// ParseKind parses a kind name, singular or plural, case-insensitively.
func ParseKind(s string) (Kind, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, k := range Kinds {
		if s == kindNames[k] || s == kindPlurals[k] {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%w: %q (want task, modality, dataset or technique)", ErrBadKind, s)
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrBadKind, uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// Entity is a task, modality, dataset or technique: one concept, one node.
type Entity struct {
	Kind Kind `json:"kind"`
	// Name is the canonical name: lower case for generic terms
	// ("vision-language model"), the source's casing for proper names
	// ("LoRA", "OSWorld-G").
	Name string `json:"name"`
	// Aliases are other spellings that mean the same entity ("VLM").
	Aliases []string `json:"aliases,omitempty"`
	// Broader holds the canonical names of the direct parents of the entity
	// in the taxonomy, of the same kind ("OSWorld" for "OSWorld-G").
	Broader []string `json:"broader,omitempty"`
	// Narrower holds the canonical names of the direct children. It is
	// filled by the Store when it reads an entity back.
	Narrower []string `json:"narrower,omitempty"`
	// PaperCount is the number of papers linked to the entity. It is filled
	// by the Store when it reads an entity back.
	PaperCount int `json:"paperCount,omitempty"`
}

// ID returns the entity's stable node id, "kind:slug" ("dataset:gsm8k").
func (e Entity) ID() string { return EntityID(e.Kind, e.Name) }

// EntityID returns the stable node id of the entity of kind k named name:
// the kind, a colon, and the name lower-cased with every run of characters
// other than letters and digits replaced by one hyphen
// ("technique:vision-language-model", "dataset:osworld-g"). Names that
// differ only in case or punctuation share an id on purpose: they are one
// concept.
func EntityID(k Kind, name string) string {
	var buf [64]byte // most ids: one allocation, the string's
	return string(AppendEntityID(buf[:0], k, name))
}

// AppendEntityID appends EntityID(k, name) to b, for callers that look
// the id up without making a string of it.
func AppendEntityID(b []byte, k Kind, name string) []byte {
	b = append(b, k.String()...)
	b = append(b, ':')
	return appendSlug(b, name)
}

// Slug lower-cases s and replaces every run of characters other than
// letters and digits by one hyphen, trimming hyphens at both ends.
func Slug(s string) string {
	var buf [64]byte
	return string(appendSlug(buf[:0], s))
}

// appendSlug appends the slug of s to b.
func appendSlug(b []byte, s string) []byte {
	start := len(b)
	dash := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			// Not ASCII: start again with the Unicode tables.
			return appendSlugUnicode(b[:start], s)
		}
		switch {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		default:
			dash = true
			continue
		}
		if dash && len(b) > start {
			b = append(b, '-')
		}
		dash = false
		b = append(b, c)
	}
	return b
}

// appendSlugUnicode is appendSlug for any text.
func appendSlugUnicode(b []byte, s string) []byte {
	start := len(b)
	dash := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && len(b) > start {
				b = append(b, '-')
			}
			dash = false
			b = utf8.AppendRune(b, unicode.ToLower(r))
			continue
		}
		dash = true
	}
	return b
}

// NormName returns the form of an entity name or alias that name lookups
// compare first: lower-cased, every run of white space or control
// characters collapsed to one space, trimmed; punctuation is kept, so
// "GPT-4" and "GPT 4" stay apart in it (their slugs, compared next, join
// them). Both stores index each name and alias under it and under its
// slug, so that a lookup resolves the same way on either.
func NormName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// ParseEntityID splits an entity id into its kind and slug. It reports
// ErrBadID for anything else, paper ids included.
func ParseEntityID(id string) (Kind, string, error) {
	k, slug, ok := strings.Cut(id, ":")
	if !ok || slug == "" {
		return 0, "", fmt.Errorf("%w: %q is not an entity id (want kind:name)", ErrBadID, id)
	}
	kind, err := ParseKind(k)
	if err != nil {
		return 0, "", fmt.Errorf("%w: %q: %w", ErrBadID, id, err)
	}
	return kind, slug, nil
}

// IsPaperID reports whether id has the form of a paper id: PaperIDLen
// lower-case hexadecimal digits.
func IsPaperID(id string) bool {
	if len(id) != PaperIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// PaperIDLen is the length of a paper id in hexadecimal digits.
const PaperIDLen = 16

// Mention is the evidence for a link: where in the abstract an entity was
// found.
type Mention struct {
	Kind Kind `json:"kind"`
	// Entity is the canonical name of the entity the text maps to.
	Entity string `json:"entity"`
	// Text is the matched text exactly as in the original abstract (or
	// title).
	Text string `json:"text"`
	// Start and End are byte offsets of Text in Paper.Abstract, or in
	// Paper.Title when InTitle is set.
	Start int `json:"start"`
	End   int `json:"end"`
	// InTitle reports whether the mention is in the title: a title names
	// what the paper is about more often than any sentence of its
	// abstract, and sometimes names what the abstract does not.
	InTitle bool `json:"inTitle,omitempty"`
}

// Paper is one paper with what the extractor found in it.
type Paper struct {
	// ID is derived from the normalised abstract alone, so the same paper
	// read from two sources gets the same id (see IsPaperID).
	ID string `json:"id"`
	// Name is the paper's own contribution name ("Dolphin"), or empty.
	Name string `json:"name,omitempty"`
	// Label is the title when the source has one, else a label built
	// from the name and the main task.
	Label string `json:"label"`
	// Title is the title given by the source, or empty.
	Title    string `json:"title,omitempty"`
	Abstract string `json:"abstract"`
	// Source is the base name of the file the paper was read from, and
	// Index its 1-based record number there.
	Source   string   `json:"source,omitempty"`
	Index    int      `json:"index,omitempty"`
	URL      string   `json:"url,omitempty"`
	Venue    string   `json:"venue,omitempty"`
	Year     int      `json:"year,omitempty"`
	Authors  []string `json:"authors,omitempty"`
	Keywords []string `json:"keywords,omitempty"`
	// Entities are the entities the paper links to, one edge each, sorted
	// by kind then name, without duplicates.
	Entities []Entity `json:"entities,omitempty"`
	// Ancestors are the entities broader than Entities, transitively, that
	// are not themselves in Entities. They are stored as taxonomy nodes
	// but not linked to the paper.
	Ancestors []Entity `json:"ancestors,omitempty"`
	// Mentions is the evidence for Entities, in order of Start.
	Mentions []Mention `json:"mentions,omitempty"`
}

// Names returns the canonical names of the paper's entities of kind k, in
// the order of Entities.
func (p *Paper) Names(k Kind) []string {
	var out []string
	for _, e := range p.Entities {
		if e.Kind == k {
			out = append(out, e.Name)
		}
	}
	return out
}

// NodeKind tells papers and the entity kinds apart in a Subgraph.
type NodeKind uint8

// NodeKind values. PaperNode is 0; an entity node's NodeKind equals its
// Kind.
const (
	PaperNode     NodeKind = 0
	TaskNode               = NodeKind(Task)
	ModalityNode           = NodeKind(Modality)
	DatasetNode            = NodeKind(Dataset)
	TechniqueNode          = NodeKind(Technique)
)

// String returns "paper" or the entity kind's name.
func (k NodeKind) String() string {
	if k == PaperNode {
		return "paper"
	}
	return Kind(k).String()
}

// Node is a paper or an entity in a Subgraph. Exactly one of Paper and
// Entity is set.
type Node struct {
	Paper  *Paper
	Entity *Entity
}

// ID returns the node id: the paper id or the entity id.
func (n Node) ID() string {
	if n.Paper != nil {
		return n.Paper.ID
	}
	return n.Entity.ID()
}

// Kind returns PaperNode for a paper, else the entity's kind.
func (n Node) Kind() NodeKind {
	if n.Paper != nil {
		return PaperNode
	}
	return NodeKind(n.Entity.Kind)
}

// Label returns the paper's label or the entity's canonical name.
func (n Node) Label() string {
	if n.Paper != nil {
		return n.Paper.Label
	}
	return n.Entity.Name
}

// Edge kinds other than the entity kinds (a paper-entity edge's Kind is the
// entity kind's name, "dataset").
const (
	// BroaderEdge links an entity to a broader entity of the taxonomy.
	BroaderEdge = "broader"
)

// Edge is a directed edge of a Subgraph: paper -> entity, labelled with the
// entity's kind, or entity -> broader entity, labelled BroaderEdge.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	// Evidence holds the mentions of the entity in the paper, in the
	// paper's order, for a paper-entity edge whose paper record was read
	// (see FillEvidence); exports carry it, traversals leave it empty.
	Evidence []Mention `json:"evidence,omitempty"`
}

// Subgraph is a set of nodes and the edges between them, as returned by
// traversals and consumed by the exporters. Nodes are sorted by ID and
// edges by (From, To, Kind), so output built from a Subgraph is
// deterministic; Path's alone is in path order instead (see Store.Path).
type Subgraph struct {
	Nodes []Node
	Edges []Edge
	// Truncated reports that a traversal left nodes out at its node cap
	// (Neighborhood's Limit); other Subgraphs are complete.
	Truncated bool
}
