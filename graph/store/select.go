package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// searchRoots is how many search hits become the roots of a Search
// selection: enough to cover a query's obvious matches, few enough that
// their neighbourhoods stay readable.
const searchRoots = 10

// Select returns the subgraph that sel picks, nodes sorted by id and edges
// by (From, To, Kind). An unknown root is ErrNotFound, a malformed id
// ErrBadID, a bad kind ErrBadKind and an out-of-range Hops or Limit
// ErrBadArgument, each wrapped with the operand.
//
// For the zero Selection, Select holds the whole graph in memory; Export
// streams it instead.
func (s *Store) Select(ctx context.Context, sel graph.Selection) (graph.Subgraph, error) {
	if err := sel.Validate(); err != nil {
		return graph.Subgraph{}, err
	}
	var g graph.Subgraph
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		g, err = s.selectIn(ctx, txn, sel)
		return err
	})
	return g, err
}

// selectIn serves Select in txn: one snapshot, whatever the roots.
func (s *Store) selectIn(ctx context.Context, txn *badger.Txn, sel graph.Selection) (graph.Subgraph, error) {
	if sel.Whole() {
		var c collector
		if err := exportWhole(ctx, txn, sel, &c); err != nil {
			return graph.Subgraph{}, err
		}
		c.g.Sort()
		return c.g, nil
	}
	roots, err := s.roots(ctx, txn, sel)
	if err != nil {
		return graph.Subgraph{}, err
	}
	if sel.Hops == 0 {
		return s.rootsOnly(txn, roots, sel.Kinds)
	}
	m := merger{nodes: map[string]graph.Node{}, edges: map[edgeKey]graph.Edge{}}
	q := graph.NeighborhoodQuery{Hops: sel.Hops, Kinds: sel.Kinds, Limit: sel.Limit}
	for _, id := range roots {
		g, err := s.neighborhood(ctx, txn, id, q)
		if err != nil {
			return graph.Subgraph{}, err
		}
		m.add(g)
	}
	return m.subgraph(roots, sel.Limit), nil
}

// roots resolves the selection's roots to node ids, in the order the
// selection ranks them.
func (s *Store) roots(ctx context.Context, txn *badger.Txn, sel graph.Selection) ([]string, error) {
	switch {
	case sel.Paper != "":
		if !graph.IsPaperID(sel.Paper) {
			return nil, fmt.Errorf("%w: %q is not a paper id (want %d hex digits)", graph.ErrBadID, sel.Paper, graph.PaperIDLen)
		}
		// The store's error names the paper already.
		if _, err := readPaperRecord(txn, s.cache, sel.Paper); err != nil {
			return nil, err
		}
		return []string{sel.Paper}, nil
	case sel.Entity != "":
		e, err := s.resolveEntity(txn, sel.Entity)
		if err != nil {
			return nil, err
		}
		return []string{e.ID()}, nil
	default:
		hits, err := s.search(ctx, txn, sel.Search, searchRoots)
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", sel.Search, err)
		}
		if len(hits) == 0 {
			return nil, fmt.Errorf("search %q: %w: no paper or entity matches", sel.Search, graph.ErrNotFound)
		}
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.Node.ID()
		}
		return ids, nil
	}
}

// resolveEntity finds the entity that ref names: KIND:NAME with NAME a
// canonical name or alias (as Lookup finds it), or an entity id.
func (s *Store) resolveEntity(txn *badger.Txn, ref string) (graph.Entity, error) {
	k, name, ok := strings.Cut(ref, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return graph.Entity{}, fmt.Errorf("%w: %q is not an entity (want kind:name, as dataset:gsm8k)", graph.ErrBadID, ref)
	}
	kind, err := graph.ParseKind(k)
	if err != nil {
		return graph.Entity{}, fmt.Errorf("entity %q: %w", ref, err)
	}
	e, err := lookup(txn, s.cache, kind, strings.TrimSpace(name))
	if err == nil {
		return e, nil
	}
	if !errors.Is(err, graph.ErrNotFound) {
		return graph.Entity{}, fmt.Errorf("entity %q: %w", ref, err)
	}
	// Not a name or alias: it may be the id's slug ("dataset:osworld-g").
	e, err = readEntityNarrower(txn, s.cache, graph.EntityID(kind, name))
	if errors.Is(err, graph.ErrNotFound) {
		return graph.Entity{}, fmt.Errorf("entity %q: %w: no %s has that name, alias or id", ref, graph.ErrNotFound, kind)
	}
	if err != nil {
		return graph.Entity{}, fmt.Errorf("entity %q: %w", ref, err)
	}
	return e, nil
}

// rootsOnly returns the roots and the edges between them: a selection of
// zero hops.
func (s *Store) rootsOnly(txn *badger.Txn, roots []string, kinds []graph.Kind) (graph.Subgraph, error) {
	var g graph.Subgraph
	in := make(map[string]bool, len(roots))
	for _, id := range roots {
		in[id] = true
	}
	for _, id := range roots {
		if graph.IsPaperID(id) {
			p, err := readPaper(txn, s.cache, id)
			if err != nil {
				return graph.Subgraph{}, err
			}
			g.Nodes = append(g.Nodes, graph.Node{Paper: &p})
			for _, e := range p.Entities {
				if in[e.ID()] && keepKind(kinds, e.Kind) {
					g.Edges = append(g.Edges, graph.Edge{From: id, To: e.ID(), Kind: e.Kind.String()})
				}
			}
			continue
		}
		e, err := readEntityNarrower(txn, s.cache, id)
		if err != nil {
			return graph.Subgraph{}, err
		}
		g.Nodes = append(g.Nodes, graph.Node{Entity: &e})
		for _, b := range e.Broader {
			if to := graph.EntityID(e.Kind, b); in[to] {
				g.Edges = append(g.Edges, graph.Edge{From: id, To: to, Kind: graph.BroaderEdge})
			}
		}
	}
	g.Sort()
	return g, nil
}

// keepKind reports whether an entity of kind k passes the filter kinds
// (empty passes all).
func keepKind(kinds []graph.Kind, k graph.Kind) bool {
	return len(kinds) == 0 || slices.Contains(kinds, k)
}

// merger unions the neighbourhoods of several roots.
type merger struct {
	nodes map[string]graph.Node
	edges map[edgeKey]graph.Edge
}

// edgeKey identifies an edge: graph.Edge with its evidence is no map key.
type edgeKey struct{ from, to, kind string }

func (m *merger) add(g graph.Subgraph) {
	for _, n := range g.Nodes {
		m.nodes[n.ID()] = n
	}
	for _, e := range g.Edges {
		m.edges[edgeKey{e.From, e.To, e.Kind}] = e
	}
}

// subgraph returns the union, cut to limit nodes (0: no cut) keeping the
// roots first and then the smallest ids, with the edges whose ends are
// both kept.
func (m *merger) subgraph(roots []string, limit int) graph.Subgraph {
	var g graph.Subgraph
	keep := m.nodes
	if limit > 0 && len(m.nodes) > limit {
		keep = make(map[string]graph.Node, limit)
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
	for _, e := range m.edges {
		if _, ok := keep[e.From]; !ok {
			continue
		}
		if _, ok := keep[e.To]; !ok {
			continue
		}
		g.Edges = append(g.Edges, e)
	}
	g.Sort()
	return g
}

// Export writes the subgraph that sel picks to gw, in stream order: papers
// by id, then entities by id, then the paper-entity edges and the taxonomy
// (broader) edges, each sorted by (From, To). The zero Selection streams
// the whole graph, reading one snapshot twice (nodes, then edges), so
// memory stays bounded whatever its size. Export does not call gw.Close.
// Errors are those of Select.
func (s *Store) Export(ctx context.Context, sel graph.Selection, gw graph.GraphWriter) error {
	if err := sel.Validate(); err != nil {
		return err
	}
	return s.view(ctx, func(txn *badger.Txn) error {
		if sel.Whole() {
			return exportWhole(ctx, txn, sel, gw)
		}
		g, err := s.selectIn(ctx, txn, sel)
		if err != nil {
			return err
		}
		return graph.WriteSubgraph(gw, g)
	})
}

// collector is the GraphWriter that keeps everything: Select of the whole
// graph.
type collector struct{ g graph.Subgraph }

func (c *collector) WriteNode(n graph.Node) error { c.g.Nodes = append(c.g.Nodes, n); return nil }
func (c *collector) WriteEdge(e graph.Edge) error { c.g.Edges = append(c.g.Edges, e); return nil }
func (c *collector) Close() error                 { return nil }
