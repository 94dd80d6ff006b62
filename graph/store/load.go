package store

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/ristretto/v2/z"
	"golang.org/x/sync/errgroup"

	"github.com/papergraph/papergraph/graph"
)

// A Loader fills an empty Store several times faster than PutPapers, for
// a first ingest. PutPapers pays, for each of the ~35 keys of a paper, an
// insert into Badger's memtable (a skiplist) and, later, its share of
// compactions that rewrite every level; together about two thirds of its
// time. A Loader writes the same keys and values, computed by the same
// writer, into sorted runs of its own (memory, spilled to files under the
// database directory), merges them once at Finish and hands the result to
// Badger's StreamWriter, which builds the tables of the last level
// directly: each key is written once.
//
// The entity side of the edges (0x04), 70% of a load's keys, stays out of
// the runs: an edgeTable lists each entity's papers by number, 4 bytes an
// edge, and makes their keys in order at the merge. Sorted as byte keys
// run by run, they cost a third of a load. The entities' degrees (0x05,
// 0x06) are counted from it, and the terms' document frequencies (0x0B)
// taken from the Loader's counters, once, at the end, rather than
// rewritten at each batch. Each batch is shared by three goroutines (see
// add), and the merge writes five streams at once (see write).
//
// Papers given twice (the same id from two sources) are set aside and
// merged by PutPapers after the load, so they get PutPapers's merge
// semantics exactly.
//
// A load is all or nothing: Finish writes the marker key 0x00 "loading"
// first and deletes it last, and Open empties a database it finds with the
// marker, or with keys but no format version (a crash while the first
// tables were written), which can only be an interrupted load of an empty
// database. No other writer may use the Store until Finish or Close
// returns, and reads see an empty or partial database meanwhile.
type Loader struct {
	s      *Store
	dir    string // spilled runs
	ints   map[string]uint64
	cached map[string]*graph.Entity
	seen   map[paperKeyID]struct{}
	ids    idMemo
	dups   []graph.Paper
	run    *memRun // the writer's
	// textRun is the text writer's: its keys are not the run's.
	textRun *memRun
	runs    []spilledRun
	edges   *edgeTable
	// spilling is the outcome of the spill under way, if any: a run is
	// sorted and written on another core while the next one fills.
	spilling chan spillResult
	res      graph.PutResult
	failed   error // set by a failed Add: Finish writes nothing
	closed   bool
	// runBytes is loadRunBytes; tests make it small to spill often.
	runBytes int
}

// loadRunBytes is the size of a run held in memory before it is spilled
// to a file: the memory a load needs beyond the writer's caches.
const loadRunBytes = 128 << 20

// loadDirPattern names the directories of spilled runs, in the database
// directory; Open removes any left by a crash.
const loadDirPattern = ".load-*"

// NewLoader starts a load into s, which must be empty (else the error
// wraps ErrNotEmpty). It holds s's write lock until Finish or Close.
func (s *Store) NewLoader() (*Loader, error) {
	s.writeMu.Lock()
	empty := true
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if !bytes.Equal(it.Item().Key(), versionKey()) {
				empty = false
				break
			}
		}
		return nil
	})
	if err == nil && !empty {
		err = fmt.Errorf("load %s: %w", s.dir, graph.ErrNotEmpty)
	}
	var dir string
	if err == nil {
		dir, err = os.MkdirTemp(s.dir, loadDirPattern)
	}
	if err != nil {
		s.writeMu.Unlock()
		return nil, err
	}
	s.beginWrite()
	edges := &edgeTable{entities: make(map[string]int32)}
	return &Loader{
		s: s, dir: dir,
		ints:    make(map[string]uint64),
		cached:  make(map[string]*graph.Entity),
		seen:    make(map[paperKeyID]struct{}),
		ids:     newIDMemo(),
		run:     &memRun{edges: edges},
		textRun: &memRun{edges: edges},
		edges:   edges,

		runBytes: loadRunBytes,
	}, nil
}

// Add computes the keys of papers, as PutPapers would write them. It fails
// before using any of them if one is invalid (see ValidatePaper). It keeps
// nothing of papers after it returns but copies of the papers given again,
// for Finish.
func (l *Loader) Add(ctx context.Context, papers []graph.Paper) error {
	if l.closed {
		return errors.New("load: Add after Finish or Close")
	}
	for i := range papers {
		if err := graph.ValidatePaper(&papers[i]); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if l.failed != nil {
		return l.failed
	}
	if err := l.add(papers); err != nil {
		// Part of the batch may be in the run without the counters and
		// records it updates: the load cannot be finished.
		l.failed = fmt.Errorf("load abandoned: %w", err)
		return l.failed
	}
	return nil
}

// add writes papers into the run.
func (l *Loader) add(papers []graph.Paper) error {
	// Papers given twice are set aside for Finish.
	skip := make([]bool, len(papers))
	for i := range papers {
		var k paperKeyID
		copy(k[:], papers[i].ID)
		if _, dup := l.seen[k]; dup {
			l.dups = append(l.dups, papers[i])
			skip[i] = true
			continue
		}
		l.seen[k] = struct{}{}
	}
	// Three goroutines share the batch, on as many cores as there are. A
	// helper tokenizes and encodes papers ahead (prepare), which needs no
	// state; a paper goes to whichever goroutine claims it first. The
	// writer writes each paper's record, entities and edges into the run;
	// a second writer indexes its text into a run of its own. The
	// writers' states are disjoint but for ints, which they only read
	// until both are done.
	pre := make([]preparedPaper, len(papers))
	stop := make(chan struct{})
	defer close(stop)
	claim := func(i int, ids idMemo, sc *termScratch) bool {
		if !pre[i].state.CompareAndSwap(0, 1) {
			return false
		}
		pre[i].p = prepare(&papers[i], ids, sc)
		pre[i].state.Store(2)
		return true
	}
	get := func(i int, ids idMemo, sc *termScratch) *prePaper {
		if !claim(i, ids, sc) {
			for pre[i].state.Load() != 2 {
				runtime.Gosched()
			}
		}
		return &pre[i].p
	}
	go func() {
		ids := newIDMemo()
		var sc termScratch
		for i := range papers {
			select {
			case <-stop:
				return
			default:
			}
			if !skip[i] {
				claim(i, ids, &sc)
			}
		}
	}()
	tw := newWriter(l.textRun, l.ints, l.cached, nil)
	tw.deferDocFreq = true
	textDone := make(chan error, 1)
	go func() {
		ids := newIDMemo()
		for i := range papers {
			if skip[i] {
				continue
			}
			tw.pre = get(i, ids, &tw.scratch)
			if err := tw.indexText(papers[i].ID, tw.pre.rec); err != nil {
				textDone <- err
				return
			}
		}
		tw.pre = nil
		textDone <- tw.flush()
	}()
	w := newWriter(l.run, l.ints, l.cached, nil)
	w.ids = l.ids
	w.skipText = true
	var err error
	for i := range papers {
		if skip[i] {
			continue
		}
		w.pre = get(i, w.ids, &w.scratch)
		if _, err = w.putPaper(&papers[i]); err != nil {
			break
		}
		l.res.Added++
	}
	w.pre = nil
	if err == nil {
		err = w.flush()
	}
	if terr := <-textDone; err == nil {
		err = terr
	}
	if err != nil {
		return err
	}
	w.commit()
	tw.commit()
	if l.run.bytes+l.textRun.bytes >= l.runBytes {
		return l.spill(false)
	}
	return nil
}

// preparedPaper is a paper prepared by whichever of a Loader's goroutines
// claims it first: state 0 unclaimed, 1 claimed, 2 prepared.
type preparedPaper struct {
	state atomic.Int32
	p     prePaper
}

// spill starts writing the runs in memory (the writer's and the text
// writer's, whose keys are disjoint) to files, sorted, once the last
// spill is done: at most two pairs of runs are in memory. After the last
// spill no run fills again.
func (l *Loader) spill(last bool) error {
	if err := l.waitSpill(); err != nil {
		return err
	}
	runs := []*memRun{l.run, l.textRun}
	var names []string
	for range runs {
		names = append(names, filepath.Join(l.dir, fmt.Sprintf("run-%06d", len(l.runs))))
		l.runs = append(l.runs, spilledRun{name: names[len(names)-1]})
	}
	// Runs are about the same size: the next ones take the room of these
	// ones' entries at once, rather than growing to it.
	size, textSize := len(l.run.ents), len(l.textRun.ents)
	if last {
		size, textSize = 0, 0
	}
	l.run = &memRun{edges: l.edges, ents: make([]runEntry, 0, size)}
	l.textRun = &memRun{edges: l.edges, ents: make([]runEntry, 0, textSize)}
	done := make(chan spillResult, 1)
	l.spilling = done
	go func() {
		var r spillResult
		for i, run := range runs {
			split, err := run.writeFile(names[i])
			if err != nil {
				r.err = err
				break
			}
			r.splits = append(r.splits, split)
		}
		done <- r
	}()
	return nil
}

// spilledRun is a run written to a file.
type spilledRun struct {
	name  string
	split int64 // where the keys after the entity edges start
}

type spillResult struct {
	splits []int64 // of the runs spilled, the last ones of Loader.runs
	err    error
}

// space returns the check of the final write's space, after checking
// that the disk can take its estimate (an error naming the directory,
// its free space and the estimate if not). The tables take what the runs
// hold, spilled and in memory (keys and values, and 40 bytes a key in
// memory), and the entity edge keys, 70% of the keys, which only the
// merge makes; the runs in memory are spilled first, and the spilled
// runs stay until the write is done. Badger's tables are
// Snappy-compressed, and the estimate of the tables is above what they
// take: 52 MiB for the 29 MiB that 20,000 generated papers took.
func (l *Loader) space() (*loadSpace, error) {
	inMemory := int64(l.run.bytes + l.textRun.bytes)
	need := dirSize(l.dir) + inMemory + l.edges.keyBytes() + inMemory
	r := &loadSpace{dir: l.s.dir, need: need, start: allocated(l.s.dir)}
	if err := checkSpace(r.dir, r.need); err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	return r, nil
}

// waitSpill waits for the spill under way, if any.
func (l *Loader) waitSpill() error {
	if l.spilling == nil {
		return nil
	}
	r := <-l.spilling
	l.spilling = nil
	if r.err != nil {
		return fmt.Errorf("spill run: %w", r.err)
	}
	for i, split := range r.splits {
		l.runs[len(l.runs)-len(r.splits)+i].split = split
	}
	return nil
}

// Finish writes everything added into the store, then merges the papers
// added twice with PutPapers. The result counts the papers added, and the
// repeated ones as PutPapers counts them.
func (l *Loader) Finish(ctx context.Context) (graph.PutResult, error) {
	if l.closed {
		return graph.PutResult{}, errors.New("load: Finish after Finish or Close")
	}
	// l.failed already says "load:"; only write's errors need it.
	err := l.failed
	var room *loadSpace
	if err == nil {
		room, err = l.space()
	}
	if err == nil {
		if err = l.write(ctx, room); err != nil {
			err = fmt.Errorf("load: %w", err)
		}
	}
	l.Close()
	if err != nil {
		return graph.PutResult{}, err
	}
	res := l.res
	if len(l.dups) > 0 {
		r, err := l.s.PutPapers(ctx, l.dups)
		res.Updated += r.Updated
		res.Unchanged += r.Unchanged
		res.Added += r.Added
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// Close ends the load, releasing the store; after Finish it does nothing.
// A load closed before Finish leaves the store empty.
func (l *Loader) Close() error {
	if l.closed {
		return nil
	}
	l.closed = true
	l.waitSpill()
	l.run, l.textRun, l.edges = nil, nil, nil
	err := os.RemoveAll(l.dir)
	l.s.endWrite(nil, false)
	l.s.writeMu.Unlock()
	return err
}

// keyBytes returns the bytes of the entity edge keys (0x04) that each
// writes, which the runs do not hold.
func (t *edgeTable) keyBytes() int64 {
	var n int64
	for e, ps := range t.papers {
		n += int64(len(ps)) * int64(len(t.names[e])+2+graph.PaperIDLen)
	}
	return n
}

// addDegrees writes into the run the degree (0x05) and top (0x06) keys
// of every entity with edges: a load counts degrees here, once, rather
// than paper by paper.
func (t *edgeTable) addDegrees(r *memRun) {
	for e, id := range t.names {
		n := uint64(len(t.papers[e]))
		r.Set(degreeKey(id), binary.BigEndian.AppendUint64(nil, n))
		r.Set(topKey(t.kinds[e], n, id), []byte{})
	}
}

// write merges the runs into the store through a StreamWriter, as
// streams of disjoint key ranges written at once: the keys before the
// entity edges (0x04), the edges in two, and the keys after them. A
// StreamWriter decodes what it is given before it takes its lock, so the
// streams share the cores; one stream left one core idle for most of the
// merge.
func (l *Loader) write(ctx context.Context, room *loadSpace) (err error) {
	l.edges.addDegrees(l.run)
	for k, v := range l.ints {
		if keyPrefix(k) == prefixDocFreq && v > 0 {
			l.textRun.Set([]byte(k), binary.BigEndian.AppendUint64(nil, v))
		}
	}
	if l.run.len()+l.textRun.len() > 0 {
		if err := l.spill(true); err != nil {
			return err
		}
	}
	if err := l.waitSpill(); err != nil {
		return err
	}
	// What only adding papers needs is garbage now: the merge, the
	// largest part of a load of 1M papers, went past ingest's heap limit.
	l.ints, l.cached, l.seen, l.ids = nil, nil, nil, nil
	sw := l.s.db.NewStreamWriter()
	if err := sw.Prepare(); err != nil {
		return err
	}
	// From here a failure leaves part of the load in the database: empty
	// it again, as it was, format version included, which DropAll drops
	// with the rest and `check` asks for.
	defer func() {
		if err != nil {
			if derr := l.s.db.DropAll(); derr != nil {
				err = errors.Join(err, derr)
			} else if verr := l.s.checkVersion(false); verr != nil {
				err = errors.Join(err, verr)
			}
		}
	}()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return l.writeRuns(newKVStream(gctx, sw, 1, room), false) })
	// The edges, 70% of the keys, are two streams.
	order, mid := l.edges.sorted()
	g.Go(func() error { return l.writeEdges(newKVStream(gctx, sw, 2, room), order[:mid]) })
	g.Go(func() error { return l.writeEdges(newKVStream(gctx, sw, 4, room), order[mid:]) })
	g.Go(func() error { return l.writeRuns(newKVStream(gctx, sw, 3, room), true) })
	if err := g.Wait(); err != nil {
		sw.Cancel()
		return err
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return l.s.db.Update(func(txn *badger.Txn) error { return txn.Delete(loadingKey()) })
}

// writeRuns merges the runs' keys before the entity edges, or those
// after them (high), into ks, and closes it.
func (l *Loader) writeRuns(ks *kvStream, high bool) (err error) {
	defer func() {
		if cerr := ks.close(); cerr != nil {
			err = cerr
		}
	}()
	var m runMerger
	defer m.close()
	if err := m.open(l.runs, high); err != nil {
		return err
	}
	if !high {
		// Both sort before every other key, as a StreamWriter needs.
		ks.add(loadingKey(), []byte{})
		ks.add(versionKey(), binary.BigEndian.AppendUint32(nil, formatVersion))
	}
	return m.each(ks.add)
}

// writeEdges writes the edges of the entities order into ks, and closes
// it.
func (l *Loader) writeEdges(ks *kvStream, order []int32) (err error) {
	defer func() {
		if cerr := ks.close(); cerr != nil {
			err = cerr
		}
	}()
	return l.edges.each(order, func(key []byte) error { return ks.add(key, nil) })
}

// kvStream hands a StreamWriter the KV messages of a merge in buffers,
// written on another goroutine: the merge and the StreamWriter's decoding
// of the messages take about as long as each other.
type kvStream struct {
	ctx    context.Context // checked at each full buffer
	room   *loadSpace      // checked at each full buffer too
	sw     *badger.StreamWriter
	stream uint32
	buf    *z.Buffer // filling
	full   chan *z.Buffer
	free   chan *z.Buffer
	done   chan error
	failed atomic.Bool
}

// errStreamFailed stops a merge whose StreamWriter failed; kvStream.close
// returns why.
var errStreamFailed = errors.New("stream writer failed")

func newKVStream(ctx context.Context, sw *badger.StreamWriter, stream uint32, room *loadSpace) *kvStream {
	s := &kvStream{ctx: ctx, room: room, sw: sw, stream: stream, full: make(chan *z.Buffer), free: make(chan *z.Buffer, 2), done: make(chan error, 1)}
	for range 2 {
		s.free <- z.NewBuffer(8<<20, "papergraph.Loader")
	}
	s.buf = <-s.free
	go func() {
		var err error
		for b := range s.full {
			if err == nil {
				if err = s.sw.Write(b); err != nil {
					s.failed.Store(true)
				}
			}
			b.Reset()
			s.free <- b
		}
		s.done <- err
	}()
	return s
}

// add appends a key and its value.
func (s *kvStream) add(key, val []byte) error {
	appendKV(s.buf, key, val, 1, s.stream)
	if s.buf.LenNoPadding() < 4<<20 {
		return nil
	}
	if s.failed.Load() {
		return errStreamFailed
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if err := s.room.check(); err != nil {
		return err
	}
	s.full <- s.buf
	s.buf = <-s.free
	return nil
}

// close writes what is left, waits for the writes and frees the buffers.
// It returns the StreamWriter's first error.
func (s *kvStream) close() error {
	s.full <- s.buf
	close(s.full)
	err := <-s.done
	for range 2 {
		(<-s.free).Release()
	}
	return err
}

// appendKV appends to buf the key and value as the protocol-buffer KV
// message (badger/v4/pb) of a StreamWriter at version in stream, as
// badger.KVToBuffer does. Written out here since the fields are three:
// the reflective encoder cost a third of a load's final merge.
func appendKV(buf *z.Buffer, key, val []byte, version uint64, stream uint32) {
	const (
		tagKey     = 1<<3 | 2  // field 1, length-delimited
		tagValue   = 2<<3 | 2  // field 2, length-delimited
		tagVersion = 4<<3 | 0  // field 4, varint
		tagStream  = 10<<3 | 0 // field 10, varint
	)
	n := 1 + uvarintLen(uint64(len(key))) + len(key)
	if len(val) > 0 {
		n += 1 + uvarintLen(uint64(len(val))) + len(val)
	}
	if version != 0 {
		n += 1 + uvarintLen(version)
	}
	if stream != 0 {
		n += 1 + uvarintLen(uint64(stream))
	}
	dst := buf.SliceAllocate(n)
	b := dst[:0:n]
	b = append(b, tagKey)
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	if len(val) > 0 {
		b = append(b, tagValue)
		b = binary.AppendUvarint(b, uint64(len(val)))
		b = append(b, val...)
	}
	if version != 0 {
		b = append(b, tagVersion)
		b = binary.AppendUvarint(b, version)
	}
	if stream != 0 {
		b = append(b, tagStream)
		b = binary.AppendUvarint(b, uint64(stream))
	}
	if len(b) != n || &b[0] != &dst[0] {
		panic("appendKV: size miscounted")
	}
}

func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// resetInterruptedLoad empties db when it holds an interrupted load (see
// Loader) and removes spilled runs left in dir; it reports whether it
// emptied db.
func resetInterruptedLoad(db *badger.DB, dir string) (bool, error) {
	stale, _ := filepath.Glob(filepath.Join(dir, loadDirPattern))
	for _, d := range stale {
		if err := os.RemoveAll(d); err != nil {
			return false, err
		}
	}
	interrupted := false
	err := db.View(func(txn *badger.Txn) error {
		if _, err := txn.Get(loadingKey()); err == nil {
			interrupted = true
			return nil
		} else if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		_, err := txn.Get(versionKey())
		if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
		defer it.Close()
		it.Rewind()
		interrupted = it.Valid()
		return nil
	})
	if err != nil || !interrupted {
		return false, err
	}
	return true, db.DropAll()
}

// memRun is a run of writes in memory, in the order they were made: the
// kvTxn of a Loader's writer. Every read finds nothing, which is right for
// a load: the store was empty, papers given twice are set aside, and what
// earlier batches wrote that a writer reads back (entity records,
// counters) comes from the Loader's caches, which are never dropped.
type memRun struct {
	ents   []runEntry
	chunks [][]byte // the keys and values, each key followed by its value
	bytes  int
	edges  *edgeTable // the Loader's
}

// runEntry is a write of a run. It holds no pointer, so that the
// garbage collector skips the run's entries, and the key's first bytes,
// so that sorting compares integers and seldom reads keys.
type runEntry struct {
	prefix uint64 // the key's first 8 bytes, big-endian, zero-padded
	chunk  uint32
	off    uint32 // of the key in chunks[chunk]
	keyLen uint32
	valLen uint32
	seq    int32 // order of the write in the run
	del    bool
}

// runChunk is the size of the chunks of a run's keys and values.
const runChunk = 1 << 20

// errRunMiss is what every read of a run returns: one value, as a load
// reads several keys per paper.
var errRunMiss = fmt.Errorf("load run: %w", badger.ErrKeyNotFound)

func (r *memRun) Get(key []byte) ([]byte, error) { return nil, errRunMiss }

func (r *memRun) Set(key, val []byte) error {
	r.put(key, val, false)
	r.bytes += len(key) + len(val) + 40
	return nil
}

func (r *memRun) Delete(key []byte) error {
	if keyPrefix(key) == prefixEntityEdge {
		// A load never has an edge to take back (see memRun); one in the
		// edge table could not be.
		return fmt.Errorf("load run: delete of entity edge %q", key)
	}
	r.put(key, nil, true)
	r.bytes += len(key) + 40
	return nil
}

// put appends the write of key and val to the run, copying them into the
// last chunk, or a new one if they do not fit.
func (r *memRun) put(key, val []byte, del bool) {
	n := len(key) + len(val)
	if len(r.chunks) == 0 || cap(r.chunks[len(r.chunks)-1])-len(r.chunks[len(r.chunks)-1]) < n {
		r.chunks = append(r.chunks, make([]byte, 0, max(runChunk, n)))
	}
	c := len(r.chunks) - 1
	off := len(r.chunks[c])
	r.chunks[c] = append(append(r.chunks[c], key...), val...)
	var p [8]byte
	copy(p[:], key)
	r.ents = append(r.ents, runEntry{
		prefix: binary.BigEndian.Uint64(p[:]),
		chunk:  uint32(c), off: uint32(off), keyLen: uint32(len(key)), valLen: uint32(len(val)),
		seq: int32(len(r.ents)), del: del,
	})
}

func (r *memRun) key(e *runEntry) []byte {
	return r.chunks[e.chunk][e.off : e.off+e.keyLen]
}

func (r *memRun) val(e *runEntry) []byte {
	end := e.off + e.keyLen
	return r.chunks[e.chunk][end : end+e.valLen]
}

// compareKeys orders entries by key.
func (r *memRun) compareKeys(a, b *runEntry) int {
	if a.prefix != b.prefix {
		return cmp.Compare(a.prefix, b.prefix)
	}
	return bytes.Compare(r.key(a), r.key(b))
}

func (r *memRun) len() int { return len(r.ents) }

func (r *memRun) addEdge(entityID string, kind graph.Kind, paperID string) {
	r.edges.add(entityID, kind, paperID)
}

// edgeTable is a Loader's entity edges (0x04): the papers of each entity,
// by number.
type edgeTable struct {
	entities map[string]int32 // entity id -> number
	names    []string         // number -> entity id
	kinds    []graph.Kind     // number -> kind
	papers   [][]int32        // entity number -> paper numbers
	ids      []paperKeyID     // paper number -> id
	// byID lists the paper numbers in id order, and rank is the inverse:
	// sorted, each entity's papers are sorted as integers.
	byID, rank []int32
	last       string // the id of the last paper numbered
}

// add records the edge from entity entityID to paper paperID. A paper's
// edges come together, so its number is the last one's or the next.
func (t *edgeTable) add(entityID string, kind graph.Kind, paperID string) {
	if len(t.ids) == 0 || paperID != t.last {
		var k paperKeyID
		copy(k[:], paperID)
		t.ids = append(t.ids, k)
		t.last = paperID
	}
	e, ok := t.entities[entityID]
	if !ok {
		e = int32(len(t.names))
		t.entities[entityID] = e
		t.names = append(t.names, entityID)
		t.kinds = append(t.kinds, kind)
		t.papers = append(t.papers, nil)
	}
	t.papers[e] = append(t.papers[e], int32(len(t.ids)-1))
}

// sorted returns the numbers of the entities in id order, and the
// index in it that splits the edges in halves. It ranks the papers by id
// for each.
func (t *edgeTable) sorted() (order []int32, mid int) {
	order = make([]int32, len(t.names))
	total := 0
	for i := range order {
		order[i] = int32(i)
		total += len(t.papers[i])
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(t.names[a], t.names[b]) })
	t.byID = make([]int32, len(t.ids))
	for i := range t.byID {
		t.byID[i] = int32(i)
	}
	slices.SortFunc(t.byID, func(a, b int32) int { return bytes.Compare(t.ids[a][:], t.ids[b][:]) })
	t.rank = make([]int32, len(t.ids))
	for r, p := range t.byID {
		t.rank[p] = int32(r)
	}
	for n := 0; mid < len(order) && 2*n < total; mid++ {
		n += len(t.papers[order[mid]])
	}
	return order, mid
}

// each calls fn with the keys of the edges of the entities order, in
// order, in a buffer fn must not keep. An entity id never holds the
// separator 0x00, so ordering by entity id, then by paper id, is the
// keys' byte order. After sorted, and once: it turns the entities' paper
// numbers into ranks, in place.
func (t *edgeTable) each(order []int32, fn func(key []byte) error) error {
	var key []byte
	for _, e := range order {
		ps := t.papers[e]
		for i, p := range ps {
			ps[i] = t.rank[p]
		}
		slices.Sort(ps)
		key = appendEntityEdgePrefix(key[:0], t.names[e])
		n := len(key)
		for i, r := range ps {
			id := &t.ids[t.byID[r]]
			if i > 0 && *id == t.ids[t.byID[ps[i-1]]] {
				continue
			}
			key = append(key[:n], id[:]...)
			if err := fn(key); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeFile writes the run to a new file name, sorted, and returns
// where in it the keys after the entity edges start.
func (r *memRun) writeFile(name string) (split int64, err error) {
	f, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	split, err = r.writeSorted(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return split, err
}

// writeSorted writes the run in key order, the last write of each key
// only, as: uvarint key length, key, a byte 1 for a delete else 0, then
// for a set uvarint value length and value. It returns the offset of the
// first key after the entity edges, which a run never holds (they are in
// the edge table).
func (r *memRun) writeSorted(w io.Writer) (split int64, err error) {
	slices.SortFunc(r.ents, func(a, b runEntry) int {
		return cmp.Or(r.compareKeys(&a, &b), cmp.Compare(a.seq, b.seq))
	})
	var hdr []byte
	var off int64
	split = -1
	for i := range r.ents {
		e := &r.ents[i]
		if i+1 < len(r.ents) && r.compareKeys(e, &r.ents[i+1]) == 0 {
			continue
		}
		key := r.key(e)
		switch {
		case keyPrefix(key) == prefixEntityEdge:
			return 0, fmt.Errorf("entity edge %q in a run", key)
		case keyPrefix(key) > prefixEntityEdge && split < 0:
			split = off
		}
		hdr = appendRunHeader(hdr[:0], key, e.del, int(e.valLen))
		if _, err := w.Write(hdr); err != nil {
			return 0, err
		}
		off += int64(len(hdr))
		if !e.del {
			if _, err := w.Write(r.val(e)); err != nil {
				return 0, err
			}
			off += int64(e.valLen)
		}
	}
	if split < 0 {
		split = off
	}
	return split, nil
}

// appendRunHeader appends to b what precedes a value in a run: the key's
// uvarint length and bytes, the delete flag, and for a set the value's
// uvarint length.
func appendRunHeader(b, key []byte, del bool, valLen int) []byte {
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	if del {
		return append(b, 1)
	}
	b = append(b, 0)
	return binary.AppendUvarint(b, uint64(valLen))
}

// runReader reads a spilled run.
type runReader struct {
	name string
	c    io.Closer
	r    *bufio.Reader
	seq  int // later runs win
	key  []byte
	val  []byte
	del  bool
	done bool
}

func (rr *runReader) next() error {
	n, err := binary.ReadUvarint(rr.r)
	if errors.Is(err, io.EOF) {
		rr.done = true
		return nil
	}
	if err != nil {
		return err
	}
	rr.key = slices.Grow(rr.key[:0], int(n))[:n]
	if _, err := io.ReadFull(rr.r, rr.key); err != nil {
		return err
	}
	flag, err := rr.r.ReadByte()
	if err != nil {
		return err
	}
	rr.del = flag == 1
	if rr.del {
		return nil
	}
	if n, err = binary.ReadUvarint(rr.r); err != nil {
		return err
	}
	rr.val = slices.Grow(rr.val[:0], int(n))[:n]
	_, err = io.ReadFull(rr.r, rr.val)
	return err
}

// runMerger merges spilled runs in key order; of the writes of one key,
// the latest run's wins.
type runMerger []*runReader

func (m runMerger) Len() int { return len(m) }
func (m runMerger) Less(i, j int) bool {
	return cmp.Or(bytes.Compare(m[i].key, m[j].key), cmp.Compare(m[j].seq, m[i].seq)) < 0
}
func (m runMerger) Swap(i, j int) { m[i], m[j] = m[j], m[i] }
func (m *runMerger) Push(x any)   { *m = append(*m, x.(*runReader)) }
func (m *runMerger) Pop() any {
	old := *m
	x := old[len(old)-1]
	*m = old[:len(old)-1]
	return x
}

// runReadBuffer is the read buffer of a run in a merge. A load of 1M
// papers merges 80 runs, each read by two streams.
const runReadBuffer = 256 << 10

// open adds the runs' keys before the entity edges, or those after them
// (high); the later runs are the newer.
func (m *runMerger) open(runs []spilledRun, high bool) error {
	for i, run := range runs {
		f, err := os.Open(run.name)
		if err != nil {
			return err
		}
		var r io.Reader = io.NewSectionReader(f, 0, run.split)
		if high {
			r = io.NewSectionReader(f, run.split, math.MaxInt64-run.split)
		}
		if err := m.add(&runReader{name: run.name, c: f, r: bufio.NewReaderSize(r, runReadBuffer), seq: i}); err != nil {
			return err
		}
	}
	return nil
}

// add adds rr to the merge, or closes it if it is empty or fails.
func (m *runMerger) add(rr *runReader) error {
	err := rr.next()
	if err != nil || rr.done {
		rr.c.Close()
		if err != nil {
			return fmt.Errorf("run %s: %w", rr.name, err)
		}
		return nil
	}
	heap.Push(m, rr)
	return nil
}

// each calls fn with each key and its latest value, in key order, deleted
// keys left out.
func (m *runMerger) each(fn func(key, val []byte) error) error {
	var last []byte
	first := true
	for m.Len() > 0 {
		rr := (*m)[0]
		// The first of equal keys is the latest run's; the others are
		// older writes, skipped.
		if first || !bytes.Equal(rr.key, last) {
			first = false
			last = append(last[:0], rr.key...)
			if !rr.del {
				if err := fn(rr.key, rr.val); err != nil {
					return err
				}
			}
		}
		if err := rr.next(); err != nil {
			return fmt.Errorf("run %s: %w", rr.name, err)
		}
		if rr.done {
			rr.c.Close()
			heap.Pop(m)
		} else {
			heap.Fix(m, 0)
		}
	}
	return nil
}

func (m *runMerger) close() {
	for _, rr := range *m {
		rr.c.Close()
	}
}
