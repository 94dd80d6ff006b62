package dgraph

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// familyTaxonomyQuery reads the taxonomy around the paper's entities of
// the asked kinds (%s is the kind filter): up 2*graph.FamilyDepth levels, so
// that the ancestors of an ancestor are known, and down graph.FamilyDepth
// levels from every entity a group can be, with each node's degree and
// broader edges. The walks themselves are made from it client-side,
// because their order and graph.FamilySize cap (nearest first, by id within
// a parent) are the Badger store's and DQL's @recurse has neither.
var familyTaxonomyQuery = func() string {
	var b strings.Builder
	b.WriteString(`query q($id: string) {
	P as var(func: eq(pg.id, $id))
	paper(func: uid(P)) { pg.kind }
	var(func: uid(P)) { U0 as pg.link @filter(%s) }
	own(func: uid(U0)) { uid }
`)
	up := []string{"U0"}
	for l := 1; l <= 2*graph.FamilyDepth; l++ {
		fmt.Fprintf(&b, "\tvar(func: uid(U%d)) { U%d as pg.broader }\n", l-1, l)
		up = append(up, "U"+strconv.Itoa(l))
	}
	groups := strings.Join(up[:graph.FamilyDepth+1], ", ")
	fmt.Fprintf(&b, "\tvar(func: uid(%s)) { D1 as ~pg.broader }\n", groups)
	all := slices.Clone(up)
	all = append(all, "D1")
	for l := 2; l <= graph.FamilyDepth; l++ {
		fmt.Fprintf(&b, "\tvar(func: uid(D%d)) { D%d as ~pg.broader }\n", l-1, l)
		all = append(all, "D"+strconv.Itoa(l))
	}
	fmt.Fprintf(&b, "\ttax(func: uid(%s)) { uid pg.id pg.kind pg.name degree: count(~pg.link) pg.broader { uid } }\n}", strings.Join(all, ", "))
	return b.String()
}()

// familyGroup is what a candidate paper may share with the query paper
// with Family: an entity of the paper or one of its ancestors, matched
// through any of its members (itself and its descendants), as in the
// Badger store.
type familyGroup struct {
	id        string
	members   []string // uids
	degree    int      // papers linked to the members, summed
	bonus     float64
	ancestors map[string]bool // strict ancestors of id (ids)
}

// taxonomy is the part of the taxonomy familyTaxonomyQuery read.
type taxonomy struct {
	id, uid           map[string]string   // uid -> id, id -> uid
	degree            map[string]int      // by id
	entity            map[string]*node    // by id
	broader, narrower map[string][]string // by id, each list in id order
}

func newTaxonomy(ns []node) *taxonomy {
	t := &taxonomy{id: map[string]string{}, uid: map[string]string{}, degree: map[string]int{}, entity: map[string]*node{},
		broader: map[string][]string{}, narrower: map[string][]string{}}
	for i := range ns {
		n := &ns[i]
		t.id[n.UID], t.uid[n.ID], t.degree[n.ID], t.entity[n.ID] = n.ID, n.UID, n.Degree, n
	}
	for _, n := range ns {
		for _, b := range n.Broader {
			if bid, ok := t.id[b.UID]; ok {
				t.broader[n.ID] = append(t.broader[n.ID], bid)
				t.narrower[bid] = append(t.narrower[bid], n.ID)
			}
		}
	}
	for _, m := range []map[string][]string{t.broader, t.narrower} {
		for _, l := range m {
			slices.Sort(l)
		}
	}
	return t
}

// walk is graph.FamilyWalk over adj.
func walk(adj map[string][]string, id string, depth int) []string {
	return graph.FamilyWalk(id, depth, func(u string, yield func(v string)) {
		for _, v := range adj[u] {
			yield(v)
		}
	})
}

// groups returns the family groups of the paper's entities own (ids),
// rarest (so heaviest) first, then by id: the Badger store's shareGroups
// and sortGroups.
func (t *taxonomy) groups(own []string) []*familyGroup {
	byID := map[string]*familyGroup{}
	var gs []*familyGroup
	add := func(id string) {
		if byID[id] == nil {
			g := &familyGroup{id: id}
			byID[id] = g
			gs = append(gs, g)
		}
	}
	for _, e := range own {
		add(e)
		for _, a := range walk(t.broader, e, graph.FamilyDepth) {
			add(a)
		}
	}
	for _, g := range gs {
		for _, m := range append([]string{g.id}, walk(t.narrower, g.id, graph.FamilyDepth)...) {
			g.members = append(g.members, t.uid[m])
			g.degree += t.degree[m]
		}
		g.bonus = graph.AdamicAdar(g.degree)
		g.ancestors = map[string]bool{}
		for _, a := range walk(t.broader, g.id, graph.FamilyDepth) {
			g.ancestors[a] = true
		}
	}
	slices.SortFunc(gs, func(a, b *familyGroup) int {
		return cmp.Or(cmp.Compare(a.degree, b.degree), strings.Compare(a.id, b.id))
	})
	return gs
}

// familyQuery returns papersSharing with Family in DQL over the groups
// gs: Ci holds the papers (but the query paper) linked to a member of
// group i, Ki those of them counted for it (not sharing a group below i,
// whose ancestor i is not counted), xi and yi its weight and 1 on Ki;
// their sums over the groups, missing values counting as zero, are the
// score s and the count n, summed in group order as the Badger store
// does. The best are cut by cutTop, as without Family, from the rows of
// fields.
func familyQuery(gs []*familyGroup) (dql, rowFields string) {
	var b strings.Builder
	b.WriteString("query q($id: string, $min: int) {\n\tP as var(func: eq(pg.id, $id))\n")
	for i, g := range gs {
		fmt.Fprintf(&b, "\tvar(func: uid(%s)) { C%d as ~pg.link @filter(NOT uid(P)) }\n", strings.Join(g.members, ", "), i)
	}
	var cs, xs, ys, fields []string
	for i, g := range gs {
		var below []string
		for j, h := range gs {
			if h.ancestors[g.id] {
				below = append(below, "C"+strconv.Itoa(j))
			}
		}
		filter := ""
		if len(below) > 0 {
			filter = "@filter(NOT uid(" + strings.Join(below, ", ") + "))"
		}
		fmt.Fprintf(&b, "\tvar(func: uid(C%d)) %s { x%d as math(%s) y%d as math(1.0) }\n", i, filter, i,
			strconv.FormatFloat(g.bonus, 'g', -1, 64), i)
		cs = append(cs, "C"+strconv.Itoa(i))
		xs = append(xs, "x"+strconv.Itoa(i))
		ys = append(ys, "y"+strconv.Itoa(i))
		fields = append(fields, fmt.Sprintf("k%d: val(y%d)", i, i))
	}
	fmt.Fprintf(&b, "\tvar(func: uid(%s)) { s as math(%s) n as math(%s) }\n", strings.Join(cs, ", "), strings.Join(xs, " + "), strings.Join(ys, " + "))
	b.WriteString("\tTOP\n}")
	return b.String(), "pg.id pg.record score: val(s) " + strings.Join(fields, " ")
}

// sharingFamily is Sharing with q.Family: two queries in one read-only
// transaction, the taxonomy around the paper (familyTaxonomyQuery), whose
// groups are made as the Badger store makes them, then the scores and the
// top cut in DQL (familyQuery). ks is the kind filter.
func (s *Store) sharingFamily(ctx context.Context, id, ks string, limit, minShared int) ([]graph.Match, error) {
	txn := s.dg.NewReadOnlyTxn()
	defer txn.Discard(ctx)
	var t struct{ Paper, Own, Tax []node }
	if err := queryTxn(ctx, txn, fmt.Sprintf(familyTaxonomyQuery, ks), map[string]string{"$id": id}, &t); err != nil {
		return nil, err
	}
	if len(t.Paper) == 0 || !t.Paper[0].isPaper() {
		return nil, graph.ErrNotFound
	}
	tax := newTaxonomy(t.Tax)
	var own []string
	for _, n := range t.Own {
		own = append(own, tax.id[n.UID])
	}
	slices.Sort(own)
	gs := tax.groups(own)
	if len(gs) == 0 {
		return nil, nil
	}
	vars := map[string]string{"$id": id, "$min": strconv.Itoa(minShared)}
	dql, fields := familyQuery(gs)
	raws, err := cutTop(ctx, txn, dql, vars, "s", scoreRank, "ge(val(n), $min)", fields, limit, nil, "")
	if err != nil {
		return nil, err
	}
	top, err := decodeNodes(raws)
	if err != nil {
		return nil, err
	}
	// counted[i] holds the groups row i is counted for: the fields k<g>
	// it has.
	counted := make([]map[string]json.RawMessage, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &counted[i]); err != nil {
			return nil, fmt.Errorf("dql response: %w", err)
		}
	}
	out := make([]graph.Match, 0, len(top))
	for i := range top {
		p, err := top[i].paper()
		if err != nil {
			return nil, err
		}
		m := graph.Match{Paper: p, Score: top[i].Score}
		for g := range gs {
			if _, ok := counted[i]["k"+strconv.Itoa(g)]; ok {
				e := tax.entity[gs[g].id]
				m.Shared = append(m.Shared, graph.Entity{Kind: graph.Kind(e.Kind), Name: e.Name})
			}
		}
		slices.SortFunc(m.Shared, func(a, b graph.Entity) int {
			return cmp.Or(cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
		})
		out = append(out, m)
	}
	return out, nil
}
