package dgraph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// sharingQuery is papersSharing in DQL. For the paper P, E are its
// entities of the asked kinds; each carries its Adamic-Adar weight
// 1/ln(max(count(~pg.link), 2)), and value-variable propagation sums the
// weights (s) and the number of entities (n) over the paths from P
// through E to every other paper. The best $first among those sharing at
// least $min entities are cut (cutTop) by s rounded to 12 digits
// (scoreRank), so that float sums made in another order tie as in the
// Badger store. %s is the kind filter.
var sharingQuery = `query q($id: string, $min: int) {
	P as var(func: eq(pg.id, $id))
	var(func: uid(P)) { E as pg.link @filter(%s) }
	var(func: uid(E)) {
		d as count(~pg.link)
		w as math(1.0 / ln(max(d, 2.0)))
		one as math(1 + 0 * d)
		~pg.link @filter(NOT uid(P)) {
			s as math(w)
			n as math(one)
		}
	}
	paper(func: uid(P)) { pg.kind }
	TOP
}`

// sharingFields are what a row of sharingQuery's top block (cutTop, among
// those sharing at least $min entities) holds beside its rank, the score.
const sharingFields = "pg.id pg.record shared: pg.link @filter(uid(E)) { pg.id pg.kind pg.name }"

// sharingRefetch reads sharingFields of the papers of the top that
// sharingQuery's first cut did not (see cutTop): only E is needed, not
// the scores.
var sharingRefetch = `query q($id: string, $min: int) {
	P as var(func: eq(pg.id, $id))
	var(func: uid(P)) { E as pg.link @filter(%s) }
	TOP
}`

// Sharing returns the papers sharing at least q.MinShared entities of
// q.Kinds (Dataset when empty) with the paper id, best first by
// Adamic-Adar score, then by paper id, as the Badger store does; the
// score is computed inside Dgraph over exact degrees, and the top
// q.Limit cut there too (sharingQuery), so unlike the Badger store no hub
// is ever approximated.
//
// With q.Family a paper also shares an ancestor of the paper's entity
// through the ancestor's family, scored as the Badger store scores it
// (see graph/store's Sharing and sharingFamily).
func (s *Store) Sharing(ctx context.Context, id string, q graph.SharingQuery) ([]graph.Match, error) {
	if !graph.IsPaperID(id) {
		return nil, fmt.Errorf("sharing %q: %w: not a paper id", id, graph.ErrBadID)
	}
	limit, err := graph.ListLimit("limit", q.Limit)
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	kinds := q.Kinds
	if len(kinds) == 0 {
		kinds = []graph.Kind{graph.Dataset}
	}
	var ks []string
	for _, k := range kinds {
		if !k.Valid() {
			return nil, fmt.Errorf("sharing %s: %w: %d", id, graph.ErrBadKind, uint8(k))
		}
		ks = append(ks, strconv.Itoa(int(k)))
	}
	filter := "eq(pg.kind, [" + strings.Join(ks, ",") + "])"
	if q.Family {
		ms, err := s.sharingFamily(ctx, id, filter, limit, max(q.MinShared, 1))
		if err != nil {
			return nil, fmt.Errorf("sharing %s: %w", id, err)
		}
		return ms, nil
	}
	var r struct{ Paper []node }
	dql := fmt.Sprintf(sharingQuery, filter)
	vars := map[string]string{"$id": id, "$min": strconv.Itoa(max(q.MinShared, 1))}
	txn := s.dg.NewReadOnlyTxn()
	defer txn.Discard(ctx)
	top, err := cutTop(ctx, txn, dql, vars, "s", scoreRank, "ge(val(n), $min)", sharingFields, limit, &r, fmt.Sprintf(sharingRefetch, filter))
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	if len(r.Paper) == 0 || !r.Paper[0].isPaper() {
		return nil, fmt.Errorf("sharing %s: %w", id, graph.ErrNotFound)
	}
	rows, err := decodeNodes(top)
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	out := make([]graph.Match, 0, len(rows))
	for i := range rows {
		p, err := rows[i].paper()
		if err != nil {
			return nil, err
		}
		m := graph.Match{Paper: p, Score: rows[i].Rank}
		for _, e := range rows[i].Shared {
			m.Shared = append(m.Shared, graph.Entity{Kind: graph.Kind(e.Kind), Name: e.Name})
		}
		slices.SortFunc(m.Shared, func(a, b graph.Entity) int {
			return cmp.Or(cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
		})
		out = append(out, m)
	}
	return out, nil
}
