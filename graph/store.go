package graph

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
)

// Options configures Open.
type Options struct {
	// ReadOnly opens the database without write access; several read-only
	// processes may share a database, but not with a writer.
	ReadOnly bool
	// Logger receives Badger's and the store's log lines; nil discards them.
	Logger *slog.Logger

	// memTableSize, when positive, replaces the tuned memtable size, so
	// that tests reach Badger's transaction limit (15% of it) cheaply.
	memTableSize int64
}

// Store is a papergraph database on disk. A Store is safe for concurrent
// use by multiple goroutines: reads see a consistent snapshot (Badger's
// MVCC) while PutPapers calls are serialised.
type Store struct {
	db  *badger.DB
	dir string
	log *slog.Logger

	// writeMu serialises writers. Counters, degrees and document
	// frequencies are read-modify-write; with one writer at a time no
	// transaction can conflict, so Badger's conflict detection is off.
	writeMu sync.Mutex
	// ints caches the counter-like values (degrees, document frequencies,
	// counters) as last committed, by key, so that a batch need not read
	// them back: this process is the only writer (Badger's directory
	// lock), and writeMu guards the map. It is dropped when a transaction
	// fails and when it grows past maxCachedInts.
	ints map[string]uint64
	// entities caches entity records as last committed, by id, on the
	// same terms as ints: a batch touches thousands of entities, and
	// reading and decoding each record again cost more than the papers'
	// own writes. Bounded by maxCachedEntities.
	entities map[string]*Entity
	// cache serves traversals between writes (see readCache).
	cache *readCache
	// gen is odd while PutPapers runs and grows with each call; see
	// Generation.
	gen atomic.Uint64
	// maxTxnEntries, when positive, replaces PutPapers's estimate of how
	// much fits in one transaction, so tests can split batches cheaply or
	// run into ErrTxnTooBig.
	maxTxnEntries int
}

// Badger options tuned for ingesting about 100k papers on two cores within
// 1.5 GiB: the defaults (64 MiB memtables x5, 256 MiB block cache, four
// compactors) are sized for servers. The memtable size bounds a
// transaction (15% of it), and so how many papers share a postings block:
// at 64 MiB a batch of about 1000 papers fits one transaction, writing 14
// postings keys per paper where 32 MiB wrote 23. Peak RSS grows with it
// (memtables live on the Go heap and their logs are mapped): 1.43 GiB for
// 100k papers at 64 MiB (bench, 29 Nov 2026).
const (
	memTableSize   = 64 << 20 // a transaction: ~9.6 MiB, ~100k entries
	numMemtables   = 3
	blockCacheSize = 64 << 20
	indexCacheSize = 32 << 20
	baseTableSize  = 8 << 20
	baseLevelSize  = 64 << 20
	// Values of 1 KiB or more (paper and text records, long postings
	// blocks) go to the value log, written once, and the LSM tree holds a
	// pointer: compactions then move keys, not abstracts. At 100k papers
	// this took ingest from 1,817 to 2,309 papers/s and peak RSS from 1.46
	// to 1.27 GiB; a read of such a value costs a second lookup, which the
	// read cache mostly saves (bench, 30 Nov 2026: 256 B gave 2,151/s).
	valueThreshold = 1 << 10
	// maxCachedInts bounds Store.ints: about 100 MB at most.
	maxCachedInts = 1 << 20
	// maxCachedEntities bounds Store.entities: about 100 MB at most.
	maxCachedEntities = 1 << 18
)

// Open opens or creates the database in dir. It fails with an error
// wrapping ErrLocked when another process has the database open for
// writing, and with one wrapping ErrNewerFormat or ErrOlderFormat when
// the database was written by a papergraph of another format.
func Open(dir string, opts Options) (*Store, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	bo := badger.DefaultOptions(dir).
		WithReadOnly(opts.ReadOnly).
		WithLogger(badgerLogger{log}).
		WithMemTableSize(cmp.Or(opts.memTableSize, memTableSize)).
		WithNumMemtables(numMemtables).
		WithBlockCacheSize(blockCacheSize).
		WithIndexCacheSize(indexCacheSize).
		WithBaseTableSize(baseTableSize).
		WithBaseLevelSize(baseLevelSize).
		WithNumCompactors(2).
		WithNumGoroutines(2).
		WithValueThreshold(valueThreshold).
		WithDetectConflicts(false).
		WithMetricsEnabled(false)
	// Tables of every level are baseTableSize. Badger's default doubles
	// them per level, and a StreamWriter builds tables of the last level
	// (256 MiB, in memory, several at once): a bulk load's live heap
	// peaked at 980 MB at 100k papers and 2.7 GB at 1M. With 8 MiB tables
	// it peaks at 520 MB at 100k, and ingest is as fast or faster
	// (bench, 30 Nov 2026).
	bo.TableSizeMultiplier = 1
	if !opts.ReadOnly {
		if err := removeEmptyMemtables(dir, log); err != nil {
			return nil, fmt.Errorf("open store %s: %w", dir, err)
		}
	}
	db, err := badger.Open(bo)
	if err != nil {
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("open store %s: %w: another papergraph process has it open", dir, ErrLocked)
		}
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	if !opts.ReadOnly {
		reset, err := resetInterruptedLoad(db, dir)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("open store %s: %w", dir, err)
		}
		if reset {
			log.Warn("emptied a database whose first load was interrupted", "dir", dir)
		}
	}
	s := &Store{db: db, dir: dir, log: log, ints: make(map[string]uint64), entities: make(map[string]*Entity), cache: newReadCache()}
	if err := s.checkVersion(opts.ReadOnly); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	return s, nil
}

// removeEmptyMemtables removes the empty memtable files (*.mem) of the
// database in dir. Badger creates a memtable's file, then sizes it; a
// process killed in between leaves an empty file, which Badger's Open
// then refuses ("while opening memtables ... Create a new file"). An
// empty file holds no write, so removing it loses nothing.
func removeEmptyMemtables(dir string, log *slog.Logger) error {
	mems, err := filepath.Glob(filepath.Join(dir, "*.mem"))
	if err != nil {
		return err
	}
	for _, name := range mems {
		fi, err := os.Stat(name)
		if err != nil || fi.Size() != 0 {
			continue
		}
		if err := os.Remove(name); err != nil {
			return err
		}
		log.Warn("removed an empty memtable file left by a crash", "file", name)
	}
	return nil
}

// checkVersion writes the format version into a new database and refuses
// one written by a newer format.
func (s *Store) checkVersion(readOnly bool) error {
	var stored uint32
	found := false
	read := func(txn *badger.Txn) error {
		item, err := txn.Get(versionKey())
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error {
			if len(v) != 4 {
				return fmt.Errorf("bad format version value %x", v)
			}
			stored, found = binary.BigEndian.Uint32(v), true
			return nil
		})
	}
	if readOnly {
		if err := s.db.View(read); err != nil {
			return err
		}
	} else {
		err := s.db.Update(func(txn *badger.Txn) error {
			if err := read(txn); err != nil || found {
				return err
			}
			return txn.Set(versionKey(), binary.BigEndian.AppendUint32(nil, formatVersion))
		})
		if err != nil {
			return err
		}
	}
	if found && stored > formatVersion {
		return fmt.Errorf("%w: format %d, this papergraph reads format %d or older", ErrNewerFormat, stored, formatVersion)
	}
	if found && stored < formatVersion {
		return fmt.Errorf("%w: format %d, this papergraph reads format %d: ingest the input again into a new directory", ErrOlderFormat, stored, formatVersion)
	}
	return nil
}

// Close flushes and closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close store %s: %w", s.dir, err)
	}
	return nil
}

// CollectGarbage reclaims the space of values that updates replaced:
// records and long postings blocks live in Badger's value log (see
// valueThreshold), where an update leaves the old value behind until a
// log file is rewritten. It rewrites each file at least half garbage and
// returns when none is left; on a store only ever added to, it costs a
// sample of one file.
func (s *Store) CollectGarbage(ctx context.Context) error {
	for ctx.Err() == nil {
		err := s.db.RunValueLogGC(0.5)
		if errors.Is(err, badger.ErrNoRewrite) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("collect garbage %s: %w", s.dir, err)
		}
	}
	return ctx.Err()
}

// badgerLogger routes Badger's log lines to slog. Badger's info lines
// (tables opened, compactions) are detail for papergraph's users, so they
// go out at debug level.
type badgerLogger struct{ log *slog.Logger }

func (l badgerLogger) Errorf(f string, v ...any) { l.emit(slog.LevelError, f, v) }
func (l badgerLogger) Warningf(f string, v ...any) {
	l.emit(slog.LevelWarn, f, v)
}
func (l badgerLogger) Infof(f string, v ...any)  { l.emit(slog.LevelDebug, f, v) }
func (l badgerLogger) Debugf(f string, v ...any) { l.emit(slog.LevelDebug-4, f, v) }

func (l badgerLogger) emit(level slog.Level, f string, v []any) {
	ctx := context.Background()
	if l.log.Enabled(ctx, level) {
		l.log.Log(ctx, level, "badger: "+strings.TrimSpace(fmt.Sprintf(f, v...)))
	}
}

// PutResult counts what PutPapers did.
type PutResult struct {
	Added, Updated, Unchanged int
}

// PutPapers writes papers, each with its edges, entities, taxonomy,
// postings and counters atomically: a paper is never split across
// transactions, though many papers share one. A paper already stored with
// the same record is unchanged; one whose extraction changed has its
// stale edges, counters and postings replaced. The same paper id from
// another source merges into the stored one: a stored title (and its
// label) is kept when the new paper has none, other metadata is the union,
// and the source index keeps both (source, index) pairs.
//
// On error, the papers of the transactions committed before it stay
// written; the result counts them.
func (s *Store) PutPapers(ctx context.Context, papers []Paper) (PutResult, error) {
	var res PutResult
	for i := range papers {
		if err := ValidatePaper(&papers[i]); err != nil {
			return res, err
		}
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.beginWrite()
	defer s.endWrite()
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
		prevRes PutResult
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
	fail := func(err error) (PutResult, error) {
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
		if txn == nil {
			txn = s.db.NewTransaction(true)
		}
		w := newWriter(badgerTxn{txn}, s.ints, s.entities, prev)
		var r PutResult
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
	return res, nil
}

// beginWrite marks a write under way, for Generation and the read cache;
// writeMu is held.
func (s *Store) beginWrite() {
	s.gen.Add(1)
	s.cache.beginWrite()
}

// endWrite marks the write done: the cache serves the new state before
// Generation says it is stable.
func (s *Store) endWrite() {
	s.cache.endWrite(s.db)
	s.gen.Add(1)
}

// Generation returns a number that changes whenever the database may
// change: it is odd while PutPapers runs, and even and unchanged between
// writes. What a reader computes between two calls that return the same
// even number is of the database as it is until the next change, so a
// server may keep it (a GraphQL response, say) while Generation returns
// that number.
func (s *Store) Generation() uint64 { return s.gen.Load() }

// ValidatePaper reports (with an error wrapping ErrBadID) whether p cannot
// be stored: its id is not a paper id, or one of its entities or ancestors
// has an invalid kind or a name without letters or digits. PutPapers
// rejects a batch holding such a paper before writing any of it; callers
// that stream input check each paper first to name the bad record.
func ValidatePaper(p *Paper) error {
	if !IsPaperID(p.ID) {
		return fmt.Errorf("put paper %q: %w: want %d lower-case hex digits", p.ID, ErrBadID, PaperIDLen)
	}
	for _, list := range [][]Entity{p.Entities, p.Ancestors} {
		for _, e := range list {
			if !e.Kind.Valid() || Slug(e.Name) == "" {
				return fmt.Errorf("put paper %s: entity %s %q: %w", p.ID, e.Kind, e.Name, ErrBadID)
			}
		}
	}
	return nil
}

type outcome int

const (
	unchanged outcome = iota
	added
	updated
)

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
	ints     map[string]uint64  // Store.ints
	cached   map[string]*Entity // Store.entities
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

func newIDMemo() idMemo { return make(idMemo, len(kindNames)) }

func (m idMemo) of(k Kind, name string) string {
	if int(k) >= len(m) {
		return EntityID(k, name)
	}
	byName := m[k]
	if byName == nil {
		byName = make(map[string]string)
		m[k] = byName
	}
	id, ok := byName[name]
	if !ok {
		id = EntityID(k, name)
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
	rec   *Entity // a copy of Store.entities's until commit publishes it
	dirty bool
}

type pendingValue struct {
	val   []byte // nil: the key is absent
	dirty bool   // written in this transaction (else only cached)
}

type delta struct {
	kind      Kind // for degrees
	orig, cur uint64
}

func newWriter(txn kvTxn, ints map[string]uint64, cached map[string]*Entity, prev *writer) *writer {
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
	addEdge(entityID string, kind Kind, paperID string)
}

// addEdge writes the key of the edge from entity entityID to paper
// paperID (0x04), as mark does, and adds it to the entity's degree.
func (w *writer) addEdge(entityID string, kind Kind, paperID string) error {
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
	if key[0] == prefixDegree {
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

func (w *writer) addDegree(entityID string, kind Kind, n int64) error {
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
func (w *writer) putPaper(p *Paper) (outcome, error) {
	oldVal, exists, err := w.get(paperKey(p.ID))
	if err != nil {
		return 0, err
	}
	var old Paper
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
	var rec *Paper
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
func paperRecord(p, old *Paper, exists bool, ids idMemo) (*Paper, recordIDs) {
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
	kind Kind
}

// refs returns es reduced to kind and name, sorted by kind then name,
// one per entity id (the first given); their ids, sorted; and the ids of
// es.
func refs(es []Entity, ids idMemo) ([]Entity, []idKind, []string) {
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
	out := make([]Entity, len(rs))
	byID := make([]idKind, len(rs))
	for j, r := range rs {
		e := &es[r.i]
		out[j] = Entity{Kind: e.Kind, Name: e.Name}
		byID[j] = idKind{r.id, e.Kind}
	}
	slices.SortFunc(out, func(a, b Entity) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return out, byID, aligned
}

// paperText is the text indexed for full-text search.
func paperText(p *Paper) []string { return []string{p.Name, p.Label, p.Title, p.Abstract} }

// termFreqs returns the frequency of each term of p's indexed text and
// the number of terms (the document length of BM25).
func termFreqs(p *Paper) (map[string]uint32, int) {
	tf := make(map[string]uint32, 128)
	n := 0
	var buf []byte
	for _, s := range paperText(p) {
		buf = eachTerm(s, buf, func(t []byte) {
			if _, ok := tf[string(t)]; ok {
				tf[string(t)]++
			} else {
				tf[string(t)] = 1
			}
			n++
		})
	}
	return tf, n
}

// prePaper is what putPaper computes of a new paper from the paper alone:
// its record, encoded, and its text terms.
type prePaper struct {
	rec  *Paper
	val  []byte
	ids  recordIDs
	text textTerms
	// textRecord is the text record (0x0E) after its block.
	textRecord []byte
}

func prepare(p *Paper, ids idMemo, sc *termScratch) prePaper {
	rec, entityIDs := paperRecord(p, nil, false, ids)
	tt := textTermsOf(p, sc)
	r := textRecord{length: uint64(tt.length), terms: tt.terms}
	return prePaper{
		rec: rec, val: appendPaperRecord(make([]byte, 0, paperRecordSize(rec)), rec), ids: entityIDs,
		text: tt, textRecord: r.appendTerms(make([]byte, 0, textRecordSize(tt.terms))),
	}
}

// textTerms are the distinct terms of a paper's text, in byte order, with
// their frequencies, and the text's length in terms.
type textTerms struct {
	terms  []termTF
	length int
}

type termTF struct {
	t  string
	tf uint32
}

// termScratch is the memory textTermsOf reuses from paper to paper: one
// per goroutine.
type termScratch struct {
	buf, all []byte
	ends     []int32
	slots    []int32 // hash table: index in distinct, or -1
	distinct []termTF
	keys     []uint64
	seed     maphash.Seed
	seeded   bool
}

func textTermsOf(p *Paper, sc *termScratch) textTerms {
	// The terms are copied into one string, counted in a small hash table
	// and only the distinct ones sorted: sorting all of them cost twice as
	// much, a map more (check counts them with one, termFreqs, and
	// compares).
	all, ends := sc.all[:0], sc.ends[:0]
	for _, s := range paperText(p) {
		sc.buf = eachTerm(s, sc.buf, func(t []byte) {
			all = append(all, t...)
			ends = append(ends, int32(len(all)))
		})
	}
	joined := string(all)
	size := 16
	for size < 2*len(ends) {
		size <<= 1
	}
	if cap(sc.slots) < size {
		sc.slots = make([]int32, size)
	}
	slots := sc.slots[:size]
	for i := range slots {
		slots[i] = -1
	}
	if !sc.seeded {
		sc.seed, sc.seeded = maphash.MakeSeed(), true
	}
	mask := uint64(size - 1)
	distinct := sc.distinct[:0]
	start := int32(0)
	for _, end := range ends {
		t := joined[start:end]
		start = end
		for i := maphash.String(sc.seed, t) & mask; ; i = (i + 1) & mask {
			d := slots[i]
			if d < 0 {
				slots[i] = int32(len(distinct))
				distinct = append(distinct, termTF{t, 1})
				break
			}
			if distinct[d].t == t {
				distinct[d].tf++
				break
			}
		}
	}
	out := make([]termTF, len(distinct))
	sc.keys = sortTerms(out, distinct, sc.keys)
	// The scratch must not keep joined alive: out's strings are the
	// caller's.
	clear(distinct)
	sc.all, sc.ends, sc.distinct = all, ends, distinct[:0]
	return textTerms{out, len(ends)}
}

// sortTerms sets out to terms in byte order of their strings. It sorts
// integers made of each term's first 6 bytes and its index, then only
// the terms that share those bytes by string: sorting by string compared
// strings of mostly distinct first bytes, at a tenth of the speed. keys
// is scratch memory, returned.
func sortTerms(out, terms []termTF, keys []uint64) []uint64 {
	if len(terms) > 1<<16 {
		copy(out, terms)
		slices.SortFunc(out, func(a, b termTF) int { return strings.Compare(a.t, b.t) })
		return keys
	}
	keys = keys[:0]
	for i, x := range terms {
		var b [8]byte
		copy(b[:6], x.t) // zero-padded: 0 sorts before every byte of a term
		keys = append(keys, binary.BigEndian.Uint64(b[:])|uint64(i))
	}
	slices.Sort(keys)
	for i, k := range keys {
		out[i] = terms[k&0xffff]
	}
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>16 == keys[i]>>16 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(out[i:j], func(a, b termTF) int { return strings.Compare(a.t, b.t) })
		}
		i = j
	}
	return keys
}

// textRecordSize bounds the size of the text record of terms.
func textRecordSize(terms []termTF) int {
	n := 2 * binary.MaxVarintLen64
	for _, x := range terms {
		n += len(x.t) + 2*binary.MaxVarintLen32
	}
	return n
}

// indexText adds paper id with text p to this transaction's postings
// block, and writes its text record.
func (w *writer) indexText(id string, p *Paper) error {
	var tt textTerms
	if w.pre != nil {
		tt = w.pre.text
	} else {
		tt = textTermsOf(p, &w.scratch)
	}
	sorted, n := tt.terms, tt.length
	if w.block == 0 {
		if err := w.addCounter(counterBlocks, 1); err != nil {
			return err
		}
		w.block = w.counter[counterBlocks].cur
	}
	var rec []byte
	if w.pre != nil {
		rec = binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(w.pre.textRecord)), w.block)
		rec = append(rec, w.pre.textRecord...)
	} else {
		r := textRecord{block: w.block, length: uint64(n), terms: sorted}
		rec = r.append(make([]byte, 0, textRecordSize(sorted)))
	}
	var pid paperKeyID
	copy(pid[:], id)
	for _, x := range sorted {
		e := w.term(x.t)
		e.posts = append(e.posts, posting{pid, x.tf})
		e.df++
	}
	w.bytes += len(sorted) * (PaperIDLen/2 + 2)
	w.set(textKey(id), rec)
	return w.addCounter(counterDocLen, int64(n))
}

// unindexText takes paper id's postings out of the block its text record
// names, and its terms out of the document frequencies and lengths.
func (w *writer) unindexText(id string) error {
	v, ok, err := w.get(textKey(id))
	if err != nil || !ok {
		return err
	}
	r, err := decodeTextRecord(v)
	if err != nil {
		return fmt.Errorf("paper %s: %w", id, err)
	}
	var pid paperKeyID
	copy(pid[:], id)
	other := func(p posting) bool { return p.id == pid }
	for _, x := range r.terms {
		t := x.t
		e := w.term(t)
		e.df--
		if r.block == w.block {
			e.posts = slices.DeleteFunc(e.posts, other)
		} else {
			key := postingKey(t, r.block)
			ps, seen := w.edits[string(key)]
			if !seen {
				var err error
				if ps, err = w.postings(key, t, r.block); err != nil {
					return err
				}
				w.entries++
				w.bytes += len(key) + len(ps)*(PaperIDLen/2+2) + 20
			}
			w.edits[string(key)] = slices.DeleteFunc(ps, other)
		}
	}
	return w.addCounter(counterDocLen, -int64(r.length))
}

// postings returns a copy of the postings block at key (term t, number b),
// as the pipeline's last transaction left it when it wrote it.
func (w *writer) postings(key []byte, t string, b uint64) ([]posting, error) {
	if p := w.prev; p != nil {
		if b == p.block {
			if e := p.terms[t]; e != nil {
				return slices.Clone(e.posts), nil
			}
			return nil, nil
		}
		if ps, ok := p.edits[string(key)]; ok {
			return slices.Clone(ps), nil
		}
	}
	v, err := w.txn.Get(key)
	if err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
		return nil, err
	}
	var ps []posting
	if err := decodePostings(v, func(p posting) bool { ps = append(ps, p); return true }); err != nil {
		return nil, fmt.Errorf("term %q block %d: %w", t, b, err)
	}
	return ps, nil
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
func (w *writer) putEntity(e Entity, id string) error {
	ed, err := w.entity(id)
	if err != nil {
		return err
	}
	exists := ed.rec != nil
	if !exists {
		ed.rec = &Entity{Kind: e.Kind, Name: e.Name}
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
		if a != rec.Name && !slices.Contains(rec.Aliases, a) && Slug(a) != "" {
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
		if Slug(b) == "" || pid == id {
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
		if err := w.putEntity(Entity{Kind: e.Kind, Name: b}, w.ids.of(e.Kind, b)); err != nil {
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
			ed.rec = new(Entity)
			if err := json.Unmarshal(val, ed.rec); err != nil {
				return nil, fmt.Errorf("entity %s: decode stored record: %w", id, err)
			}
		}
	}
	w.entities[id] = ed
	return ed, nil
}

// indexName adds name to the name index (0x07) of entity id, in its
// normalised and slug forms.
func (w *writer) indexName(name, id string) error {
	norm := normName(name)
	if norm != "" {
		if err := w.mark(nameKey(norm, id)); err != nil {
			return err
		}
	}
	if slug := Slug(name); slug != "" && slug != norm {
		return w.mark(nameKey(slug, id))
	}
	return nil
}

// kvTxn is what a writer reads and writes through: a Badger transaction
// (badgerTxn) for PutPapers, a sorted run for a Loader. Get returns a copy
// of the value, or an error wrapping badger.ErrKeyNotFound.
type kvTxn interface {
	Get(key []byte) ([]byte, error)
	Set(key, val []byte) error
	Delete(key []byte) error
}

type badgerTxn struct{ *badger.Txn }

func (t badgerTxn) Get(key []byte) ([]byte, error) { return getValue(t.Txn, key) }

// kvUint64 returns the big-endian uint64 at key in txn; absent is zero.
func kvUint64(txn kvTxn, key []byte) (uint64, error) {
	v, err := txn.Get(key)
	switch {
	case errors.Is(err, badger.ErrKeyNotFound):
		return 0, nil
	case err != nil:
		return 0, err
	case len(v) != 8:
		return 0, fmt.Errorf("key %q: bad uint64 value %x", key, v)
	}
	return binary.BigEndian.Uint64(v), nil
}

// getValue returns a copy of the value at key.
func getValue(txn *badger.Txn, key []byte) ([]byte, error) {
	item, err := txn.Get(key)
	if err != nil {
		return nil, err
	}
	return item.ValueCopy(nil)
}

// getUint64 returns the big-endian uint64 at key; absent is zero.
func getUint64(txn *badger.Txn, key []byte) (uint64, error) {
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var n uint64
	err = item.Value(func(v []byte) error {
		if len(v) != 8 {
			return fmt.Errorf("key %q: bad uint64 value %x", key, v)
		}
		n = binary.BigEndian.Uint64(v)
		return nil
	})
	return n, err
}

// Paper returns the paper with id. Its Entities are read from its edges
// (0x03), sorted by kind then name, with their records (aliases, broader,
// PaperCount; Narrower is left empty). It fails with ErrBadID for an id
// that is not a paper id and ErrNotFound when there is no such paper.
func (s *Store) Paper(ctx context.Context, id string) (Paper, error) {
	if !IsPaperID(id) {
		return Paper{}, fmt.Errorf("paper %q: %w", id, ErrBadID)
	}
	var p Paper
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		p, err = readPaper(txn, id)
		return err
	})
	return p, err
}

// Papers returns the papers with ids, in the same order, filled as by
// Paper; a missing or malformed id gives nil. It serves dataloaders.
func (s *Store) Papers(ctx context.Context, ids []string) ([]*Paper, error) {
	out := make([]*Paper, len(ids))
	err := s.db.View(func(txn *badger.Txn) error {
		for i, id := range ids {
			if !IsPaperID(id) {
				continue
			}
			p, err := readPaper(txn, id)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			out[i] = &p
		}
		return nil
	})
	return out, err
}

// readPaper reads paper id and its entities in txn.
func readPaper(txn *badger.Txn, id string) (Paper, error) {
	var p Paper
	val, err := getValue(txn, paperKey(id))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return p, fmt.Errorf("paper %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("paper %s: %w", id, err)
	}
	if err := decodePaperRecord(val, &p); err != nil {
		return p, fmt.Errorf("paper %s: %w", id, err)
	}
	p.Entities = p.Entities[:0]
	ids, err := paperEdges(txn, nil, id)
	if err != nil {
		return p, err
	}
	for _, eid := range ids {
		e, err := readEntity(txn, eid, false)
		if err != nil {
			return p, fmt.Errorf("paper %s: %w", id, err)
		}
		p.Entities = append(p.Entities, e)
	}
	slices.SortFunc(p.Entities, func(a, b Entity) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	if len(p.Entities) == 0 {
		p.Entities = nil
	}
	return p, nil
}

// Entity returns the entity with id, PaperCount and Narrower filled. It
// fails with ErrBadID for an id that is not kind:name and ErrNotFound when
// there is no such entity.
func (s *Store) Entity(ctx context.Context, id string) (Entity, error) {
	if _, _, err := ParseEntityID(id); err != nil {
		return Entity{}, err
	}
	var e Entity
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		e, err = readEntity(txn, id, true)
		return err
	})
	return e, err
}

// Entities returns the entities with ids, in the same order, filled as by
// Entity; a missing or malformed id gives nil. It serves dataloaders.
func (s *Store) Entities(ctx context.Context, ids []string) ([]*Entity, error) {
	out := make([]*Entity, len(ids))
	err := s.db.View(func(txn *badger.Txn) error {
		for i, id := range ids {
			if _, _, err := ParseEntityID(id); err != nil {
				continue
			}
			e, err := readEntity(txn, id, true)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			out[i] = &e
		}
		return nil
	})
	return out, err
}

// readEntity reads entity id with its PaperCount, and its Narrower names
// when narrower is set.
func readEntity(txn *badger.Txn, id string, narrower bool) (Entity, error) {
	var e Entity
	val, err := getValue(txn, entityKey(id))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return e, fmt.Errorf("entity %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("entity %s: %w", id, err)
	}
	if err := json.Unmarshal(val, &e); err != nil {
		return e, fmt.Errorf("entity %s: decode record: %w", id, err)
	}
	n, err := getUint64(txn, degreeKey(id))
	if err != nil {
		return e, err
	}
	e.PaperCount = int(n)
	if !narrower {
		return e, nil
	}
	it := txn.NewIterator(badger.IteratorOptions{Prefix: cat2(prefixNarrower, id, "")})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		_, child, err := parseTaxonomyKey(prefixNarrower, it.Item().Key())
		if err != nil {
			return e, err
		}
		c, err := readEntity(txn, child, false)
		if err != nil {
			return e, fmt.Errorf("entity %s: narrower: %w", id, err)
		}
		e.Narrower = append(e.Narrower, c.Name)
	}
	return e, nil
}

// Lookup finds the entity of kind k whose name or alias is name,
// case-insensitively and ignoring runs of white space; failing that, one
// whose name or alias has the same slug ("GPT 4" finds "GPT-4"). It fails
// with ErrNotFound when there is none.
func (s *Store) Lookup(ctx context.Context, k Kind, name string) (Entity, error) {
	if !k.Valid() {
		return Entity{}, fmt.Errorf("lookup %q: %w: %d", name, ErrBadKind, uint8(k))
	}
	var e Entity
	err := s.db.View(func(txn *badger.Txn) error {
		for _, form := range []string{normName(name), Slug(name)} {
			if form == "" {
				continue
			}
			id, err := lookupName(txn, k, form)
			if err != nil {
				return err
			}
			if id != "" {
				e, err = readEntity(txn, id, true)
				return err
			}
		}
		return fmt.Errorf("lookup %s %q: %w", k, name, ErrNotFound)
	})
	return e, err
}

// lookupName returns the id of the first entity of kind k indexed under
// the exact normalised form, or "".
func lookupName(txn *badger.Txn, k Kind, form string) (string, error) {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: cat2(prefixName, form, "")})
	defer it.Close()
	want := k.String() + ":"
	for it.Rewind(); it.Valid(); it.Next() {
		_, id, err := parseNameKey(it.Item().Key())
		if err != nil {
			return "", err
		}
		if strings.HasPrefix(id, want) {
			return id, nil
		}
	}
	return "", nil
}

// Walk calls paper for every paper in id order (Entities filled as by
// Paper), then entity for every entity in id order (PaperCount filled),
// streaming from one snapshot: memory stays bounded whatever the database
// size. A nil callback skips its half; an error from a callback stops the
// walk and is returned.
func (s *Store) Walk(ctx context.Context, paper func(Paper) error, entity func(Entity) error) error {
	return s.db.View(func(txn *badger.Txn) error {
		if paper != nil {
			err := scanPrefix(ctx, txn, []byte{prefixPaper}, func(k []byte) error {
				p, err := readPaper(txn, string(k[1:]))
				if err != nil {
					return err
				}
				return paper(p)
			})
			if err != nil {
				return err
			}
		}
		if entity == nil {
			return nil
		}
		return scanPrefix(ctx, txn, []byte{prefixEntity}, func(k []byte) error {
			e, err := readEntity(txn, string(k[1:]), false)
			if err != nil {
				return err
			}
			return entity(e)
		})
	})
}

// scanPrefix calls fn with every key under prefix, in order, without
// prefetching values. The key is valid only during the call.
func scanPrefix(ctx context.Context, txn *badger.Txn, prefix []byte, fn func(key []byte) error) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(it.Item().Key()); err != nil {
			return err
		}
	}
	return nil
}
