package graph

import (
	"fmt"
	"math"
	"strings"
)

// PutResult counts what PutPapers did.
type PutResult struct {
	Added, Updated, Unchanged int
}

// ValidatePaper reports (with an error wrapping ErrBadID) whether p cannot
// be stored: its id is not a paper id, or one of its entities or ancestors
// has an invalid kind or a name without letters or digits. PutPapers
// rejects a batch holding such a paper before writing any of it; callers
// that stream input check each paper first to name the bad record.
func ValidatePaper(p *Paper) error {
	if !IsPaperID(p.ID) {
		return fmt.Errorf("put paper %q: %w: want %d lower-case hex digits", p.ID, ErrBadID, PaperIDLen)
	}
	for _, list := range [][]Entity{p.Entities, p.Ancestors} {
		for _, e := range list {
			if !e.Kind.Valid() || Slug(e.Name) == "" {
				return fmt.Errorf("put paper %s: entity %s %q: %w", p.ID, e.Kind, e.Name, ErrBadID)
			}
		}
	}
	return nil
}

// Limits of the store's results. Every list the store returns (pages of
// papers or entities, sharing matches, search hits, co-occurrences) takes
// its length from a First or Limit field or argument: 0 asks for
// DefaultLimit, a negative one or more than MaxLimit is ErrBadArgument. Every subgraph
// (NeighborhoodQuery.Limit, Selection.Limit) caps its nodes likewise at
// DefaultNodes and MaxNodes. The server's arguments share these bounds.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	DefaultNodes = 200
	MaxNodes     = 1000
)

// SharingQuery selects the papers that share entities with a paper.
type SharingQuery struct {
	Kinds     []Kind // kinds of shared entity; empty means Dataset
	MinShared int    // at least this many shared entities; < 1 means 1
	Family    bool   // also match through the taxonomy (shared ancestors)
	Limit     int    // at most this many matches (see DefaultLimit)
	// Omit names the parts of the matches' papers that the caller does
	// not need; a store may leave them empty. The zero value asks for
	// whole papers. The server omits what a request does not select:
	// decoding twenty papers' evidence cost more than ranking them.
	Omit PaperParts
}

// PaperParts is a set of a Paper's list fields, beside the scalar ones
// (ID to Year), which always come back.
type PaperParts uint8

const (
	PaperLists    PaperParts = 1 << iota // Authors and Keywords
	PaperEntities                        // Entities and Ancestors
	PaperMentions                        // Mentions
	AllPaperParts = PaperLists | PaperEntities | PaperMentions
)

// Match is one paper sharing entities with another.
type Match struct {
	Paper  Paper
	Shared []Entity // sorted by kind then name
	Score  float64  // sum of 1/log(degree) over Shared
}

// AdamicAdar is the weight in Match.Score of a shared entity linked to
// degree papers: rare entities say more about two papers than hubs. A
// degree below 2 would divide by log(1) = 0 or less; it counts as 2. Both
// stores weigh with it (Dgraph's DQL computes the same expression).
func AdamicAdar(degree int) float64 { return 1 / math.Log(float64(max(degree, 2))) }

// NeighborhoodQuery bounds a neighbourhood.
type NeighborhoodQuery struct {
	Hops  int    // 1..4
	Kinds []Kind // entity kinds to follow; empty means all
	Limit int    // cap on nodes (see DefaultNodes)
}

// PaperPage is one page of papers.
type PaperPage struct {
	Papers    []Paper
	Cursors   []string // opaque cursor of each paper
	EndCursor string
	HasNext   bool
	// Total counts the papers matching the filter: exact from a counter
	// for no filter or an entity alone; else counted among the first
	// maxTotal (10,000) papers of the narrowest filter, or maxChecked
	// (1,000) when other filters are checked per paper, so a lower bound
	// past those. For a text filter, see rankText.
	Total int
}

// PaperQuery asks ListPapers for a page of papers.
type PaperQuery struct {
	Filter PaperFilter
	First  int    // page size (see DefaultLimit)
	After  string // the previous page's EndCursor; empty for the first page
}

// PaperFilter restricts ListPapers. Filters combine with "and".
type PaperFilter struct {
	Entity string // entity id
	Kind   Kind   // papers linked to any entity of this kind
	Text   string // full-text query
	Source string // source file base name
}

// Check reports a malformed filter: ErrBadKind for a Kind out of range,
// ErrBadID for an Entity that is no entity id. Every store checks a
// filter so before reading.
func (f PaperFilter) Check() error {
	if f.Kind != 0 && !f.Kind.Valid() {
		return fmt.Errorf("%w: %d", ErrBadKind, uint8(f.Kind))
	}
	if f.Entity != "" {
		if _, _, err := ParseEntityID(f.Entity); err != nil {
			return err
		}
	}
	return nil
}

// EntityQuery asks ListEntities for a page of entities.
type EntityQuery struct {
	Kind Kind // 0 for all kinds
	// Search keeps the entities with a name or alias starting with it;
	// empty keeps all.
	Search string
	Order  EntityOrder
	First  int    // page size (see DefaultLimit)
	After  string // the previous page's EndCursor; empty for the first page
}

// EntityOrder orders ListEntities.
type EntityOrder int

const (
	ByDegree EntityOrder = iota // most papers first, then by id
	ByName                      // alphabetical by id
)

// EntityPage is one page of entities.
type EntityPage struct {
	Entities  []Entity
	Cursors   []string
	EndCursor string
	HasNext   bool
	// Total counts the entities of the listing: exact, but a name search
	// stops counting at maxTotal (10,000).
	Total int
}

// CoOccurrence is an entity and the number of papers it shares with another.
type CoOccurrence struct {
	Entity Entity
	Count  int
	// Estimated reports whether Count was scaled up from a sample: for an
	// entity with more than coPapers (500) papers, only its first 500 in
	// paper id order — a uniform sample, as ids are hashes — are read, and
	// counts are multiplied by degree/500.
	Estimated bool
}

// PageOf asks PapersOf for one page of an entity's papers.
type PageOf struct {
	Entity string // entity id
	First  int    // page size (see DefaultLimit)
	After  string // the previous page's EndCursor; empty for the first page
}

// CoOccurrenceQuery bounds CoOccurring.
type CoOccurrenceQuery struct {
	Kind  Kind // kind of the entities counted; 0 for any
	Limit int  // at most this many entities (see DefaultLimit)
}

// Hit is one search result: a paper or an entity.
type Hit struct {
	Node  Node
	Score float64
}

// Stats counts papers, entities per kind and paper-entity edges.
type Stats struct {
	Papers   int          `json:"papers"`
	Entities map[Kind]int `json:"entities"`
	Edges    int          `json:"edges"`
}

// Hops bounds for Selection.Hops.
const (
	// DefaultHops is the Hops the command line and the HTTP export use
	// when none is given: a node and its direct neighbours.
	DefaultHops = 1
	// MaxHops is the largest Hops a Selection accepts; beyond it a
	// neighbourhood is most of the graph.
	MaxHops = 4
)

// Selection picks a subgraph: the neighbourhood of one or more roots, or,
// for the zero Selection, the whole graph. At most one of Paper, Entity and
// Search may be set.
type Selection struct {
	// Paper is a paper id: the root.
	Paper string
	// Entity is an entity id ("dataset:gsm8k") or KIND:NAME with NAME the
	// canonical name or an alias ("dataset:GSM-8K"): the root.
	Entity string
	// Search is a full-text query; its best hits (papers and entities,
	// at most 10) are the roots.
	Search string
	// Hops is how many edges to follow from the roots, 0..MaxHops; 0
	// keeps the roots alone (and the edges between them). Callers that
	// want a default use DefaultHops. It is ignored for the whole graph.
	Hops int
	// Kinds restricts the entities followed from the roots, or kept in
	// the whole graph, to these kinds; empty means all. Roots are always
	// kept.
	Kinds []Kind
	// Limit caps the number of nodes of a rooted selection, roots kept
	// first; 0 means DefaultNodes a root, and it is at most MaxNodes. The
	// whole graph has no cap: a Limit without a root is an error.
	Limit int
}

// ParseKinds parses a comma-separated list of entity kind names, singular
// or plural ("task,datasets"); empty gives nil, which selects every kind.
// An unknown name is ErrBadKind.
func ParseKinds(s string) ([]Kind, error) {
	var kinds []Kind
	for _, name := range strings.Split(s, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		k, err := ParseKind(name)
		if err != nil {
			return nil, fmt.Errorf("kinds: %w", err)
		}
		kinds = append(kinds, k)
	}
	return kinds, nil
}

// Whole reports whether sel has no root and so selects the whole graph.
func (sel Selection) Whole() bool {
	return sel.Paper == "" && sel.Entity == "" && sel.Search == ""
}

// Validate checks the fields that do not need the store: one root at most,
// Hops in 0..MaxHops, a Limit in 0..MaxNodes and only with a root, valid
// Kinds.
func (sel Selection) Validate() error {
	roots := 0
	for _, s := range []string{sel.Paper, sel.Entity, sel.Search} {
		if s != "" {
			roots++
		}
	}
	if roots > 1 {
		return fmt.Errorf("%w: select by one of paper, entity and search, not %d", ErrBadArgument, roots)
	}
	if sel.Hops < 0 || sel.Hops > MaxHops {
		return fmt.Errorf("%w: hops %d out of range 0..%d", ErrBadArgument, sel.Hops, MaxHops)
	}
	if sel.Limit < 0 || sel.Limit > MaxNodes {
		return fmt.Errorf("%w: limit %d out of range 0..%d", ErrBadArgument, sel.Limit, MaxNodes)
	}
	if sel.Limit > 0 && sel.Whole() {
		return fmt.Errorf("%w: limit needs a paper, entity or search to start from", ErrBadArgument)
	}
	for _, k := range sel.Kinds {
		if !k.Valid() {
			return fmt.Errorf("%w: %d", ErrBadKind, uint8(k))
		}
	}
	return nil
}
