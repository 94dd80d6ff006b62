package store

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// BM25 parameters: the usual defaults (Robertson and Zaragoza; Lucene).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Bounds of full-text ranking. The postings (0x0A) of a term in up to
// textFullTerm papers are read in full, up to textBudget postings per
// query, rarest terms first. A more common term is not scanned: its
// weight is small (idf falls with document frequency) and a scan would
// cost a key per paper containing it, a third of the corpus for words such
// as "model". If every term is common, the first textWindow postings of
// the rarest one are the candidates: those of its oldest postings blocks.
//
// Candidates are then scored best-first by an upper bound of their score
// (BM25 without the document length, common terms at their maximum); each
// exact score costs point reads of the document length (0x0E) and of the
// common terms' postings, a few microseconds each, so at most textChecks
// candidates (or twice the results asked for) are scored. What the bounds cost: a paper with only common
// terms of the query is found only in the window; when more than
// textChecks candidates tie on the bound (one rare term, once in each),
// the first by id are scored rather than the shortest documents.
const (
	textFullTerm = 5000
	textBudget   = 20000
	textWindow   = 1000
	textChecks   = 256
	// maxTextRank bounds how deep a ranked listing pages.
	maxTextRank = 1000
)

// textTerm is a query term with its statistics.
type textTerm struct {
	term string
	idf  float64
	full bool // every posting read
}

// textCand is a candidate paper of a text query: the frequency of each
// query term in it, known for the fully read terms and the window.
type textCand struct {
	id    paperKeyID
	tf    []uint32
	known uint64 // bit i: tf[i] is known (else it is to be read)
	ub    float64
}

// textScored is a ranked paper of a text query.
type textScored struct {
	id    paperKeyID
	score float64
}

// tfWeight is BM25's saturating term-frequency factor; norm is
// 1-b+b*dl/avgdl.
func tfWeight(tf uint32, norm float64) float64 {
	f := float64(tf)
	return f * (bm25K1 + 1) / (f + bm25K1*norm)
}

// rankText returns the papers that best match query by BM25 over their
// name, label, title and abstract, best first then by id, at most n, for
// which keep (if not nil) is true; and an estimate of how many papers
// match: exact when every term was read in full, at most maxTotal, and
// counted among the first maxChecked candidates when keep filters them.
func rankText(ctx context.Context, txn *badger.Txn, query string, n int, keep func(pid string) (bool, error)) ([]textScored, int, error) {
	var ts []textTerm
	seen := make(map[string]bool)
	papers, err := getUint64(txn, counterKey(counterPapers))
	if err != nil || papers == 0 {
		return nil, 0, err
	}
	docLen, err := getUint64(txn, counterKey(counterDocLen))
	if err != nil {
		return nil, 0, err
	}
	avgdl := max(float64(docLen)/float64(papers), 1)
	var dfs []uint64
	for _, t := range terms(query) {
		if seen[t] || len(ts) == 64 {
			continue
		}
		seen[t] = true
		df, err := getUint64(txn, docFreqKey(t))
		if err != nil {
			return nil, 0, err
		}
		if df == 0 {
			continue
		}
		// Lucene's idf: always positive, unlike Robertson's original for
		// terms in more than half the papers.
		idf := math.Log(1 + (float64(papers)-float64(df)+0.5)/(float64(df)+0.5))
		ts = append(ts, textTerm{term: t, idf: idf})
		dfs = append(dfs, df)
	}
	if len(ts) == 0 {
		return nil, 0, nil
	}
	idx := make([]int, len(ts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(dfs[a], dfs[b]), strings.Compare(ts[a].term, ts[b].term))
	})
	sorted := make([]textTerm, len(ts))
	sortedDF := make([]uint64, len(ts))
	for i, j := range idx {
		sorted[i], sortedDF[i] = ts[j], dfs[j]
	}
	ts, dfs = sorted, sortedDF
	budget := uint64(textBudget)
	for i := range ts {
		if dfs[i] > textFullTerm || dfs[i] > budget {
			break
		}
		ts[i].full = true
		budget -= dfs[i]
	}

	cands := make(map[paperKeyID]*textCand)
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	read := func(i, maxN int) error {
		got := 0
		var err error
		sc.scan(postingPrefix(ts[i].term), nil, func(k []byte, item *badger.Item) bool {
			err = item.Value(func(v []byte) error {
				return decodePostings(v, func(p posting) bool {
					c := cands[p.id]
					if c == nil {
						c = &textCand{id: p.id, tf: make([]uint32, len(ts))}
						cands[p.id] = c
					}
					c.tf[i] = p.tf
					got++
					return got != maxN
				})
			})
			if err != nil {
				err = fmt.Errorf("term %q: %w", ts[i].term, err)
			}
			return err == nil && got != maxN
		})
		return err
	}
	var fullMask uint64
	for i := range ts {
		if ts[i].full {
			if err := read(i, -1); err != nil {
				return nil, 0, err
			}
			fullMask |= 1 << i
		}
	}
	if fullMask == 0 {
		if err := read(0, textWindow); err != nil {
			return nil, 0, err
		}
		fullMask = 1 // the window's frequencies are known for its papers
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	// With the document length unknown, a term's weight is at most its
	// weight in an empty document (norm = 1-b).
	list := make([]*textCand, 0, len(cands))
	for _, c := range cands {
		c.known = fullMask
		for i := range ts {
			switch {
			case c.known&(1<<i) == 0:
				c.ub += ts[i].idf * (bm25K1 + 1)
			case c.tf[i] > 0:
				c.ub += ts[i].idf * tfWeight(c.tf[i], 1-bm25B)
			}
		}
		list = append(list, c)
	}
	slices.SortFunc(list, func(a, b *textCand) int {
		return cmp.Or(cmp.Compare(b.ub, a.ub), bytes.Compare(a.id[:], b.id[:]))
	})

	var best []textScored
	matched := len(list)
	// A deep page of a ranked listing needs more candidates scored.
	checks := max(textChecks, 2*n)
	for i, c := range list {
		if i == checks {
			break
		}
		if len(best) == n {
			kth := best[n-1]
			// The bound may exceed the score by rounding in a different
			// order; a margin keeps the cut-off safe.
			if c.ub*(1+1e-9) < kth.score {
				break
			}
		}
		pid := string(c.id[:])
		if keep != nil {
			ok, err := keep(pid)
			if err != nil {
				return nil, 0, err
			}
			if !ok {
				continue
			}
		}
		dl, err := readText(txn, pid, ts, c)
		if err != nil {
			return nil, 0, err
		}
		norm := 1 - bm25B + bm25B*float64(dl)/avgdl
		score := 0.0
		for j := range ts {
			tf := c.tf[j]
			if tf > 0 {
				score += ts[j].idf * tfWeight(tf, norm)
			}
		}
		r := textScored{c.id, score}
		at, _ := slices.BinarySearchFunc(best, r, func(a, b textScored) int {
			return cmp.Or(cmp.Compare(b.score, a.score), bytes.Compare(a.id[:], b.id[:]))
		})
		if at < n {
			best = slices.Insert(best, at, r)
			best = best[:min(len(best), n)]
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	if keep != nil {
		matched = 0
		for i, c := range list {
			if i == maxChecked {
				break
			}
			ok, err := keep(string(c.id[:]))
			if err != nil {
				return nil, 0, err
			}
			if ok {
				matched++
			}
		}
	} else if !ts[len(ts)-1].full {
		// Papers with only unread terms are not candidates; each term's
		// document frequency is a lower bound of the union.
		matched = max(matched, int(dfs[len(dfs)-1]))
	}
	return best, min(matched, maxTotal), nil
}

// readText reads the text record (0x0E) of paper id: it returns the
// document length and fills in c the frequencies of the terms ts not
// known yet. An absent record is an empty text.
func readText(txn *badger.Txn, id string, ts []textTerm, c *textCand) (uint64, error) {
	item, err := txn.Get(textKey(id))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var length uint64
	err = item.Value(func(v []byte) error {
		_, length, err = scanTextRecord(v, func(t []byte, tf uint32) {
			for j := range ts {
				if c.known&(1<<j) == 0 && ts[j].term == string(t) {
					c.tf[j] = tf
				}
			}
		})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("paper %s: %w", id, err)
	}
	return length, nil
}

// listText serves ListPapers with a text filter: papers by BM25 score, the
// cursor being a rank offset. The other filters are checked on the
// candidates.
func listText(ctx context.Context, txn *badger.Txn, c *readCache, f graph.PaperFilter, first int, after string) (graph.PaperPage, error) {
	// The cursor is bound to the whole filter: an offset means nothing in
	// another ranking.
	filterKey := fmt.Sprintf("%q %q %d %q", f.Text, f.Entity, f.Kind, f.Source)
	offset, err := decodeRankCursor(after, filterKey)
	if err != nil {
		return graph.PaperPage{}, err
	}
	var page graph.PaperPage
	if offset >= maxTextRank {
		return page, nil
	}
	var keep func(string) (bool, error)
	if f.Entity != "" || f.Kind != 0 || f.Source != "" {
		keep = func(pid string) (bool, error) {
			if f.Entity != "" {
				if ok, err := hasEdge(txn, c, pid, f.Entity); err != nil || !ok {
					return false, err
				}
			}
			if f.Kind == 0 && f.Source == "" {
				return true, nil
			}
			p, err := readPaperRecord(txn, c, pid)
			if err != nil {
				return false, err
			}
			return (f.Source == "" || p.Source == f.Source) && (f.Kind == 0 || hasKind(&p, f.Kind)), nil
		}
	}
	n := min(offset+first+1, maxTextRank)
	best, total, err := rankText(ctx, txn, f.Text, n, keep)
	if err != nil {
		return graph.PaperPage{}, err
	}
	page.Total = total
	if offset >= len(best) {
		return page, nil
	}
	end := min(offset+first, len(best))
	page.HasNext = len(best) > end
	for i, r := range best[offset:end] {
		p, err := readPaperRecord(txn, c, string(r.id[:]))
		if err != nil {
			return graph.PaperPage{}, err
		}
		page.Papers = append(page.Papers, p)
		page.Cursors = append(page.Cursors, rankCursor(filterKey, offset+i+1))
	}
	page.EndCursor = page.Cursors[len(page.Cursors)-1]
	return page, nil
}

// entityScore is the score of an entity hit in Search: see its blend.
func entityScore(top, cover float64, word bool) float64 {
	if word {
		return (1 + top) * (1 + cover)
	}
	return (1 + top) * cover
}

// wordPrefix reports whether the search form (a prefix of the name norm)
// ends where a word of norm ends: at its end, or before a space or hyphen.
func wordPrefix(norm, form string) bool {
	return len(form) == len(norm) || (len(form) < len(norm) && (norm[len(form)] == ' ' || norm[len(form)] == '-'))
}

// searchEntityCandidates bounds the entities a search reads from the name
// index: a one-letter query matches hundreds.
const searchEntityCandidates = 200

// Search returns at most limit (see graph.DefaultLimit) papers and
// entities for query, best first, then by id. Papers are ranked by BM25
// (k1 = 1.2, b = 0.75) over their name, label, title and abstract (see
// textFullTerm for what is skipped). Entities whose name or alias starts
// with the query (case-insensitive) are blended in by how much of the name
// the query covers, cover = len(query)/len(name), with top the best paper
// score:
//
//   - the query is the name, or its first words ("diffusion" for
//     "diffusion model"): score = (1 + top) * (1 + cover), above every
//     paper, as a reader typing a concept's name means the concept;
//   - the query ends inside a word ("diffus"): score = (1 + top) * cover,
//     among the papers by coverage.
//
// Papers carry their stored record, entities their PaperCount. An empty
// query (or one made only of stop words, for papers) finds nothing.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]graph.Hit, error) {
	limit, err := graph.ListLimit("limit", limit)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	var hits []graph.Hit
	err = s.view(ctx, func(txn *badger.Txn) error {
		var err error
		hits, err = s.search(ctx, txn, query, limit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	return hits, nil
}

// search serves Search in txn, limit checked.
func (s *Store) search(ctx context.Context, txn *badger.Txn, query string, limit int) ([]graph.Hit, error) {
	var hits []graph.Hit
	papers, _, err := rankText(ctx, txn, query, limit, nil)
	if err != nil {
		return nil, err
	}
	sc := newKeyScanner(txn, nil)
	ids, cover, word := prefixMatches(ctx, sc, 0, query, searchEntityCandidates)
	sc.close()
	top := 0.0
	if len(papers) > 0 {
		top = papers[0].score
	}
	type hit struct {
		id     string
		score  float64
		degree uint64
	}
	all := make([]hit, 0, len(papers)+len(ids))
	for _, p := range papers {
		all = append(all, hit{id: string(p.id[:]), score: p.score})
	}
	for _, id := range ids {
		d, err := getUint64(txn, degreeKey(id))
		if err != nil {
			return nil, err
		}
		all = append(all, hit{id: id, score: entityScore(top, cover[id], word[id]), degree: d})
	}
	// Among equal scores (entities covering the same share of their
	// names) the one with more papers is the likelier meaning.
	slices.SortFunc(all, func(a, b hit) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.degree, a.degree), strings.Compare(a.id, b.id))
	})
	for _, h := range all[:min(limit, len(all))] {
		n, err := readNode(txn, s.cache, h.id)
		if err != nil {
			return nil, err
		}
		hits = append(hits, graph.Hit{Node: n, Score: h.score})
	}
	return hits, ctx.Err()
}

// nameForms returns the key prefixes under which a name prefix is looked
// up: in the name index (0x07) normalised and as a slug, since the index
// holds both, and in the stemmed name index (0x10) stemmed, so that
// "agents" finds "agent" and "benchmarking" "benchmark".
func nameForms(s string) [][]byte {
	norm, slug := graph.NormName(s), graph.Slug(s)
	if norm == "" {
		return nil
	}
	forms := [][]byte{namePrefix(norm)}
	if slug != "" && slug != norm {
		forms = append(forms, namePrefix(slug))
	}
	var st stemmer
	if stem := stemName(s, &st); stem != "" {
		forms = append(forms, stemPrefix(stem))
	}
	return forms
}

// prefixMatches returns the ids of entities of kind k (0: all) with a name
// or alias starting with search (or whose stemmed name starts with the
// stemmed search), each once, at most maxN, and for each how much of its
// closest name the search covers: len(search)/len(name), 1 for an exact
// match, and whether the search ends at a word boundary of one of its
// names (see wordPrefix).
func prefixMatches(ctx context.Context, sc *keyScanner, k graph.Kind, search string, maxN int) (ids []string, cover map[string]float64, word map[string]bool) {
	cover, word = make(map[string]float64), make(map[string]bool)
	want := ""
	if k != 0 {
		want = k.String() + ":"
	}
	for _, p := range nameForms(search) {
		form := string(p[1:])
		sc.scan(p, nil, func(key []byte, _ *badger.Item) bool {
			// Both indexes' keys are prefix, name, 0x00, entity id.
			norm, id, err := split2(key[0], key)
			if err != nil || !strings.HasPrefix(id, want) {
				return true
			}
			c, seen := cover[id]
			if !seen {
				if len(ids) == maxN {
					return false
				}
				ids = append(ids, id)
			}
			cover[id] = max(c, float64(len(form))/float64(len(norm)))
			word[id] = word[id] || wordPrefix(norm, form)
			return ctx.Err() == nil
		})
	}
	return ids, cover, word
}

// searchEntities returns at most n entities of kind k whose name or alias
// starts with search, in order, after the cursor, and their number.
func searchEntities(ctx context.Context, txn *badger.Txn, k graph.Kind, search string, order graph.EntityOrder, n int, after string) ([]entityRef, int, error) {
	prefix := allKeys(prefixTop)
	if order == graph.ByName {
		prefix = allKeys(prefixEntity)
	}
	c, err := decodeCursor(after, prefix, 3)
	if err != nil {
		return nil, 0, err
	}
	sc := newKeyScanner(txn, nil)
	ids, _, _ := prefixMatches(ctx, sc, k, search, maxTotal)
	sc.close()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	refs := make([]entityRef, len(ids))
	for i, id := range ids {
		d, err := getUint64(txn, degreeKey(id))
		if err != nil {
			return nil, 0, err
		}
		refs[i] = entityRef{id, d}
	}
	slices.SortFunc(refs, compareEntities(order))
	total := len(refs)
	if c != nil {
		var from entityRef
		if order == graph.ByName {
			from.id = parseIDKey(c)
		} else if _, from.degree, from.id, err = parseTopKey(c); err != nil {
			return nil, 0, fmt.Errorf("%w: %q", graph.ErrBadCursor, after)
		}
		i, _ := slices.BinarySearchFunc(refs, from, compareEntities(order))
		if i < len(refs) && refs[i].id == from.id {
			i++
		}
		refs = refs[i:]
	}
	return refs[:min(n, len(refs))], total, nil
}
