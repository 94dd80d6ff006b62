package dgraph

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

func sortStrings(s []string) { slices.Sort(s) }

// nodes returns the nodes of ids, by id; missing ones are absent.
func (s *Store) nodes(ctx context.Context, ids []string) (map[string]*node, error) {
	out := make(map[string]*node, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var r struct{ Q []node }
	if err := s.query(ctx, `{ q(func: eq(pg.id, `+quoteList(ids)+`)) { `+nodeFields+` } }`, nil, &r); err != nil {
		return nil, err
	}
	for i := range r.Q {
		out[r.Q[i].ID] = &r.Q[i]
	}
	return out, nil
}

// Papers returns the papers of ids in order, nil for each id that is not
// a stored paper.
func (s *Store) Papers(ctx context.Context, ids []string) ([]*graph.Paper, error) {
	ns, err := s.nodes(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("papers: %w", err)
	}
	out := make([]*graph.Paper, len(ids))
	for i, id := range ids {
		if n := ns[id]; n != nil && n.isPaper() {
			p, err := n.paper()
			if err != nil {
				return nil, err
			}
			out[i] = &p
		}
	}
	return out, nil
}

// Paper returns the paper id, ErrNotFound when there is none.
func (s *Store) Paper(ctx context.Context, id string) (graph.Paper, error) {
	ps, err := s.Papers(ctx, []string{id})
	if err != nil {
		return graph.Paper{}, err
	}
	if ps[0] == nil {
		return graph.Paper{}, fmt.Errorf("paper %s: %w", id, graph.ErrNotFound)
	}
	return *ps[0], nil
}

// Entities returns the entities of ids in order, nil for each id that is
// not a stored entity.
func (s *Store) Entities(ctx context.Context, ids []string) ([]*graph.Entity, error) {
	ns, err := s.nodes(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("entities: %w", err)
	}
	out := make([]*graph.Entity, len(ids))
	for i, id := range ids {
		if n := ns[id]; n != nil && !n.isPaper() {
			e := n.entity()
			out[i] = &e
		}
	}
	return out, nil
}

// Lookup returns the entity of kind k named name, resolved as the Badger
// store resolves it (lookupQuery): the first by id of those with a name
// or alias of name's normalised form (graph.NormName) or slug, else of
// name's slug; so a canonical name does not win over another entity's
// alias of the same form. ErrNotFound when there is none.
func (s *Store) Lookup(ctx context.Context, k graph.Kind, name string) (graph.Entity, error) {
	if !k.Valid() {
		return graph.Entity{}, fmt.Errorf("lookup %q: %w: %d", name, graph.ErrBadKind, uint8(k))
	}
	q, vars := lookupQuery(k, name, false, entityFields)
	var r struct{ Norm, Slug []node }
	if err := s.query(ctx, q, vars, &r); err != nil {
		return graph.Entity{}, fmt.Errorf("lookup %s %q: %w", k, name, err)
	}
	for _, list := range [][]node{r.Norm, r.Slug} {
		if len(list) > 0 {
			return list[0].entity(), nil
		}
	}
	return graph.Entity{}, fmt.Errorf("lookup %s %q: %w", k, name, graph.ErrNotFound)
}

// lookupQuery returns the DQL, and its variables, that finds the entity
// of kind k named name as the Badger store's name index finds it: block
// norm holds the first by id of the entities of kind k with a name or
// alias whose normalised form (pg.norm) or slug (pg.prefix) is
// NormName(name), block slug the same for Slug(name); with byID, block
// id holds the entity whose id is EntityID(k, name), which resolving a
// KIND:NAME falls back to. Each block selects fields; a block whose form
// is empty is left out.
func lookupQuery(k graph.Kind, name string, byID bool, fields string) (string, map[string]string) {
	vars := map[string]string{"$kind": strconv.Itoa(int(k))}
	decl := []string{"$kind: int"}
	var blocks []string
	for _, f := range []struct{ block, form string }{{"norm", graph.NormName(name)}, {"slug", graph.Slug(name)}} {
		if f.form == "" {
			continue
		}
		vars["$"+f.block] = f.form
		decl = append(decl, "$"+f.block+": string")
		blocks = append(blocks, fmt.Sprintf(`%[1]sN as var(func: eq(pg.norm, $%[1]s))
	%[1]sS as var(func: eq(pg.prefix, $%[1]s))
	%[1]s(func: uid(%[1]sN, %[1]sS), orderasc: pg.id, first: 1) @filter(eq(pg.kind, $kind)) { %[2]s }`, f.block, fields))
	}
	if byID {
		vars["$id"] = graph.EntityID(k, name)
		decl = append(decl, "$id: string")
		blocks = append(blocks, `id(func: eq(pg.id, $id)) @filter(eq(pg.kind, $kind)) { `+fields+` }`)
	}
	return "query q(" + strings.Join(decl, ", ") + ") {\n\t" + strings.Join(blocks, "\n\t") + "\n}", vars
}

// checkID returns an error for an id that is neither a paper id nor an
// entity id.
func checkID(id string) error {
	if graph.IsPaperID(id) {
		return nil
	}
	_, _, err := graph.ParseEntityID(id)
	return err
}

// edgeKind is the Subgraph kind of an edge from a paper to e.
func edgeKind(e graph.Kind) string { return e.String() }
