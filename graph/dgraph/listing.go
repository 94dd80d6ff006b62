package dgraph

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

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
// order, after the cursor q.After, in one DQL query whose filters are the
// indexes of pg.source, pg.text (anyoftext) and the reverse edges of the
// entities asked for. Total is exact. Unlike the Badger store, a Text
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
		"$first": strconv.Itoa(first + 1), "$kind": strconv.Itoa(int(f.Kind))}
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
	var pageFilter string
	if len(filters) > 0 {
		pageFilter = "@filter(gt(pg.id, $after) AND " + strings.Join(filters, " AND ") + ")"
	} else {
		pageFilter = "@filter(gt(pg.id, $after))"
	}
	dql := `query q($entity: string, $source: string, $text: string, $after: string, $first: int, $kind: int) {
	` + strings.Join(blocks, "\n\t") + `
	total(func: ` + root + `) ` + filter + ` { count: count(uid) }
	q(func: ` + root + `, orderasc: pg.id, first: $first) ` + pageFilter + ` { pg.id pg.record }
}`
	var r struct {
		Ent   []node
		Total []node
		Q     []node
	}
	if err := s.query(ctx, dql, vars, &r); err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	if f.Entity != "" && len(r.Ent) == 0 {
		return graph.PaperPage{}, fmt.Errorf("list papers: entity %s: %w", f.Entity, graph.ErrNotFound)
	}
	total := 0
	if len(r.Total) > 0 {
		total = r.Total[0].Count
	}
	return paperPage(r.Q, first, total)
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
		top, err = cutTop(ctx, txn, dql, vars, "d", page, entityFields, first+1, &r)
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
