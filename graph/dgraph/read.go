package dgraph

import (
	"context"
	"fmt"
	"slices"

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

// Lookup returns the entity of kind k whose canonical name or alias is
// name, compared by slug (case and punctuation ignored); the canonical
// name wins over another entity's alias. ErrNotFound when there is none.
func (s *Store) Lookup(ctx context.Context, k graph.Kind, name string) (graph.Entity, error) {
	if !k.Valid() {
		return graph.Entity{}, fmt.Errorf("lookup %q: %w: %d", name, graph.ErrBadKind, uint8(k))
	}
	id := graph.EntityID(k, name)
	var r struct{ ByID, ByAlias []node }
	q := `query q($id: string) {
		byID(func: eq(pg.id, $id)) { ` + entityFields + ` }
		byAlias(func: eq(pg.alias, $id), orderasc: pg.id, first: 1) { ` + entityFields + ` }
	}`
	if err := s.query(ctx, q, map[string]string{"$id": id}, &r); err != nil {
		return graph.Entity{}, fmt.Errorf("lookup %s: %w", id, err)
	}
	for _, list := range [][]node{r.ByID, r.ByAlias} {
		if len(list) > 0 && !list[0].isPaper() {
			return list[0].entity(), nil
		}
	}
	return graph.Entity{}, fmt.Errorf("lookup %s: %w", id, graph.ErrNotFound)
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
