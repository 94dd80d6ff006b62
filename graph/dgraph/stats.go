package dgraph

import (
	"context"
	"fmt"

	"github.com/papergraph/papergraph/graph"
)

// Stats counts papers, entities per kind and paper-entity edges, each with
// one count in DQL: exact, as the Badger store's counters.
func (s *Store) Stats(ctx context.Context) (graph.Stats, error) {
	var r map[string][]struct {
		Count int     `json:"count"`
		Edges float64 `json:"edges"`
	}
	q := `{
	papers(func: eq(pg.kind, 0)) { count: count(uid) }
	var(func: eq(pg.kind, 0)) { c as count(pg.link) }
	edges() { edges: sum(val(c)) }
	k1(func: eq(pg.kind, 1)) { count: count(uid) }
	k2(func: eq(pg.kind, 2)) { count: count(uid) }
	k3(func: eq(pg.kind, 3)) { count: count(uid) }
	k4(func: eq(pg.kind, 4)) { count: count(uid) }
}`
	if err := s.query(ctx, q, nil, &r); err != nil {
		return graph.Stats{}, fmt.Errorf("stats: %w", err)
	}
	first := func(name string) (int, float64) {
		if l := r[name]; len(l) > 0 {
			return l[0].Count, l[0].Edges
		}
		return 0, 0
	}
	st := graph.Stats{Entities: map[graph.Kind]int{}}
	st.Papers, _ = first("papers")
	_, e := first("edges")
	st.Edges = int(e)
	for _, k := range graph.Kinds {
		st.Entities[k], _ = first(fmt.Sprintf("k%d", k))
	}
	return st, nil
}
