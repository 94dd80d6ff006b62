package dgraph

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dgraph-io/dgo/v250"

	"github.com/papergraph/papergraph/graph"
)

// Cursors are the id of the last node of a page ("p:ID"), or for entities
// by degree its degree and id ("d:DEGREE:ID"): keys of the DQL sort,
// resumed with a filter on them.
func paperCursor(id string) string { return "p:" + id }

func parsePaperCursor(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	id, ok := strings.CutPrefix(c, "p:")
	if !ok || !graph.IsPaperID(id) {
		return "", fmt.Errorf("%w: %q", graph.ErrBadCursor, c)
	}
	return id, nil
}

// paperPage turns the rows of a query asked for first+1 papers into a
// page.
func paperPage(rows []node, first, total int) (graph.PaperPage, error) {
	page := graph.PaperPage{Total: total}
	if len(rows) > first {
		rows, page.HasNext = rows[:first], true
	}
	for i := range rows {
		p, err := rows[i].paper()
		if err != nil {
			return graph.PaperPage{}, err
		}
		page.Papers = append(page.Papers, p)
		page.Cursors = append(page.Cursors, paperCursor(p.ID))
	}
	if n := len(page.Cursors); n > 0 {
		page.EndCursor = page.Cursors[n-1]
	}
	return page, nil
}

// ListPapers returns a page of papers matching q.Filter, in paper id
// order, after the cursor q.After, in two DQL queries of one snapshot
// whose filters are the indexes of pg.source, pg.text (anyoftext) and the
// reverse edges of the entities asked for: the counts, then the page
// (papersAfter for few matching papers, papersInRanges for many). Total
// is exact. Unlike the Badger store, a Text
// filter keeps paper id order rather than ranking by BM25, and a Source
// filter id order rather than record order.
func (s *Store) ListPapers(ctx context.Context, q graph.PaperQuery) (graph.PaperPage, error) {
	f := q.Filter
	first, err := graph.ListLimit("first", q.First)
	if err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	if err := f.Check(); err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	after, err := parsePaperCursor(q.After)
	if err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	vars := map[string]string{"$entity": f.Entity, "$source": f.Source, "$text": f.Text, "$after": after,
		"$first": strconv.Itoa(first + 1), "$kind": strconv.Itoa(int(f.Kind)), "$lo": "", "$hi": ""}
	var blocks, filters []string
	root := "eq(pg.kind, 0)"
	if f.Entity != "" {
		blocks = append(blocks, `ent(func: eq(pg.id, $entity)) { pg.id PE as ~pg.link }`)
		filters = append(filters, "uid(PE)")
		root = "uid(PE)"
	}
	if f.Kind != 0 {
		blocks = append(blocks, `var(func: eq(pg.kind, $kind)) { PK as ~pg.link }`)
		filters = append(filters, "uid(PK)")
	}
	if f.Source != "" {
		filters = append(filters, "eq(pg.source, $source)")
	}
	if f.Text != "" {
		filters = append(filters, "anyoftext(pg.text, $text)")
	}
	filter := ""
	if len(filters) > 0 {
		filter = "@filter(" + strings.Join(filters, " AND ") + ")"
	}
	decl := "query q($entity: string, $source: string, $text: string, $after: string, $first: int, $kind: int, $lo: string, $hi: string) {\n\t" +
		strings.Join(blocks, "\n\t") + "\n\t"
	txn := s.dg.NewReadOnlyTxn()
	defer txn.Discard(ctx)
	var c struct{ Ent, Total, All []node }
	count := decl + `total(func: ` + root + `) ` + filter + ` { count: count(uid) }
	all(func: eq(pg.kind, 0)) { count: count(uid) }
}`
	if err := queryTxn(ctx, txn, count, vars, &c); err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	if f.Entity != "" && len(c.Ent) == 0 {
		return graph.PaperPage{}, fmt.Errorf("list papers: entity %s: %w", f.Entity, graph.ErrNotFound)
	}
	total, all := 0, 0
	if len(c.Total) > 0 {
		total = c.Total[0].Count
	}
	if len(c.All) > 0 {
		all = c.All[0].Count
	}
	var rows []node
	if float64(total)*float64(total) > pageRangeCost*float64(first+1)*float64(all) {
		rows, err = papersInRanges(ctx, txn, decl, vars, filters, after, first, total)
	} else {
		rows, err = papersAfter(ctx, txn, decl, vars, root, filters, first)
	}
	if err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	return paperPage(rows, first, total)
}

// pageRangeCost weighs ListPapers' two ways to a page. Resuming after a
// cursor with gt(pg.id) costs Dgraph a value read per candidate paper
// (at 100k papers, 1-5 s a page of the whole graph); reading a range of
// the id index costs a posting list per paper in the range, about two
// and a half times more per paper (papersInRanges), but a range holds
// about two pages' worth. So for T papers matching of A stored, pages of
// F: ranges when T*T > pageRangeCost*F*A.
const pageRangeCost = 5

// papersAfter returns the first+1 papers of root passing filters after
// the cursor $after, in id order, filtering every candidate: the way for
// few candidates.
func papersAfter(ctx context.Context, txn *dgo.Txn, decl string, vars map[string]string, root string, filters []string, first int) ([]node, error) {
	pageFilter := "@filter(" + strings.Join(append([]string{"gt(pg.id, $after)"}, filters...), " AND ") + ")"
	var r struct{ Q []node }
	q := decl + `q(func: ` + root + `, orderasc: pg.id, first: $first) ` + pageFilter + ` { pg.id pg.record }
}`
	if err := queryTxn(ctx, txn, q, vars, &r); err != nil {
		return nil, err
	}
	return r.Q, nil
}

// papersInRanges returns the first+1 papers passing filters after the
// cursor after, in id order, reading ranges of the id index (between)
// from after: paper ids are hashes, spread evenly, so a range of
// 2*(first+1)/total of the id space holds about two pages of the total
// matching papers; a range holding fewer than first+1 is widened,
// fourfold, until it does or reaches the last id.
func papersInRanges(ctx context.Context, txn *dgo.Txn, decl string, vars map[string]string, filters []string, after string, first, total int) ([]node, error) {
	var lo uint64
	if after != "" {
		var err error
		if lo, err = strconv.ParseUint(after, 16, 64); err != nil {
			return nil, fmt.Errorf("%w: %q", graph.ErrBadCursor, after)
		}
		filters = append(filters, "NOT eq(pg.id, $after)")
	}
	cond := strings.Join(append([]string{"eq(pg.kind, 0)"}, filters...), " AND ")
	q := decl + `C as var(func: between(pg.id, $lo, $hi)) @filter(` + cond + `)
	n(func: uid(C)) { count: count(uid) }
	q(func: uid(C), orderasc: pg.id, first: $first) { pg.id pg.record }
}`
	width := math.MaxUint64 / float64(max(total, 1)) * 2 * float64(first+1)
	for {
		hi := uint64(math.MaxUint64)
		if w := float64(lo) + width; w < math.MaxUint64 {
			hi = uint64(w)
		}
		vars["$lo"], vars["$hi"] = fmt.Sprintf("%016x", lo), fmt.Sprintf("%016x", hi)
		var r struct{ N, Q []node }
		if err := queryTxn(ctx, txn, q, vars, &r); err != nil {
			return nil, err
		}
		if len(r.Q) > first || hi == math.MaxUint64 {
			return r.Q, nil
		}
		width *= 4
	}
}

// PapersOf returns a page of the papers linked to q.Entity in paper id
// order after q.After; Total is the entity's degree.
func (s *Store) PapersOf(ctx context.Context, q graph.PageOf) (graph.PaperPage, error) {
	return s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Entity: q.Entity}, First: q.First, After: q.After})
}

// PapersOfEach is PapersOf for each of reqs, with one error each; err is
// for a failure of them all.
func (s *Store) PapersOfEach(ctx context.Context, reqs []graph.PageOf) ([]graph.PaperPage, []error, error) {
	pages := make([]graph.PaperPage, len(reqs))
	errs := make([]error, len(reqs))
	for i, q := range reqs {
		pages[i], errs[i] = s.PapersOf(ctx, q)
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	return pages, errs, nil
}

// ListEntities returns a page of entities of q.Kind (0 for all) after
// q.After: ByDegree the entities linked to a paper, most papers first,
// then by id; ByName all of them by id. q.Search keeps those with a name
// or alias whose slug starts with the slug of q.Search, a range of the
// exact index of pg.prefix. Total is exact.
func (s *Store) ListEntities(ctx context.Context, q graph.EntityQuery) (graph.EntityPage, error) {
	first, err := graph.ListLimit("first", q.First)
	if err != nil {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w", err)
	}
	if q.Order != graph.ByDegree && q.Order != graph.ByName {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w: order %d", graph.ErrBadArgument, q.Order)
	}
	if q.Kind != 0 && !q.Kind.Valid() {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w: %d", graph.ErrBadKind, uint8(q.Kind))
	}
	root := "eq(pg.kind, [1, 2, 3, 4])"
	if q.Kind != 0 {
		root = fmt.Sprintf("eq(pg.kind, %d)", q.Kind)
	}
	vars := map[string]string{"$first": strconv.Itoa(first + 1)}
	var filters []string
	if q.Search != "" {
		slug := graph.Slug(q.Search)
		vars["$lo"], vars["$hi"] = slug, slug+"\U0010FFFF"
		filters = append(filters, "ge(pg.prefix, $lo) AND lt(pg.prefix, $hi)")
	}
	var afterDeg int
	var afterID string
	if q.After != "" {
		rest, ok := strings.CutPrefix(q.After, "e:")
		if q.Order == graph.ByDegree {
			var d string
			d, afterID, ok = strings.Cut(rest, ":")
			afterDeg, err = strconv.Atoi(d)
			ok = ok && err == nil && strings.HasPrefix(q.After, "e:")
		} else {
			afterID = rest
		}
		if !ok {
			return graph.EntityPage{}, fmt.Errorf("list entities: %w: %q", graph.ErrBadCursor, q.After)
		}
	}
	vars["$after"], vars["$deg"] = afterID, strconv.Itoa(afterDeg)
	cond := strings.Join(filters, " AND ")
	var (
		dql string
		r   struct{ Total, Q []node }
		top []json.RawMessage
	)
	if q.Order == graph.ByName {
		page := "gt(pg.id, $after)"
		if cond != "" {
			page += " AND " + cond
			cond = "@filter(" + cond + ")"
		}
		dql = `query q($first: int, $lo: string, $hi: string, $after: string, $deg: int) {
	total(func: ` + root + `) ` + cond + ` { count: count(uid) }
	q(func: ` + root + `, orderasc: pg.id, first: $first) @filter(` + page + `) { ` + entityFields + ` }
}`
	} else {
		if cond != "" {
			cond = " AND " + cond
		}
		page := ""
		if q.After != "" {
			page = "lt(val(d), $deg) OR (eq(val(d), $deg) AND gt(pg.id, $after))"
		}
		dql = `query q($lo: string, $hi: string, $after: string, $deg: int) {
	var(func: ` + root + `) @filter(has(~pg.link)` + cond + `) { d as count(~pg.link) }
	total(func: uid(d)) { count: count(uid) }
	TOP
}`
		delete(vars, "$first")
		txn := s.dg.NewReadOnlyTxn()
		defer txn.Discard(ctx)
		top, err = cutTop(ctx, txn, dql, vars, "d", wholeRank, page, entityFields, first+1, &r, "")
	}
	if q.Order == graph.ByName {
		err = s.query(ctx, dql, vars, &r)
	}
	if err != nil {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w", err)
	}
	page := graph.EntityPage{}
	if len(r.Total) > 0 {
		page.Total = r.Total[0].Count
	}
	rows := r.Q
	if q.Order == graph.ByDegree {
		if rows, err = decodeNodes(top); err != nil {
			return graph.EntityPage{}, fmt.Errorf("list entities: %w", err)
		}
	}
	if len(rows) > first {
		rows, page.HasNext = rows[:first], true
	}
	for i := range rows {
		e := rows[i].entity()
		e.Narrower = nil
		page.Entities = append(page.Entities, e)
		c := "e:" + rows[i].ID
		if q.Order == graph.ByDegree {
			c = fmt.Sprintf("e:%d:%s", rows[i].Degree, rows[i].ID)
		}
		page.Cursors = append(page.Cursors, c)
	}
	if n := len(page.Cursors); n > 0 {
		page.EndCursor = page.Cursors[n-1]
	}
	return page, nil
}
