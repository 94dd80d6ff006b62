package store

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// needsRecovery reports whether the database in dir was left by a writer
// that did not close it: Badger removes its memtables' logs (*.mem) on
// Close, and a killed writer leaves them behind, preallocated past their
// last entry (or empty, when killed between creating and sizing one).
// Badger replays them only where it may truncate them: read-only it
// refuses the database ("Log truncate required to run DB"). A load
// killed while it streamed its tables leaves no memtable but its spill
// directories (loadDirPattern), and a database that only a read-write
// open empties (see resetInterruptedLoad).
func needsRecovery(dir string) bool {
	mems, _ := filepath.Glob(filepath.Join(dir, "*.mem"))
	loads, _ := filepath.Glob(filepath.Join(dir, loadDirPattern))
	vlogs, _ := filepath.Glob(filepath.Join(dir, "*.vlog"))
	return len(mems) > 0 || len(loads) > 0 || slices.ContainsFunc(vlogs, func(name string) bool {
		fi, err := os.Stat(name)
		return err == nil && fi.Size() == 0 // see removeEmptyLogs
	})
}

// recoverCrashed opens the database of bo read-write and closes it again,
// so that Badger replays the logs a killed writer left, truncates them
// and writes their entries to tables, and an interrupted first load is
// emptied: what any read-write open does first, and nothing more. A
// read-only command (check, stats, export) right after a crash then sees
// what the next writer would.
func recoverCrashed(bo badger.Options, log *slog.Logger) error {
	if err := checkSpace(bo.Dir, 0); err != nil {
		return fmt.Errorf("recover after a crash: %w", err)
	}
	if err := removeEmptyLogs(bo.Dir, log); err != nil {
		return err
	}
	db, err := badger.Open(bo.WithReadOnly(false))
	if err != nil {
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			// A running writer's logs look like a crashed one's: the
			// database is in use, not crashed.
			return fmt.Errorf("%w: another papergraph process has it open", graph.ErrLocked)
		}
		return fmt.Errorf("recover after a crash (it needs write access once): %w", err)
	}
	reset, err := resetInterruptedLoad(db, bo.Dir)
	if err == nil {
		// A database emptied (here, or by a load killed as it began)
		// gets its format version, as a read-write Open writes it.
		err = (&Store{db: db}).checkVersion(false)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("recover after a crash: %w", err)
	}
	log.Warn("recovered a database its writer did not close", "dir", bo.Dir, "emptied_interrupted_load", reset)
	return nil
}
