package dgraph

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dgraph-io/dgo/v250"
)

// cutTop runs q in txn, a DQL query whose text holds TOP where the block
// that cuts the best n nodes goes, decodes its other blocks into out, and
// returns those nodes: the best n nodes of the value variable v, highest
// first, then by pg.id, among those passing filter (a DQL filter
// expression, or ""), each the JSON object of fields (which must hold
// pg.id) and rank: val(v). v must hold whole numbers (counts, or rounded
// scores) for ties to be exact.
//
// DQL sorts by one value variable only ("Val() is not allowed in multiple
// sorting"), and math and aggregation in a root block range over every
// node their variables hold, not over the block's nodes (a var block's
// filter or first restricts nothing), so the value at the cut cannot be
// computed and used within one query. The cut is made from at most two
// queries of one transaction instead: the first takes the best n+1 by v;
// only when the n-th and the (n+1)-th tie was Dgraph's choice among the
// tied its own, and a second query takes the first n by pg.id of those
// valued as the n-th. The rows move to the client; the ranking stays in
// Dgraph.
func cutTop(ctx context.Context, txn *dgo.Txn, q string, vars map[string]string, v, filter, fields string, n int, out any) ([]json.RawMessage, error) {
	at := ""
	if filter != "" {
		at = "@filter(" + filter + ")"
	}
	block := fmt.Sprintf("top(func: uid(%[1]s), orderdesc: val(%[1]s), first: %[2]d) %[3]s { rank: val(%[1]s) %[4]s }", v, n+1, at, fields)
	first, err := topQuery(ctx, txn, strings.Replace(q, "TOP", block, 1), vars, out)
	if err != nil {
		return nil, err
	}
	byRank(first)
	if len(first) <= n || first[n].rank != first[n-1].rank {
		return raws(first[:min(n, len(first))]), nil
	}
	t := first[n-1].rank
	and := ""
	if filter != "" {
		and = " AND (" + filter + ")"
	}
	block = fmt.Sprintf("top(func: uid(%[1]s), orderasc: pg.id, first: %[2]d) @filter(eq(val(%[1]s), $t)%[3]s) { rank: val(%[1]s) %[4]s }", v, n, and, fields)
	tv := map[string]string{"$t": strconv.FormatFloat(t, 'g', -1, 64)}
	for k, x := range vars {
		tv[k] = x
	}
	tie, err := topQuery(ctx, txn, strings.Replace(strings.Replace(q, "TOP", block, 1), "query q(", "query q($t: float, ", 1), tv, nil)
	if err != nil {
		return nil, err
	}
	rows := slices.DeleteFunc(first, func(r topRow) bool { return r.rank <= t })
	rows = append(rows, tie...)
	byRank(rows)
	return raws(rows[:min(n, len(rows))]), nil
}

// topRow is a row of cutTop's block: its rank and id, to order it, and
// the whole object.
type topRow struct {
	rank float64
	id   string
	raw  json.RawMessage
}

// topQuery runs q in txn, decodes the response into out (unless nil) and
// returns the rows of its top block.
func topQuery(ctx context.Context, txn *dgo.Txn, q string, vars map[string]string, out any) ([]topRow, error) {
	resp, err := txn.QueryWithVars(ctx, q, vars)
	if err != nil {
		return nil, fmt.Errorf("dql: %w", err)
	}
	if out != nil {
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
		rows[i] = topRow{rank: k.Rank, id: k.ID, raw: raw}
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
