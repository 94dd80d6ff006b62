package store

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Counting bounds of the listings.
const (
	// maxTotal bounds the counting of a Total that has no counter behind
	// it (a kind, a source, combined filters, a name search): counting
	// examines at most maxTotal papers or entities, so that a page costs
	// milliseconds however large the database.
	maxTotal = 10000
	// maxChecked is maxTotal for a count that checks a filter per paper
	// by point reads or seeks.
	maxChecked = 1000
	// coPapers bounds the papers CoOccurring reads of a hub entity, a seek
	// into the edges of each; see CoOccurrence.Estimated.
	coPapers = 500
)

// paperDriver is the scan a paper listing walks, in its order; the other
// filters are checked on each paper it yields.
type paperDriver struct {
	prefix []byte
	minLen int // of a valid cursor
	// paperID returns the paper of a key (or its value), "" to skip it.
	paperID func(key []byte, item *badger.Item) (string, error)
}

// ListPapers returns a page of at most q.First (see graph.DefaultLimit)
// papers matching q.Filter after the cursor q.After. Papers come in paper
// id order, in record order for a Source filter, and by BM25 score for a
// Text filter (see Search). It fails with ErrBadArgument for First out of
// range, ErrBadID or ErrNotFound for a bad Filter.Entity, ErrBadKind for
// a bad Filter.Kind and ErrBadCursor for a cursor of another listing.
func (s *Store) ListPapers(ctx context.Context, q graph.PaperQuery) (graph.PaperPage, error) {
	f, after := q.Filter, q.After
	first, err := graph.ListLimit("first", q.First)
	if err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	if err := f.Check(); err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	var page graph.PaperPage
	err = s.view(ctx, func(txn *badger.Txn) error {
		if f.Entity != "" {
			if ok, err := has(txn, entityKey(f.Entity)); err != nil || !ok {
				if err == nil {
					err = fmt.Errorf("entity %s: %w", f.Entity, graph.ErrNotFound)
				}
				return err
			}
		}
		var err error
		if f.Text != "" {
			page, err = listText(ctx, txn, s.cache, f, first, after)
		} else {
			page, err = listPapers(ctx, txn, s.cache, f, first, after)
		}
		return err
	})
	if err != nil {
		return graph.PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	return page, nil
}

// PapersOf returns a page of at most q.First (see graph.DefaultLimit)
// papers linked to the entity q.Entity, in paper id order, after the
// cursor q.After; Total is the entity's degree. Errors are those of
// ListPapers.
func (s *Store) PapersOf(ctx context.Context, q graph.PageOf) (graph.PaperPage, error) {
	var page graph.PaperPage
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		page, err = papersOf(ctx, txn, s.cache, q)
		return err
	})
	return page, err
}

// listPapers serves ListPapers without a text filter: it picks the
// narrowest scan among the filters and checks the others per paper.
func listPapers(ctx context.Context, txn *badger.Txn, c *readCache, f graph.PaperFilter, first int, after string) (graph.PaperPage, error) {
	var d paperDriver
	byEntity, byKind, bySource := f.Entity != "", f.Kind != 0, f.Source != ""
	switch {
	case byEntity:
		d.prefix = entityEdgePrefix(f.Entity)
		d.minLen = len(d.prefix) + graph.PaperIDLen
		byEntity = false
	case bySource:
		d.prefix = sourcePrefix(f.Source)
		d.minLen = len(d.prefix) + 4
		d.paperID = func(_ []byte, item *badger.Item) (string, error) {
			v, err := item.ValueCopy(nil)
			return string(v), err
		}
		bySource = false
	case byKind:
		// A paper's edges (0x03) are one value and an entity id starts
		// with its kind.
		d.prefix = allKeys(prefixPaperEdge)
		d.minLen = 1 + graph.PaperIDLen
		hasKind := edgesHaveKind(f.Kind)
		d.paperID = func(k []byte, item *badger.Item) (string, error) {
			found := false
			err := item.Value(func(v []byte) error {
				found = hasKind(v)
				return nil
			})
			if err != nil || !found {
				return "", err
			}
			return parseIDKey(k), nil
		}
		byKind = false
	default:
		d.prefix = allKeys(prefixPaper)
		d.minLen = 1 + graph.PaperIDLen
	}
	if d.paperID == nil {
		d.paperID = func(k []byte, _ *badger.Item) (string, error) { return string(keyPaperID(k)), nil }
	}
	start, err := decodeCursor(after, d.prefix, d.minLen)
	if err != nil {
		return graph.PaperPage{}, err
	}
	// A paper's kinds and source are checked on its record, which a match
	// needs anyway: a point read where a scan of its edges would cost a
	// seek.
	match := func(pid string) (*graph.Paper, bool, error) {
		if byEntity {
			if ok, err := hasEdge(txn, c, pid, f.Entity); err != nil || !ok {
				return nil, false, err
			}
		}
		if !byKind && !bySource {
			return nil, true, nil
		}
		p, err := readPaperRecord(txn, c, pid)
		if err != nil {
			return nil, false, err
		}
		return &p, (!bySource || p.Source == f.Source) && (!byKind || hasKind(&p, f.Kind)), nil
	}
	filtered := byEntity || byKind || bySource

	var page graph.PaperPage
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	var scanErr error
	sc.scan(d.prefix, start, func(k []byte, item *badger.Item) bool {
		if start != nil && bytes.Equal(k, start) {
			return true
		}
		pid, err := d.paperID(k, item)
		if err != nil {
			scanErr = err
			return false
		}
		if pid == "" {
			return true
		}
		p, ok, err := match(pid)
		if err != nil {
			scanErr = err
			return false
		}
		if !ok {
			return true
		}
		if len(page.Papers) == first {
			page.HasNext = true
			return false
		}
		if p == nil {
			rec, err := readPaperRecord(txn, c, pid)
			if err != nil {
				scanErr = err
				return false
			}
			p = &rec
		}
		page.Papers = append(page.Papers, *p)
		page.Cursors = append(page.Cursors, encodeCursor(k))
		return true
	})
	if scanErr != nil {
		return graph.PaperPage{}, scanErr
	}
	if n := len(page.Cursors); n > 0 {
		page.EndCursor = page.Cursors[n-1]
	}
	if err := ctx.Err(); err != nil {
		return graph.PaperPage{}, err
	}

	// Total.
	switch {
	case filtered || f.Kind != 0 || f.Source != "":
		bound := maxTotal
		if filtered {
			bound = maxChecked
		}
		n, err := countPapers(ctx, txn, d, match, bound)
		if err != nil {
			return graph.PaperPage{}, err
		}
		page.Total = n
	case f.Entity != "":
		n, err := getUint64(txn, degreeKey(f.Entity))
		page.Total = int(n)
		if err != nil {
			return graph.PaperPage{}, err
		}
	default:
		n, err := getUint64(txn, counterKey(counterPapers))
		page.Total = int(n)
		if err != nil {
			return graph.PaperPage{}, err
		}
	}
	return page, nil
}

// hasKind reports whether p links to an entity of kind k.
func hasKind(p *graph.Paper, k graph.Kind) bool {
	return slices.ContainsFunc(p.Entities, func(e graph.Entity) bool { return e.Kind == k })
}

// countPapers counts the papers that match among the first bound the
// driver yields.
func countPapers(ctx context.Context, txn *badger.Txn, d paperDriver, match func(string) (*graph.Paper, bool, error), bound int) (int, error) {
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	n, seen := 0, 0
	var err error
	sc.scan(d.prefix, nil, func(k []byte, item *badger.Item) bool {
		var pid string
		if pid, err = d.paperID(k, item); err != nil {
			return false
		}
		if pid == "" {
			return true
		}
		seen++
		var ok bool
		if _, ok, err = match(pid); err != nil {
			return false
		}
		if ok {
			n++
		}
		return seen < bound && ctx.Err() == nil
	})
	if err == nil {
		err = ctx.Err()
	}
	return n, err
}

// entityRef is an entity in a listing before its record is read.
type entityRef struct {
	id     string
	degree uint64
}

// sortKey returns the key the listing's cursor holds for r: its top key
// (0x06) by degree, its record key (0x02) by name.
func (r entityRef) sortKey(order graph.EntityOrder) []byte {
	if order == graph.ByName {
		return entityKey(r.id)
	}
	return topKey(entityKind(r.id), r.degree, r.id)
}

// compareEntities returns the order the listing uses: by id, or by falling
// degree then id (the top keys' order within a kind, merged across kinds).
func compareEntities(order graph.EntityOrder) func(a, b entityRef) int {
	if order == graph.ByName {
		return func(a, b entityRef) int { return strings.Compare(a.id, b.id) }
	}
	return func(a, b entityRef) int {
		return cmp.Or(cmp.Compare(b.degree, a.degree), strings.Compare(a.id, b.id))
	}
}

// ListEntities returns a page of at most q.First (see graph.DefaultLimit)
// entities of kind q.Kind (0 for all kinds) after the cursor q.After. With
// q.Search, only the entities with a name or alias starting with it
// (case-insensitive; punctuation counts, or is ignored when the whole
// prefix is taken as a slug) are listed. ByDegree lists the entities linked to at least one paper, most
// papers first; ByName lists all, taxonomy ancestors without papers too.
// Entities have PaperCount filled, not Narrower. It fails with
// ErrBadArgument for first out of range or an unknown order, ErrBadKind
// for an invalid k and ErrBadCursor for a cursor of another listing.
func (s *Store) ListEntities(ctx context.Context, q graph.EntityQuery) (graph.EntityPage, error) {
	k, search, order, after := q.Kind, q.Search, q.Order, q.After
	first, err := graph.ListLimit("first", q.First)
	if err != nil {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w", err)
	}
	if order != graph.ByDegree && order != graph.ByName {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w: order %d", graph.ErrBadArgument, order)
	}
	if k != 0 && !k.Valid() {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w: %d", graph.ErrBadKind, uint8(k))
	}
	var page graph.EntityPage
	err = s.view(ctx, func(txn *badger.Txn) error {
		var refs []entityRef
		var err error
		switch {
		case search != "":
			refs, page.Total, err = searchEntities(ctx, txn, k, search, order, first+1, after)
		case order == graph.ByDegree:
			refs, err = topEntities(txn, k, first+1, after)
			if err == nil {
				page.Total, err = countTop(txn, k)
			}
		default:
			refs, err = entitiesByName(txn, k, first+1, after)
			if err == nil {
				page.Total, err = countEntities(txn, k)
			}
		}
		if err != nil {
			return err
		}
		if len(refs) > first {
			refs, page.HasNext = refs[:first], true
		}
		for _, r := range refs {
			e, err := s.cache.entityCopy(txn, r.id)
			if err != nil {
				return err
			}
			page.Entities = append(page.Entities, e)
			page.Cursors = append(page.Cursors, encodeCursor(r.sortKey(order)))
		}
		if n := len(page.Cursors); n > 0 {
			page.EndCursor = page.Cursors[n-1]
		}
		return nil
	})
	if err != nil {
		return graph.EntityPage{}, fmt.Errorf("list entities: %w", err)
	}
	return page, nil
}

// topEntities returns at most n entities of kind k (0: all kinds, merged)
// by falling degree then id, after the cursor (a top key, 0x06).
func topEntities(txn *badger.Txn, k graph.Kind, n int, after string) ([]entityRef, error) {
	prefix := allKeys(prefixTop)
	if k != 0 {
		prefix = topPrefix(k)
	}
	c, err := decodeCursor(after, prefix, 11)
	if err != nil {
		return nil, err
	}
	var from entityRef
	if c != nil {
		var ck graph.Kind
		if ck, from.degree, from.id, err = parseTopKey(c); err != nil || entityKind(from.id) != ck {
			return nil, fmt.Errorf("%w: %q", graph.ErrBadCursor, after)
		}
	}
	kinds := graph.Kinds
	if k != 0 {
		kinds = []graph.Kind{k}
	}
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	var out []entityRef
	for _, kk := range kinds {
		// Within a kind the keys are ordered as the merged listing is, so
		// seeking to the cursor's (degree, id) in each kind resumes all.
		var start []byte
		if c != nil {
			start = topKey(kk, from.degree, from.id)
		}
		got := 0
		sc.scan(topPrefix(kk), start, func(key []byte, _ *badger.Item) bool {
			if start != nil && bytes.Equal(key, start) {
				return true
			}
			_, d, id, err := parseTopKey(key)
			if err != nil {
				return true
			}
			out = append(out, entityRef{id, d})
			got++
			return got < n
		})
	}
	slices.SortFunc(out, compareEntities(graph.ByDegree))
	return out[:min(n, len(out))], nil
}

// countTop counts the entities of kind k (0: all) with papers.
func countTop(txn *badger.Txn, k graph.Kind) (int, error) {
	prefix := allKeys(prefixTop)
	if k != 0 {
		prefix = topPrefix(k)
	}
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	n := 0
	sc.scan(prefix, nil, func([]byte, *badger.Item) bool { n++; return true })
	return n, nil
}

// entitiesByName returns at most n entities of kind k (0: all) in id
// order after the cursor (an entity key, 0x02).
func entitiesByName(txn *badger.Txn, k graph.Kind, n int, after string) ([]entityRef, error) {
	prefix := allKeys(prefixEntity)
	if k != 0 {
		prefix = entityKey(k.String() + ":")
	}
	start, err := decodeCursor(after, prefix, len(prefix)+1)
	if err != nil {
		return nil, err
	}
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	var out []entityRef
	sc.scan(prefix, start, func(key []byte, _ *badger.Item) bool {
		if start != nil && bytes.Equal(key, start) {
			return true
		}
		out = append(out, entityRef{id: parseIDKey(key)})
		return len(out) < n
	})
	return out, nil
}

// countEntities returns the number of entities of kind k (0: all) from
// the per-kind counters.
func countEntities(txn *badger.Txn, k graph.Kind) (int, error) {
	kinds := graph.Kinds
	if k != 0 {
		kinds = []graph.Kind{k}
	}
	total := 0
	for _, kk := range kinds {
		n, err := getUint64(txn, counterKey(entitiesCounter(kk)))
		if err != nil {
			return 0, err
		}
		total += int(n)
	}
	return total, nil
}

// PapersOfEach returns the pages that PapersOf would return for reqs, in
// the same order, read in one transaction; errs[i] is request i's error
// (those of PapersOf). err is set only when the transaction itself fails.
// It serves dataloaders.
func (s *Store) PapersOfEach(ctx context.Context, reqs []graph.PageOf) (pages []graph.PaperPage, errs []error, err error) {
	pages, errs = make([]graph.PaperPage, len(reqs)), make([]error, len(reqs))
	err = s.view(ctx, func(txn *badger.Txn) error {
		for i, r := range reqs {
			if err := ctx.Err(); err != nil {
				return err
			}
			pages[i], errs[i] = papersOf(ctx, txn, s.cache, r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("papers of each: %w", err)
	}
	return pages, errs, nil
}

// papersOf serves PapersOf and each request of PapersOfEach, checking it
// as ListPapers does.
func papersOf(ctx context.Context, txn *badger.Txn, c *readCache, r graph.PageOf) (graph.PaperPage, error) {
	first, err := graph.ListLimit("first", r.First)
	if err != nil {
		return graph.PaperPage{}, fmt.Errorf("papers of %s: %w", r.Entity, err)
	}
	r.First = first
	if _, _, err := graph.ParseEntityID(r.Entity); err != nil {
		return graph.PaperPage{}, fmt.Errorf("papers of: %w", err)
	}
	if ok, err := has(txn, entityKey(r.Entity)); err != nil || !ok {
		if err == nil {
			err = graph.ErrNotFound
		}
		return graph.PaperPage{}, fmt.Errorf("papers of %s: %w", r.Entity, err)
	}
	page, err := listPapers(ctx, txn, c, graph.PaperFilter{Entity: r.Entity}, r.First, r.After)
	if err != nil {
		return graph.PaperPage{}, fmt.Errorf("papers of %s: %w", r.Entity, err)
	}
	return page, nil
}
