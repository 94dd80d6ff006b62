package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hops bounds for Selection.Hops.
const (
	// DefaultHops is the Hops the command line and the HTTP export use
	// when none is given: a node and its direct neighbours.
	DefaultHops = 1
	// MaxHops is the largest Hops a Selection accepts; beyond it a
	// neighbourhood is most of the graph.
	MaxHops = 4
)

// searchRoots is how many search hits become the roots of a Search
// selection: enough to cover a query's obvious matches, few enough that
// their neighbourhoods stay readable.
const searchRoots = 10

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
	// first; 0 means the cap of Neighborhood (200 nodes a root). The
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

// validate checks the fields that do not need the store.
func (sel Selection) validate() error {
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
	if sel.Limit < 0 {
		return fmt.Errorf("%w: limit %d is negative", ErrBadArgument, sel.Limit)
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

// Select returns the subgraph that sel picks, nodes sorted by id and edges
// by (From, To, Kind). An unknown root is ErrNotFound, a malformed id
// ErrBadID, a bad kind ErrBadKind and an out-of-range Hops or Limit
// ErrBadArgument, each wrapped with the operand.
//
// For the zero Selection, Select holds the whole graph in memory; Export
// streams it instead.
func (s *Store) Select(ctx context.Context, sel Selection) (Subgraph, error) {
	if err := sel.validate(); err != nil {
		return Subgraph{}, err
	}
	if sel.Whole() {
		var c collector
		if err := s.exportWhole(ctx, sel, &c); err != nil {
			return Subgraph{}, err
		}
		c.g.sort()
		return c.g, nil
	}
	roots, err := s.roots(ctx, sel)
	if err != nil {
		return Subgraph{}, err
	}
	if sel.Hops == 0 {
		return s.rootsOnly(ctx, roots, sel.Kinds)
	}
	m := merger{nodes: map[string]Node{}, edges: map[Edge]bool{}}
	q := NeighborhoodQuery{Hops: sel.Hops, Kinds: sel.Kinds, Limit: sel.Limit}
	for _, id := range roots {
		g, err := s.Neighborhood(ctx, id, q)
		if err != nil {
			return Subgraph{}, err
		}
		m.add(g)
	}
	return m.subgraph(roots, sel.Limit), nil
}

// roots resolves the selection's roots to node ids, in the order the
// selection ranks them.
func (s *Store) roots(ctx context.Context, sel Selection) ([]string, error) {
	switch {
	case sel.Paper != "":
		if !IsPaperID(sel.Paper) {
			return nil, fmt.Errorf("%w: %q is not a paper id (want %d hex digits)", ErrBadID, sel.Paper, PaperIDLen)
		}
		// The store's error names the paper already.
		if _, err := s.Paper(ctx, sel.Paper); err != nil {
			return nil, err
		}
		return []string{sel.Paper}, nil
	case sel.Entity != "":
		e, err := s.resolveEntity(ctx, sel.Entity)
		if err != nil {
			return nil, err
		}
		return []string{e.ID()}, nil
	default:
		hits, err := s.Search(ctx, sel.Search, searchRoots)
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", sel.Search, err)
		}
		if len(hits) == 0 {
			return nil, fmt.Errorf("search %q: %w: no paper or entity matches", sel.Search, ErrNotFound)
		}
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.Node.ID()
		}
		return ids, nil
	}
}

// resolveEntity finds the entity that ref names: KIND:NAME with NAME a
// canonical name or alias (through Lookup), or an entity id.
func (s *Store) resolveEntity(ctx context.Context, ref string) (Entity, error) {
	k, name, ok := strings.Cut(ref, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return Entity{}, fmt.Errorf("%w: %q is not an entity (want kind:name, as dataset:gsm8k)", ErrBadID, ref)
	}
	kind, err := ParseKind(k)
	if err != nil {
		return Entity{}, fmt.Errorf("entity %q: %w", ref, err)
	}
	e, err := s.Lookup(ctx, kind, strings.TrimSpace(name))
	if err == nil {
		return e, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return Entity{}, fmt.Errorf("entity %q: %w", ref, err)
	}
	// Not a name or alias: it may be the id's slug ("dataset:osworld-g").
	e, err = s.Entity(ctx, EntityID(kind, name))
	if errors.Is(err, ErrNotFound) {
		return Entity{}, fmt.Errorf("entity %q: %w: no %s has that name, alias or id", ref, ErrNotFound, kind)
	}
	if err != nil {
		return Entity{}, fmt.Errorf("entity %q: %w", ref, err)
	}
	return e, nil
}

// rootsOnly returns the roots and the edges between them: a selection of
// zero hops.
func (s *Store) rootsOnly(ctx context.Context, roots []string, kinds []Kind) (Subgraph, error) {
	var g Subgraph
	in := make(map[string]bool, len(roots))
	for _, id := range roots {
		in[id] = true
	}
	for _, id := range roots {
		if IsPaperID(id) {
			p, err := s.Paper(ctx, id)
			if err != nil {
				return Subgraph{}, err
			}
			g.Nodes = append(g.Nodes, Node{Paper: &p})
			for _, e := range p.Entities {
				if in[e.ID()] && keepKind(kinds, e.Kind) {
					g.Edges = append(g.Edges, Edge{From: id, To: e.ID(), Kind: e.Kind.String()})
				}
			}
			continue
		}
		e, err := s.Entity(ctx, id)
		if err != nil {
			return Subgraph{}, err
		}
		g.Nodes = append(g.Nodes, Node{Entity: &e})
		for _, b := range e.Broader {
			if to := EntityID(e.Kind, b); in[to] {
				g.Edges = append(g.Edges, Edge{From: id, To: to, Kind: BroaderEdge})
			}
		}
	}
	g.sort()
	return g, nil
}

// keepKind reports whether an entity of kind k passes the filter kinds
// (empty passes all).
func keepKind(kinds []Kind, k Kind) bool {
	return len(kinds) == 0 || slices.Contains(kinds, k)
}

// merger unions the neighbourhoods of several roots.
type merger struct {
	nodes map[string]Node
	edges map[Edge]bool
}

func (m *merger) add(g Subgraph) {
	for _, n := range g.Nodes {
		m.nodes[n.ID()] = n
	}
	for _, e := range g.Edges {
		m.edges[e] = true
	}
}

// subgraph returns the union, cut to limit nodes (0: no cut) keeping the
// roots first and then the smallest ids, with the edges whose ends are
// both kept.
func (m *merger) subgraph(roots []string, limit int) Subgraph {
	var g Subgraph
	keep := m.nodes
	if limit > 0 && len(m.nodes) > limit {
		keep = make(map[string]Node, limit)
		for _, id := range roots {
			if n, ok := m.nodes[id]; ok && len(keep) < limit {
				keep[id] = n
			}
		}
		for _, id := range slices.Sorted(maps.Keys(m.nodes)) {
			if len(keep) >= limit {
				break
			}
			keep[id] = m.nodes[id]
		}
	}
	for _, n := range keep {
		g.Nodes = append(g.Nodes, n)
	}
	for e := range m.edges {
		if _, ok := keep[e.From]; !ok {
			continue
		}
		if _, ok := keep[e.To]; !ok {
			continue
		}
		g.Edges = append(g.Edges, e)
	}
	g.sort()
	return g
}

// sort puts g in the order Subgraph documents.
func (g *Subgraph) sort() {
	slices.SortFunc(g.Nodes, func(a, b Node) int { return strings.Compare(a.ID(), b.ID()) })
	slices.SortFunc(g.Edges, compareEdges)
}

func compareEdges(a, b Edge) int {
	return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Kind, b.Kind))
}

// A GraphWriter writes a graph in one format as a stream, so that the whole
// graph is exported in bounded memory. Callers write every node before any
// edge, and only edges between nodes written, then call Close, which writes
// the trailer and flushes (it does not close the underlying io.Writer).
// The writers are DOTWriter, GraphMLWriter and CytoscapeWriter.
type GraphWriter interface {
	WriteNode(Node) error
	WriteEdge(Edge) error
	Close() error
}

// Export writes the subgraph that sel picks to gw, in stream order: papers
// by id, then entities by id, then the paper-entity edges and the taxonomy
// (broader) edges, each sorted by (From, To). The zero Selection streams
// the whole graph, reading the store twice (nodes, then edges), so memory
// stays bounded whatever its size; the store should not change meanwhile.
// Export does not call gw.Close. Errors are those of Select.
func (s *Store) Export(ctx context.Context, sel Selection, gw GraphWriter) error {
	if err := sel.validate(); err != nil {
		return err
	}
	if sel.Whole() {
		return s.exportWhole(ctx, sel, gw)
	}
	g, err := s.Select(ctx, sel)
	if err != nil {
		return err
	}
	return writeSubgraph(gw, g)
}

// exportWhole streams every node, then every edge, keeping entities of
// sel.Kinds.
func (s *Store) exportWhole(ctx context.Context, sel Selection, gw GraphWriter) error {
	err := s.Walk(ctx,
		func(p Paper) error { return gw.WriteNode(Node{Paper: &p}) },
		func(e Entity) error {
			if !keepKind(sel.Kinds, e.Kind) {
				return nil
			}
			return gw.WriteNode(Node{Entity: &e})
		})
	if err != nil {
		return fmt.Errorf("export nodes: %w", err)
	}
	var edges []Edge
	err = s.Walk(ctx,
		func(p Paper) error {
			edges = edges[:0]
			for _, e := range p.Entities {
				if keepKind(sel.Kinds, e.Kind) {
					edges = append(edges, Edge{From: p.ID, To: e.ID(), Kind: e.Kind.String()})
				}
			}
			return writeEdges(gw, edges)
		},
		func(e Entity) error {
			if !keepKind(sel.Kinds, e.Kind) {
				return nil
			}
			edges = edges[:0]
			for _, b := range e.Broader {
				edges = append(edges, Edge{From: e.ID(), To: EntityID(e.Kind, b), Kind: BroaderEdge})
			}
			return writeEdges(gw, edges)
		})
	if err != nil {
		return fmt.Errorf("export edges: %w", err)
	}
	return nil
}

func writeEdges(gw GraphWriter, edges []Edge) error {
	slices.SortFunc(edges, compareEdges)
	for _, e := range edges {
		if err := gw.WriteEdge(e); err != nil {
			return err
		}
	}
	return nil
}

// writeSubgraph writes g to gw in the stream order of Export, so that a
// subgraph and the whole graph come out alike.
func writeSubgraph(gw GraphWriter, g Subgraph) error {
	nodes := slices.Clone(g.Nodes)
	slices.SortFunc(nodes, func(a, b Node) int {
		return cmp.Or(cmp.Compare(nodeRank(a), nodeRank(b)), strings.Compare(a.ID(), b.ID()))
	})
	for _, n := range nodes {
		if err := gw.WriteNode(n); err != nil {
			return err
		}
	}
	edges := slices.Clone(g.Edges)
	slices.SortFunc(edges, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(edgeRank(a), edgeRank(b)), compareEdges(a, b))
	})
	return writeEdges(gw, edges)
}

// nodeRank puts papers before entities.
func nodeRank(n Node) int {
	if n.Paper != nil {
		return 0
	}
	return 1
}

// edgeRank puts paper-entity edges before taxonomy edges.
func edgeRank(e Edge) int {
	if e.Kind == BroaderEdge {
		return 1
	}
	return 0
}

// collector is the GraphWriter that keeps everything: Select of the whole
// graph.
type collector struct{ g Subgraph }

func (c *collector) WriteNode(n Node) error { c.g.Nodes = append(c.g.Nodes, n); return nil }
func (c *collector) WriteEdge(e Edge) error { c.g.Edges = append(c.g.Edges, e); return nil }
func (c *collector) Close() error           { return nil }

// cleanText returns s with invalid UTF-8 replaced by U+FFFD and control
// characters and characters not allowed in XML 1.0 dropped, except tab and
// newline, which become spaces: text every export format can carry.
func cleanText(s string) string {
	clean := true
	for _, r := range s {
		if !textRune(r) || r == '\t' || r == '\n' {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
			b.WriteByte(' ')
		case textRune(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// textRune reports whether r is a printable character allowed in XML 1.0.
// The U+FFFD that ranging over invalid UTF-8 yields passes.
func textRune(r rune) bool {
	if unicode.IsControl(r) {
		return false
	}
	return r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= unicode.MaxRune
}
