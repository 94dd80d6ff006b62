package dgraph

import (
	"cmp"
	"slices"
	"strings"
)

// topBlocks returns the DQL blocks that cut the best $first nodes of the
// value variable v (highest first, ties by pg.id), among the nodes of v
// that pass filter ("" or "@filter(...)"), each selected with fields.
//
// DQL sorts by one value variable only ("Val() is not allowed in multiple
// sorting"), so the cut is made exact in two parts: t is the value of the
// $first-th node by v; the block "above" holds the nodes of that cut
// valued more than t, and "tie" the first $first nodes by pg.id valued t.
// rankTop orders the union, at most 2*$first rows, by v and id. v must
// hold whole numbers (counts, or rounded scores) for the ties to be exact.
func topBlocks(v, filter, fields string) string {
	return strings.NewReplacer("V", v, "FILTER", filter, "FIELDS", fields).Replace(`
	topV as var(func: uid(V), orderdesc: val(V), first: $first) FILTER
	var(func: uid(topV)) { atV as math(V) }
	cutV() { tV as min(val(atV)) }
	var(func: uid(V)) FILTER { diffV as math(V - tV) }
	above(func: uid(topV)) @filter(gt(val(diffV), 0)) { rank: val(V) FIELDS }
	tie(func: uid(diffV), orderasc: pg.id, first: $first) @filter(eq(val(diffV), 0)) { rank: val(V) FIELDS }
`)
}

// rankTop orders the rows of topBlocks' above and tie, highest rank
// first, then by id, and keeps the first n.
func rankTop(above, tie []node, n int) []node {
	rows := append(above, tie...)
	slices.SortFunc(rows, func(a, b node) int {
		return cmp.Or(cmp.Compare(b.Rank, a.Rank), strings.Compare(a.ID, b.ID))
	})
	return rows[:min(len(rows), n)]
}
