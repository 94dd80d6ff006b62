package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// PutPapers writes papers, each with its edges, entities, taxonomy,
// postings and counters atomically: a paper is never split across
// transactions, though many papers share one. A paper already stored with
// the same record is unchanged; one whose extraction changed has its
// stale edges, counters and postings replaced. The same paper id from
// another source merges into the stored one: a stored title (and its
// label) is kept when the new paper has none, other metadata is the union,
// and the source index keeps both (source, index) pairs.
//
// The corrections that MergeEntities and AddAlias keep apply to papers
// first: a paper mentioning an entity merged into another is linked to
// that other, and papers is rewritten in place to say so.
//
// On error, the papers of the transactions committed before it stay
// written; the result counts them.
func (s *Store) PutPapers(ctx context.Context, papers []graph.Paper) (graph.PutResult, error) {
	var res graph.PutResult
	for i := range papers {
		if err := graph.ValidatePaper(&papers[i]); err != nil {
			return res, err
		}
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.beginWrite()
	// The edges the committed transactions changed, for the sharing index
	// if there is one (no build begins during a write); on error it is
	// dropped instead.
	var edits []edgeEdit
	ok := false
	defer func() { s.endWrite(edits, ok) }()
	s.shareMu.RLock()
	logEdges := s.share != nil
	s.shareMu.RUnlock()
	fixes, err := s.corrections()
	if err != nil {
		return res, fmt.Errorf("put papers: %w", err)
	}
	if len(fixes) > 0 {
		ids := newIDMemo()
		for i := range papers {
			papers[i] = *fixes.Apply(&papers[i], ids.of)
		}
	}
	// Stay well under Badger's limits (15% of a memtable) so that
	// ErrTxnTooBig stays the exception.
	maxEntries := int(s.db.MaxBatchCount()) * 7 / 10
	maxBytes := int(s.db.MaxBatchSize()) * 7 / 10
	if s.maxTxnEntries > 0 {
		maxEntries, maxBytes = s.maxTxnEntries, math.MaxInt
	}
	limit := len(papers) // papers per transaction, halved on ErrTxnTooBig
	if len(s.ints) > maxCachedInts {
		clear(s.ints)
	}
	if len(s.entities) > maxCachedEntities {
		clear(s.entities)
	}
	// Transactions are pipelined: the next one is built while the last is
	// written to Badger's log and memtable, about as long. It reads a
	// snapshot without the last one's writes, so its writer sees them
	// through prev, and the caches publish the last one's counters and
	// entities before they are committed; if that commit fails, so does
	// everything after it, and the caches are dropped.
	var (
		txn     *badger.Txn // the next transaction, created before the last commits
		prev    *writer     // the transaction being committed, if any
		prevRes graph.PutResult
		done    chan error // its commit's outcome
	)
	wait := func() error {
		if done == nil {
			return nil
		}
		err := <-done
		done = nil
		if err == nil {
			res.Added += prevRes.Added
			res.Updated += prevRes.Updated
			res.Unchanged += prevRes.Unchanged
		}
		return err
	}
	fail := func(err error) (graph.PutResult, error) {
		if txn != nil {
			txn.Discard()
		}
		if werr := wait(); werr != nil {
			err = werr // the first failure
		}
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			clear(s.ints)
			clear(s.entities)
		}
		return res, fmt.Errorf("put papers: %w", err)
	}
	for len(papers) > 0 {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := checkSpace(s.dir, int64(maxBytes)); err != nil {
			return fail(err)
		}
		if txn == nil {
			txn = s.db.NewTransaction(true)
		}
		w := newWriter(badgerTxn{txn}, s.ints, s.entities, prev)
		w.logEdges = logEdges
		var r graph.PutResult
		n := 0
		err := func() error {
			for n < len(papers) && n < limit && w.entries < maxEntries && w.bytes < maxBytes {
				o, err := w.putPaper(&papers[n])
				if err != nil {
					return err
				}
				switch o {
				case added:
					r.Added++
				case updated:
					r.Updated++
				default:
					r.Unchanged++
				}
				n++
			}
			return w.flush()
		}()
		if errors.Is(err, badger.ErrTxnTooBig) && n > 1 {
			// Our estimate of the transaction's size fell short; retry with
			// fewer papers. A single paper is never split.
			txn.Discard()
			txn = nil
			limit = max(1, n/2)
			continue
		}
		if err != nil {
			return fail(err)
		}
		edits = append(edits, w.edgeLog...)
		if err := wait(); err != nil {
			return fail(err)
		}
		w.prev = nil // committed: its writes are in the next snapshot
		papers = papers[n:]
		cur := txn
		txn = nil
		if len(papers) > 0 {
			// Created before cur commits, so it does not wait for it.
			txn = s.db.NewTransaction(true)
		}
		ch := make(chan error, 1)
		done = ch
		cur.CommitWith(func(err error) { ch <- err })
		w.commit()
		prev, prevRes = w, r
	}
	if err := wait(); err != nil {
		return fail(err)
	}
	ok = true
	return res, nil
}

// beginWrite marks a write under way, for Generation, the read cache and
// the sharing index; writeMu is held.
func (s *Store) beginWrite() {
	s.gen.Add(1)
	s.cache.beginWrite()
	s.shareMu.Lock()
	s.shareWriting = true
	s.shareMu.Unlock()
}

// endWrite marks the write done: the cache and the sharing index serve
// the new state before Generation says it is stable. When ok, edits are
// every edge the write changed, applied to the index; else the index is
// dropped, to be built again.
func (s *Store) endWrite(edits []edgeEdit, ok bool) {
	s.cache.endWrite(s.db)
	s.shareMu.Lock()
	if ok && s.share != nil {
		s.share.apply(edits)
	} else {
		s.share = nil
	}
	s.shareWriting = false
	s.shareMu.Unlock()
	s.gen.Add(1)
}

// Generation returns a number that changes whenever the database may
// change: it is odd while PutPapers runs, and even and unchanged between
// writes. What a reader computes between two calls that return the same
// even number is of the database as it is until the next change, so a
// server may keep it (a GraphQL response, say) while Generation returns
// that number.
func (s *Store) Generation() uint64 { return s.gen.Load() }

type outcome int

// A writer holds one transaction's state. Records that PutPapers reads
// back (paper, text and source keys) go through pending, which caches
// them; keys only written go to the transaction directly; entity records,
// postings, counters, degrees and document frequencies are accumulated
// and written once at flush: a hub entity touched by every paper of the
// batch costs one write, not one per paper, and its top-by-degree key
// (0x06) moves once.
type writer struct {
	txn kvTxn
	// prev is the transaction committed while this one is built, whose
	// writes txn does not see: PutPapers's pipeline.
	prev     *writer
	ints     map[string]uint64        // Store.ints
	cached   map[string]*graph.Entity // Store.entities
	pending  map[string]pendingValue
	entities map[string]*entityEdit // entity id -> record as this transaction leaves it
	degree   map[string]*delta      // entity id -> paper count
	counter  map[string]*delta      // counter name -> value
	// block is this transaction's postings block, 0 until a paper's text
	// is indexed; terms holds its postings and the document frequency
	// changes by term, edits the older blocks that lose postings, by key.
	block   uint64
	terms   map[string]*termEdit
	edits   map[string][]posting
	entries int // estimated entries this transaction will write
	bytes   int // and their size
	// pre, when set, holds what putPaper computes of the paper it is
	// given when that paper is new, computed on another core (see
	// Loader.Add).
	pre     *prePaper
	ids     idMemo
	scratch termScratch
	// logEdges records in edgeLog the edges putPaper adds and removes,
	// for the sharing index (PutPapers; a Loader drops the index).
	logEdges bool
	edgeLog  []edgeEdit
	// fixes are the corrections a curation applies and changes (see
	// curation.go); PutPapers applies them before its writers run.
	fixes corrections
	// skipText leaves the indexing of text to another writer (see
	// Loader.add); deferDocFreq leaves the writing of document
	// frequencies to the Loader, which writes each term's once, at the
	// end, from ints, rather than at each flush.
	skipText, deferDocFreq bool
}

// idMemo memoizes EntityID: a writer needs an entity's id several
// times for each paper, and the same entities recur paper after paper.
// A map per kind, keyed by name: Go's maps look a string key up on a
// fast path that a struct key misses.
type idMemo []map[string]string

// newIDMemo has a map per Kind value, 0 (no kind) included.
func newIDMemo() idMemo { return make(idMemo, len(graph.Kinds)+1) }

func (m idMemo) of(k graph.Kind, name string) string {
	if int(k) >= len(m) {
		return graph.EntityID(k, name)
	}
	byName := m[k]
	if byName == nil {
		byName = make(map[string]string)
		m[k] = byName
	}
	id, ok := byName[name]
	if !ok {
		id = graph.EntityID(k, name)
		byName[name] = id
	}
	return id
}

// termEdit is what a transaction does to one term: the postings of its
// block, and the change of its document frequency (0x0B), cur once
// flushed.
type termEdit struct {
	posts []posting
	df    int64
	cur   uint64
}

// term returns the edit of term in this transaction.
func (w *writer) term(t string) *termEdit {
	e := w.terms[t]
	if e == nil {
		e = &termEdit{}
		w.terms[t] = e
		w.entries += 2 // the block and the document frequency
		w.bytes += 2*len(t) + 60
	}
	return e
}

type entityEdit struct {
	rec   *graph.Entity // a copy of Store.entities's until commit publishes it
	dirty bool
}

type pendingValue struct {
	val   []byte // nil: the key is absent
	dirty bool   // written in this transaction (else only cached)
}

type delta struct {
	kind      graph.Kind // for degrees
	orig, cur uint64
}

func newWriter(txn kvTxn, ints map[string]uint64, cached map[string]*graph.Entity, prev *writer) *writer {
	return &writer{
		txn:      txn,
		prev:     prev,
		ints:     ints,
		cached:   cached,
		pending:  make(map[string]pendingValue),
		entities: make(map[string]*entityEdit),
		degree:   make(map[string]*delta),
		counter:  make(map[string]*delta),
		terms:    make(map[string]*termEdit),
		edits:    make(map[string][]posting),
		ids:      newIDMemo(),
	}
}

// get returns the value of key as this transaction sees it; ok is false
// when the key is absent.
func (w *writer) get(key []byte) (val []byte, ok bool, err error) {
	if p, hit := w.pending[string(key)]; hit {
		return p.val, p.val != nil, nil
	}
	if w.prev != nil {
		if p := w.prev.pending[string(key)]; p.dirty {
			w.pending[string(key)] = pendingValue{val: p.val}
			return p.val, true, nil
		}
	}
	val, err = w.txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		w.pending[string(key)] = pendingValue{}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	w.pending[string(key)] = pendingValue{val: val}
	return val, true, nil
}

func (w *writer) set(key, val []byte) {
	if val == nil {
		val = []byte{}
	}
	w.count(key, val)
	w.pending[string(key)] = pendingValue{val: val, dirty: true}
}

// write sets key to val in the transaction directly, for keys that are
// written but never read back by PutPapers (edges, postings, index keys):
// they need no place in pending.
func (w *writer) write(key, val []byte) error {
	w.entries++
	w.bytes += len(key) + len(val) + 20
	return w.txn.Set(key, val)
}

// edgeAdder is a kvTxn that keeps the entity side of edges (0x04) in a
// form of its own, and counts the entities' degrees from it: a Loader's
// run.
type edgeAdder interface {
	addEdge(entityID string, kind graph.Kind, paperID string)
}

// addEdge writes the key of the edge from entity entityID to paper
// paperID (0x04), as mark does, and adds it to the entity's degree.
func (w *writer) addEdge(entityID string, kind graph.Kind, paperID string) error {
	if t, ok := w.txn.(edgeAdder); ok {
		t.addEdge(entityID, kind, paperID)
		return nil
	}
	if err := w.mark(entityEdgeKey(entityID, paperID)); err != nil {
		return err
	}
	return w.addDegree(entityID, kind, 1)
}

// mark writes each key with an empty value, as write does.
func (w *writer) mark(keys ...[]byte) error {
	for _, k := range keys {
		if err := w.write(k, []byte{}); err != nil {
			return err
		}
	}
	return nil
}

// remove deletes each key in the transaction directly, as write does.
func (w *writer) remove(keys ...[]byte) error {
	for _, k := range keys {
		w.entries++
		w.bytes += len(k) + 20
		if err := w.txn.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) count(key, val []byte) {
	if p, ok := w.pending[string(key)]; !ok || !p.dirty {
		w.entries++
		w.bytes += len(key) + len(val) + 20 // version, metas, headers
	}
}

// uint64At returns the counter-like value at key in d, reading it from the
// transaction the first time.
func (w *writer) uint64At(d map[string]*delta, name string, key []byte) (*delta, error) {
	if x := d[name]; x != nil {
		return x, nil
	}
	v, ok := w.ints[string(key)]
	if !ok {
		var err error
		if v, err = kvUint64(w.txn, key); err != nil {
			return nil, err
		}
	}
	x := &delta{orig: v, cur: v}
	d[name] = x
	n := 1
	if keyPrefix(key) == prefixDegree {
		n = 3 // and the old and new top keys
	}
	w.entries += n
	w.bytes += n * (len(key) + 30)
	return x, nil
}

func (w *writer) addCounter(name string, n int64) error {
	x, err := w.uint64At(w.counter, name, counterKey(name))
	if err != nil {
		return err
	}
	x.cur = uint64(int64(x.cur) + n)
	return nil
}

func (w *writer) addDegree(entityID string, kind graph.Kind, n int64) error {
	x, err := w.uint64At(w.degree, entityID, degreeKey(entityID))
	if err != nil {
		return err
	}
	x.kind = kind
	x.cur = uint64(int64(x.cur) + n)
	return nil
}

// flush hands the pending writes to the transaction. A zero degree or
// document frequency is deleted rather than stored, so absent means zero.
func (w *writer) flush() error {
	for k, p := range w.pending {
		if !p.dirty {
			continue
		}
		if err := w.txn.Set([]byte(k), p.val); err != nil {
			return err
		}
	}
	for id, ed := range w.entities {
		if !ed.dirty {
			continue
		}
		v, err := json.Marshal(ed.rec)
		if err != nil {
			return fmt.Errorf("entity %s: %w", id, err)
		}
		if err := w.txn.Set(entityKey(id), v); err != nil {
			return err
		}
	}
	for t, e := range w.terms {
		if len(e.posts) > 0 {
			if err := w.txn.Set(postingKey(t, w.block), appendPostings(make([]byte, 0, postingsSize(len(e.posts))), e.posts)); err != nil {
				return err
			}
		}
		if e.df == 0 {
			continue
		}
		key := docFreqKey(t)
		orig, ok := w.ints[string(key)]
		if !ok {
			var err error
			if orig, err = kvUint64(w.txn, key); err != nil {
				return err
			}
		}
		e.cur = uint64(int64(orig) + e.df)
		if w.deferDocFreq {
			continue
		}
		if err := w.setUint64(key, e.cur); err != nil {
			return err
		}
	}
	for k, ps := range w.edits {
		var err error
		if len(ps) == 0 {
			err = w.txn.Delete([]byte(k))
		} else {
			err = w.txn.Set([]byte(k), appendPostings(make([]byte, 0, postingsSize(len(ps))), ps))
		}
		if err != nil {
			return err
		}
	}
	for id, x := range w.degree {
		if x.cur == x.orig {
			continue
		}
		if x.orig > 0 {
			if err := w.txn.Delete(topKey(x.kind, x.orig, id)); err != nil {
				return err
			}
		}
		if err := w.setUint64(degreeKey(id), x.cur); err != nil {
			return err
		}
		if x.cur > 0 {
			if err := w.txn.Set(topKey(x.kind, x.cur, id), []byte{}); err != nil {
				return err
			}
		}
	}
	for name, x := range w.counter {
		if x.cur != x.orig {
			if err := w.txn.Set(counterKey(name), binary.BigEndian.AppendUint64(nil, x.cur)); err != nil {
				return err
			}
		}
	}
	return nil
}

// commit records in the Store's caches the values a committed
// transaction wrote.
func (w *writer) commit() {
	for id, ed := range w.entities {
		w.cached[id] = ed.rec
	}
	for id, x := range w.degree {
		w.ints[string(degreeKey(id))] = x.cur
	}
	for t, e := range w.terms {
		if e.df != 0 {
			w.ints[string(docFreqKey(t))] = e.cur
		}
	}
	for name, x := range w.counter {
		w.ints[string(counterKey(name))] = x.cur
	}
}

func (w *writer) setUint64(key []byte, v uint64) error {
	if v == 0 {
		return w.txn.Delete(key)
	}
	return w.txn.Set(key, binary.BigEndian.AppendUint64(nil, v))
}

// putPaper writes one paper and everything derived from it.
func (w *writer) putPaper(p *graph.Paper) (outcome, error) {
	oldVal, exists, err := w.get(paperKey(p.ID))
	if err != nil {
		return 0, err
	}
	var old graph.Paper
	if exists {
		if err := decodePaperRecord(oldVal, &old); err != nil {
			return 0, fmt.Errorf("paper %s: decode stored record: %w", p.ID, err)
		}
		if p.Title == "" && old.Title != "" {
			// A read without the title (a seed file) of a paper stored
			// with one (a JSON export) keeps what extraction found with
			// the title: it saw more of the paper.
			q := *p
			q.Name, q.Entities, q.Ancestors, q.Mentions = old.Name, old.Entities, old.Ancestors, old.Mentions
			p = &q
		}
	}
	var rec *graph.Paper
	var val []byte
	var ids recordIDs
	if w.pre != nil && !exists {
		rec, val, ids = w.pre.rec, w.pre.val, w.pre.ids
	} else {
		rec, ids = paperRecord(p, &old, exists, w.ids)
		val = appendPaperRecord(make([]byte, 0, paperRecordSize(rec)), rec)
	}
	newIDs := ids.sorted
	// Entity records and the taxonomy are merged whatever happens to the
	// paper: a new vocabulary may add aliases without changing the edges.
	for i, e := range p.Entities {
		if err := w.putEntity(e, ids.entities[i]); err != nil {
			return 0, err
		}
	}
	for i, e := range p.Ancestors {
		if err := w.putEntity(e, ids.ancestors[i]); err != nil {
			return 0, err
		}
	}
	if p.Source != "" {
		k := sourceKey(p.Source, p.Index)
		v, _, err := w.get(k)
		if err != nil {
			return 0, err
		}
		if string(v) != p.ID {
			w.set(k, []byte(p.ID))
		}
	}
	if exists && string(val) == string(oldVal) {
		return unchanged, nil
	}
	w.set(paperKey(p.ID), val)

	// Edges: remove the stale, add the new, walking both sorted lists.
	_, oldIDs, _ := refs(old.Entities, w.ids)
	edges := 0
	for i, j := 0, 0; i < len(oldIDs) || j < len(newIDs); {
		c := 0
		switch {
		case i == len(oldIDs):
			c = 1
		case j == len(newIDs):
			c = -1
		default:
			c = strings.Compare(oldIDs[i].id, newIDs[j].id)
		}
		switch {
		case c < 0:
			x := oldIDs[i]
			i++
			if w.logEdges {
				w.edgeLog = append(w.edgeLog, edgeEdit{paper: p.ID, entity: x.id})
			}
			if err := w.remove(entityEdgeKey(x.id, p.ID)); err != nil {
				return 0, err
			}
			if err := w.addDegree(x.id, x.kind, -1); err != nil {
				return 0, err
			}
			edges--
		case c > 0:
			x := newIDs[j]
			j++
			if w.logEdges {
				w.edgeLog = append(w.edgeLog, edgeEdit{paper: p.ID, entity: x.id, add: true})
			}
			if err := w.addEdge(x.id, x.kind, p.ID); err != nil {
				return 0, err
			}
			edges++
		default:
			i++
			j++
		}
	}
	if edges != 0 {
		if err := w.addCounter(counterEdges, int64(edges)); err != nil {
			return 0, err
		}
	}
	if !slices.Equal(oldIDs, newIDs) {
		if len(newIDs) == 0 {
			err = w.remove(edgesKey(p.ID))
		} else {
			err = w.write(edgesKey(p.ID), appendEdges(nil, newIDs))
		}
		if err != nil {
			return 0, err
		}
	}

	// Full text: a paper whose text changed moves to this transaction's
	// block.
	if !w.skipText && (!exists || !slices.Equal(paperText(&old), paperText(rec))) {
		if exists {
			if err := w.unindexText(p.ID); err != nil {
				return 0, err
			}
		}
		if err := w.indexText(p.ID, rec); err != nil {
			return 0, err
		}
	}
	if !exists {
		return added, w.addCounter(counterPapers, 1)
	}
	return updated, nil
}

// paperRecord returns the record stored for p (0x01): p merged with the
// stored old when exists, entities reduced to references (kind and name),
// since their records live under 0x02; and the ids of its entities.
func paperRecord(p, old *graph.Paper, exists bool, ids idMemo) (*graph.Paper, recordIDs) {
	r := *p
	if exists {
		if r.Title == "" && old.Title != "" {
			// The title came from another source (a JSON export) and is
			// better than any label built from the abstract: keep it with
			// its label and its source.
			r.Title, r.Label = old.Title, old.Label
			r.Source, r.Index = old.Source, old.Index
		}
		r.URL = cmp.Or(r.URL, old.URL)
		r.Venue = cmp.Or(r.Venue, old.Venue)
		r.Year = cmp.Or(r.Year, old.Year)
		if len(r.Authors) == 0 {
			r.Authors = old.Authors
		}
		r.Keywords = union(old.Keywords, r.Keywords)
	}
	var ri recordIDs
	r.Entities, ri.sorted, ri.entities = refs(p.Entities, ids)
	r.Ancestors, _, ri.ancestors = refs(p.Ancestors, ids)
	return &r, ri
}

// recordIDs are the entity ids of a paper record: of its entities, sorted
// and once each; and of the paper's entities and ancestors, as given.
type recordIDs struct {
	sorted              []idKind
	entities, ancestors []string
}

// idKind is an entity id and its kind.
type idKind struct {
	id   string
	kind graph.Kind
}

// refs returns es reduced to kind and name, sorted by kind then name,
// one per entity id (the first given); their ids, sorted; and the ids of
// es.
func refs(es []graph.Entity, ids idMemo) ([]graph.Entity, []idKind, []string) {
	if len(es) == 0 {
		return nil, nil, nil
	}
	type ref struct {
		id string
		i  int // in es
	}
	rs := make([]ref, len(es))
	aligned := make([]string, len(es))
	for i, e := range es {
		aligned[i] = ids.of(e.Kind, e.Name)
		rs[i] = ref{aligned[i], i}
	}
	slices.SortFunc(rs, func(a, b ref) int { return cmp.Or(strings.Compare(a.id, b.id), cmp.Compare(a.i, b.i)) })
	rs = slices.CompactFunc(rs, func(a, b ref) bool { return a.id == b.id })
	out := make([]graph.Entity, len(rs))
	byID := make([]idKind, len(rs))
	for j, r := range rs {
		e := &es[r.i]
		out[j] = graph.Entity{Kind: e.Kind, Name: e.Name}
		byID[j] = idKind{r.id, e.Kind}
	}
	slices.SortFunc(out, func(a, b graph.Entity) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return out, byID, aligned
}

// prePaper is what putPaper computes of a new paper from the paper alone:
// its record, encoded, and its text terms.
type prePaper struct {
	rec  *graph.Paper
	val  []byte
	ids  recordIDs
	text textTerms
	// textRecord is the text record (0x0E) after its block.
	textRecord []byte
}

func prepare(p *graph.Paper, ids idMemo, sc *termScratch) prePaper {
	rec, entityIDs := paperRecord(p, nil, false, ids)
	tt := textTermsOf(p, sc)
	r := textRecord{length: uint64(tt.length), terms: tt.terms}
	return prePaper{
		rec: rec, val: appendPaperRecord(make([]byte, 0, paperRecordSize(rec)), rec), ids: entityIDs,
		text: tt, textRecord: r.appendTerms(make([]byte, 0, textRecordSize(tt.terms))),
	}
}

// union returns a followed by the elements of b not in a.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// putEntity creates or merges the entity record of e (aliases and broader
// names are unions), indexes its names and writes its broader edges, both
// directions, creating the parents as entities without papers.
func (w *writer) putEntity(e graph.Entity, id string) error {
	ed, err := w.entity(id)
	if err != nil {
		return err
	}
	exists := ed.rec != nil
	if !exists {
		ed.rec = &graph.Entity{Kind: e.Kind, Name: e.Name}
		if err := w.addCounter(entitiesCounter(e.Kind), 1); err != nil {
			return err
		}
		if err := w.indexName(e.Name, id); err != nil {
			return err
		}
	}
	rec := ed.rec
	changed := !exists
	for _, a := range e.Aliases {
		if a != rec.Name && !slices.Contains(rec.Aliases, a) && graph.Slug(a) != "" {
			rec.Aliases = append(rec.Aliases, a)
			if err := w.indexName(a, id); err != nil {
				return err
			}
			changed = true
		}
	}
	var parents []string
	for _, b := range e.Broader {
		if slices.Contains(rec.Broader, b) {
			continue
		}
		pid := w.ids.of(e.Kind, b)
		if graph.Slug(b) == "" || pid == id {
			continue
		}
		rec.Broader = append(rec.Broader, b)
		changed = true
		if err := w.mark(broaderKey(id, pid), narrowerKey(pid, id)); err != nil {
			return err
		}
		parents = append(parents, b)
	}
	if changed && !ed.dirty {
		ed.dirty = true
		w.entries++
		w.bytes += len(id) + 200
	}
	for _, b := range parents {
		if err := w.putEntity(graph.Entity{Kind: e.Kind, Name: b}, w.ids.of(e.Kind, b)); err != nil {
			return err
		}
	}
	return nil
}

// entity returns the edit of entity id in this transaction, its record
// read (or taken from Store.entities) the first time; the record is nil
// when the entity does not exist yet.
func (w *writer) entity(id string) (*entityEdit, error) {
	if ed := w.entities[id]; ed != nil {
		return ed, nil
	}
	ed := &entityEdit{}
	if c := w.cached[id]; c != nil {
		r := *c
		r.Aliases, r.Broader = slices.Clip(r.Aliases), slices.Clip(r.Broader)
		ed.rec = &r
	} else {
		val, err := w.txn.Get(entityKey(id))
		switch {
		case errors.Is(err, badger.ErrKeyNotFound):
		case err != nil:
			return nil, err
		default:
			ed.rec = new(graph.Entity)
			if err := json.Unmarshal(val, ed.rec); err != nil {
				return nil, fmt.Errorf("entity %s: decode stored record: %w", id, err)
			}
		}
	}
	w.entities[id] = ed
	return ed, nil
}

// indexName adds name to the name index (0x07) of entity id, in its
// normalised and slug forms, and to the stemmed name index (0x10).
func (w *writer) indexName(name, id string) error {
	for _, k := range nameIndexKeys(name, id, &w.scratch.stems) {
		if err := w.mark(k); err != nil {
			return err
		}
	}
	return nil
}

// nameIndexKeys returns the keys that index name as a name or alias of
// entity id (0x07, 0x10): what indexName writes and a merge deletes.
func nameIndexKeys(name, id string, st *stemmer) [][]byte {
	var keys [][]byte
	norm := graph.NormName(name)
	if norm != "" {
		keys = append(keys, nameKey(norm, id))
	}
	if slug := graph.Slug(name); slug != "" && slug != norm {
		keys = append(keys, nameKey(slug, id))
	}
	if stem := stemName(name, st); stem != "" {
		keys = append(keys, stemKey(stem, id))
	}
	return keys
}

const (
	unchanged outcome = iota
	added
	updated
)
