package dgraph

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dgraph-io/dgo/v250"
)

// Scales of cutTop's ranks: whole numbers (counts, degrees) rank as they
// are; scores rank rounded to 12 decimal digits, so that float sums made
// in another order (Dgraph's propagation, the Badger store's loop) tie as
// in the Badger store.
const (
	wholeRank = 1
	scoreRank = 1e12
)

// cutTop runs q in txn, a DQL query whose text holds TOP where the blocks
// that cut the best n nodes go, decodes its other blocks into out, and
// returns those nodes: the best n nodes of the value variable v, highest
// first, then by pg.id, among those passing filter (a DQL filter
// expression, or ""), each the JSON object of fields (which must hold
// pg.id) and rank: val(v). A node ranks by floor(v*scale + 0.5), computed
// here from val(v) as Dgraph would (its floats are IEEE doubles, written
// in full).
//
// DQL sorts by one value variable only ("Val() is not allowed in multiple
// sorting"), and math and aggregation in a root block range over every
// node their variables hold, not over the block's nodes, so the rank at
// the cut cannot be computed and used within one query, and ties at the
// cut are common (every paper sharing only one hub dataset scores the
// same). The first query takes the best topWindow nodes by v with their
// ids and ranks only, and the fields of the best n+1+min(n, topSlack) of
// them. When the window holds every node of the n-th's rank (the next
// ranks lower, or the window is not full) the top is known: its rows
// missing from the fields block are read by uid, with refetch (DQL
// holding TOP where a block of nodes by uid goes, reading fields without
// q's value variables, with vars; the rank is added from the window) or,
// when refetch is "", with q again. Only a tie wider than the window
// takes a query for the first by pg.id of the nodes of that rank: those
// whose v lies in the exact interval of floats that round to it
// (rankBounds). The ranking stays in Dgraph.
//
// The blocks cut in var blocks and only the cut nodes select fields:
// ordering by a value variable in the block that selects them makes
// Dgraph fetch the fields of every candidate before it sorts (at 100k
// papers, 0.7 s of a 1 s papersSharing).
func cutTop(ctx context.Context, txn *dgo.Txn, q string, vars map[string]string, v string, scale float64, filter, fields string, n int, out any, refetch string) ([]json.RawMessage, error) {
	at := ""
	if filter != "" {
		at = "@filter(" + filter + ")"
	}
	window := max(topWindow, 2*n+1)
	block := fmt.Sprintf(`pgWin as var(func: uid(%[1]s), orderdesc: val(%[1]s), first: %[2]d) %[3]s
	win(func: uid(pgWin), orderdesc: val(%[1]s)) { uid pg.id rank: val(%[1]s) }
	pgTop as var(func: uid(pgWin), orderdesc: val(%[1]s), first: %[4]d)
	top(func: uid(pgTop), orderdesc: val(%[1]s)) { rank: val(%[1]s) %[5]s }`, v, window, at, n+1+min(n, topSlack), fields)
	var win struct{ Win []topKey }
	rows, err := topQuery(ctx, txn, strings.Replace(q, "TOP", block, 1), vars, scale, &win, out)
	if err != nil {
		return nil, err
	}
	keys := win.Win
	for i := range keys {
		keys[i].rank = rankOf(keys[i].Value, scale)
	}
	slices.SortFunc(keys, func(a, b topKey) int {
		return cmp.Or(cmp.Compare(b.rank, a.rank), strings.Compare(a.ID, b.ID))
	})
	if len(keys) <= n || keys[n].rank != keys[n-1].rank || len(keys) < window || keys[len(keys)-1].rank != keys[n-1].rank {
		return rowsOf(ctx, txn, keys[:min(n, len(keys))], rows, q, vars, v, scale, at, fields, refetch)
	}
	byRank(rows)
	t := keys[n-1].rank
	rows = slices.DeleteFunc(rows, func(r topRow) bool { return r.rank <= t })
	tv := maps.Clone(vars)
	var tie, decl string
	if scale == wholeRank {
		tie, decl = fmt.Sprintf("eq(val(%s), $t)", v), "$t: float, "
		tv["$t"] = strconv.FormatFloat(t, 'g', -1, 64)
	} else {
		lo, hi := rankBounds(t, scale)
		tie, decl = fmt.Sprintf("ge(val(%[1]s), $lo) AND le(val(%[1]s), $hi)", v), "$lo: float, $hi: float, "
		tv["$lo"], tv["$hi"] = strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(hi, 'g', -1, 64)
	}
	if filter != "" {
		tie += " AND (" + filter + ")"
	}
	block = fmt.Sprintf(`pgTop as var(func: uid(%[1]s), orderasc: pg.id, first: %[2]d) @filter(%[3]s)
	top(func: uid(pgTop), orderasc: pg.id) { rank: val(%[1]s) %[4]s }`, v, n-len(rows), tie, fields)
	tq := strings.Replace(strings.Replace(q, "TOP", block, 1), "query q(", "query q("+decl, 1)
	tied, err := topQuery(ctx, txn, tq, tv, scale, nil, nil)
	if err != nil {
		return nil, err
	}
	rows = append(rows, tied...)
	byRank(rows)
	return raws(rows[:min(n, len(rows))]), nil
}

// topKey is a row of cutTop's window.
type topKey struct {
	UID   string  `json:"uid"`
	ID    string  `json:"pg.id"`
	Value float64 `json:"rank"`
	rank  float64
}

// topWindow is how many nodes cutTop's window ranks by id and rank: ties
// at the cut that fit in it need no query of their own.
const topWindow = 1000

// rowsOf returns the rows of keys, in order, from rows (the fields
// block's) or, for the keys missing there, read by uid (see cutTop).
func rowsOf(ctx context.Context, txn *dgo.Txn, keys []topKey, rows []topRow, q string, vars map[string]string, v string, scale float64, at, fields, refetch string) ([]json.RawMessage, error) {
	have := make(map[string]json.RawMessage, len(rows))
	for _, r := range rows {
		have[r.id] = r.raw
	}
	var missing []string
	for _, k := range keys {
		if have[k.ID] == nil {
			missing = append(missing, k.UID)
		}
	}
	if len(missing) > 0 {
		uids := strings.Join(missing, ", ")
		var more []topRow
		var err error
		if refetch == "" {
			// The filter, which they pass, uses what q defines for it.
			block := fmt.Sprintf("top(func: uid(%s)) %s { rank: val(%s) %s }", uids, at, v, fields)
			more, err = topQuery(ctx, txn, strings.Replace(q, "TOP", block, 1), vars, scale, nil, nil)
		} else {
			block := fmt.Sprintf("top(func: uid(%s)) { %s }", uids, fields)
			more, err = topQuery(ctx, txn, strings.Replace(refetch, "TOP", block, 1), vars, scale, nil, nil)
		}
		if err != nil {
			return nil, err
		}
		value := make(map[string]float64, len(keys))
		for _, k := range keys {
			value[k.ID] = k.Value
		}
		for _, r := range more {
			if refetch != "" {
				// Read without the ranking: its rank is the window's.
				r.raw = append([]byte(`{"rank":`+strconv.FormatFloat(value[r.id], 'g', -1, 64)+","), r.raw[1:]...)
			}
			have[r.id] = r.raw
		}
	}
	out := make([]json.RawMessage, 0, len(keys))
	for _, k := range keys {
		raw := have[k.ID]
		if raw == nil {
			return nil, fmt.Errorf("dql response: no row for %s of the top", k.ID)
		}
		out = append(out, raw)
	}
	return out, nil
}

// topSlack bounds the rows past the (n+1)-th whose fields cutTop's first
// query reads, which a tie at the cut may reach into.
const topSlack = 20

// rankOf is the rank of value x at scale.
func rankOf(x, scale float64) float64 { return math.Floor(x*scale + 0.5) }

// rankBounds returns the least and the greatest float64 whose rank at
// scale is t: rankOf is monotonic, so the floats of one rank are one
// interval, found by bisecting the floats in their order.
func rankBounds(t, scale float64) (lo, hi float64) {
	// first returns the least float (in order) for which ok holds.
	first := func(ok func(float64) bool) float64 {
		a, b := orderedKey(math.Inf(-1)), orderedKey(math.Inf(1))
		for a < b {
			m := a + (b-a)/2
			if ok(fromOrderedKey(m)) {
				b = m
			} else {
				a = m + 1
			}
		}
		return fromOrderedKey(a)
	}
	lo = first(func(x float64) bool { return rankOf(x, scale) >= t })
	above := first(func(x float64) bool { return rankOf(x, scale) > t })
	return lo, math.Nextafter(above, math.Inf(-1))
}

// orderedKey maps a float64 (not NaN) to a uint64 of the same order.
func orderedKey(x float64) uint64 {
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func fromOrderedKey(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// topRow is a row of cutTop's block: its rank and id, to order it, and
// the whole object.
type topRow struct {
	rank float64
	id   string
	raw  json.RawMessage
}

// topQuery runs q in txn, decodes the response into each of outs that is
// not nil and returns the rows of its top block, ranked at scale.
func topQuery(ctx context.Context, txn *dgo.Txn, q string, vars map[string]string, scale float64, outs ...any) ([]topRow, error) {
	resp, err := txn.QueryWithVars(ctx, q, vars)
	if err != nil {
		return nil, fmt.Errorf("dql: %w", err)
	}
	for _, out := range outs {
		if out == nil {
			continue
		}
		if err := json.Unmarshal(resp.Json, out); err != nil {
			return nil, fmt.Errorf("dql response: %w", err)
		}
	}
	var r struct{ Top []json.RawMessage }
	if err := json.Unmarshal(resp.Json, &r); err != nil {
		return nil, fmt.Errorf("dql response: %w", err)
	}
	rows := make([]topRow, len(r.Top))
	for i, raw := range r.Top {
		var k struct {
			Rank float64 `json:"rank"`
			ID   string  `json:"pg.id"`
		}
		if err := json.Unmarshal(raw, &k); err != nil {
			return nil, fmt.Errorf("dql response: %w", err)
		}
		rows[i] = topRow{rank: rankOf(k.Rank, scale), id: k.ID, raw: raw}
	}
	return rows, nil
}

// byRank sorts rows highest rank first, then by id.
func byRank(rows []topRow) {
	slices.SortFunc(rows, func(a, b topRow) int {
		return cmp.Or(cmp.Compare(b.rank, a.rank), strings.Compare(a.id, b.id))
	})
}

func raws(rows []topRow) []json.RawMessage {
	out := make([]json.RawMessage, len(rows))
	for i, r := range rows {
		out[i] = r.raw
	}
	return out
}

// decodeNodes decodes rows (cutTop's) as nodes.
func decodeNodes(rows []json.RawMessage) ([]node, error) {
	out := make([]node, len(rows))
	for i, raw := range rows {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			return nil, fmt.Errorf("dql response: %w", err)
		}
	}
	return out, nil
}
