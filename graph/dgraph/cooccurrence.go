package dgraph

import (
	"context"
	"fmt"

	"github.com/papergraph/papergraph/graph"
)

// coQuery is CoOccurring in DQL: a value of 1 at the entity E propagates
// through its papers to their other entities, summed per entity: the
// number of papers each shares with E. %s is the kind filter.
var coQuery = `query q($id: string) {
	E as var(func: eq(pg.id, $id)) {
		c as count(~pg.link)
		one as math(1 + 0 * c)
		~pg.link { pg.link @filter(NOT uid(E)%s) { n as math(one) } }
	}
	e(func: uid(E)) { pg.kind }
	TOP
}`

// CoOccurring returns at most q.Limit entities of kind q.Kind (0 for any)
// that share the most papers with the entity id, most first, then by id,
// counted exactly in DQL (the Badger store samples the first 500 papers
// of a larger entity and scales, marking the counts Estimated).
func (s *Store) CoOccurring(ctx context.Context, id string, q graph.CoOccurrenceQuery) ([]graph.CoOccurrence, error) {
	if _, _, err := graph.ParseEntityID(id); err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	if q.Kind != 0 && !q.Kind.Valid() {
		return nil, fmt.Errorf("co-occurring %s: %w: %d", id, graph.ErrBadKind, uint8(q.Kind))
	}
	limit, err := graph.ListLimit("limit", q.Limit)
	if err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	kind := ""
	if q.Kind != 0 {
		kind = fmt.Sprintf(" AND eq(pg.kind, %d)", q.Kind)
	}
	var r struct{ E []node }
	txn := s.dg.NewReadOnlyTxn()
	defer txn.Discard(ctx)
	top, err := cutTop(ctx, txn, fmt.Sprintf(coQuery, kind), map[string]string{"$id": id}, "n", wholeRank, "", entityFields+" count: val(n)", limit, &r, "")
	if err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	if len(r.E) == 0 || r.E[0].isPaper() {
		return nil, fmt.Errorf("co-occurring %s: %w", id, graph.ErrNotFound)
	}
	rows, err := decodeNodes(top)
	if err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	out := make([]graph.CoOccurrence, 0, len(rows))
	for i := range rows {
		out = append(out, graph.CoOccurrence{Entity: rows[i].entity(), Count: rows[i].Count})
	}
	return out, nil
}
