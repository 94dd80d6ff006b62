package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
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
	// closeTimeout, when positive, replaces the bound of Close, so that
	// tests of a failing disk run quickly.
	closeTimeout time.Duration
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
	entities map[string]*graph.Entity
	// cache serves traversals between writes (see readCache).
	cache *readCache
	// share is Sharing's index, nil until built; shareWriting is set while
	// a write is under way. shareMu guards both (see Store.sharingIndex).
	shareMu      sync.RWMutex
	share        *shareIndex
	shareWriting bool
	// fixes caches the corrections (0x0F) that PutPapers applies, nil
	// until read; writeMu guards it, and a curation drops it.
	fixes corrections
	// gen is odd while PutPapers runs and grows with each call; see
	// Generation.
	gen atomic.Uint64
	// closeTimeout is Options.closeTimeout.
	closeTimeout time.Duration
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
		if err := checkSpace(dir, 0); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		if err := removeEmptyLogs(dir, log); err != nil {
			return nil, fmt.Errorf("open store %s: %w", dir, err)
		}
	}
	if opts.ReadOnly && needsRecovery(dir) {
		if err := recoverCrashed(bo, log); err != nil {
			return nil, fmt.Errorf("open store %s: %w", dir, err)
		}
	}
	db, err := badger.Open(bo)
	if err != nil {
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("open store %s: %w: another papergraph process has it open", dir, graph.ErrLocked)
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
	s := &Store{db: db, dir: dir, log: log, ints: make(map[string]uint64), entities: make(map[string]*graph.Entity), cache: newReadCache(), closeTimeout: opts.closeTimeout}
	if err := s.checkVersion(opts.ReadOnly); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	return s, nil
}

// removeEmptyLogs removes the empty memtable (*.mem) and value log
// (*.vlog) files of the database in dir. Badger creates such a file, then
// sizes it; a process killed in between leaves an empty file, which
// Badger's Open then refuses ("while opening memtables ... Create a new
// file", "Open existing file: ... 000001.vlog ... Create a new file"). An
// empty file holds no write, and nothing points into it, so removing it
// loses nothing.
func removeEmptyLogs(dir string, log *slog.Logger) error {
	for _, pattern := range []string{"*.mem", "*.vlog"} {
		files, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return err
		}
		for _, name := range files {
			fi, err := os.Stat(name)
			if err != nil || fi.Size() != 0 {
				continue
			}
			if err := os.Remove(name); err != nil {
				return err
			}
			log.Warn("removed an empty log file left by a crash", "file", name)
		}
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
		return fmt.Errorf("%w: format %d, this papergraph reads format %d or older", graph.ErrNewerFormat, stored, formatVersion)
	}
	if found && stored < formatVersion {
		return fmt.Errorf("%w: format %d, this papergraph reads format %d; build it again: remove %s (or pick a new --db directory) and ingest the input files again", graph.ErrOlderFormat, stored, formatVersion, s.dir)
	}
	return nil
}

// Close flushes and closes the database.
//
// It returns within the close timeout (10 s) even when the disk fails:
// Badger's Close retries flushing its memtables every second, forever, so
// that a server whose data directory went away ignored SIGTERM for an
// hour. Past the timeout, Close gives up on Badger (its goroutines are
// left to the process's exit) and says what was not written.
func (s *Store) Close() error {
	done := make(chan error, 1)
	go func() { done <- s.db.Close() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("close store %s: %w", s.dir, err)
		}
		return nil
	case <-time.After(cmp.Or(s.closeTimeout, closeTimeout)):
		return fmt.Errorf("close store %s: the writes held in memory (Badger's memtables) could not be flushed to disk within %v; the log says why; they are still in the directory's *.mem logs if those survived",
			s.dir, cmp.Or(s.closeTimeout, closeTimeout))
	}
}

// closeTimeout bounds Close.
const closeTimeout = 10 * time.Second

// CollectGarbage reclaims the space of values that updates replaced:
// records and long postings blocks live in Badger's value log (see
// valueThreshold), where an update leaves the old value behind until a
// log file is rewritten. It rewrites each file at least half garbage and
// returns when none is left; on a store only ever added to, it costs a
// sample of one file.
func (s *Store) CollectGarbage(ctx context.Context) error {
	for ctx.Err() == nil {
		// A rewrite copies what is live in one file, at most half of it,
		// before the file is deleted.
		if err := checkSpace(s.dir, largestValueLog(s.dir)/2); err != nil {
			return fmt.Errorf("collect garbage: %w", err)
		}
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
