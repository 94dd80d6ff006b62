package store

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"

	"github.com/papergraph/papergraph/graph"
)

// spaceMargin is the free space every write leaves: Badger writes through
// files mapped in memory (memtable logs, value logs, tables), and a write
// into a mapped page the full disk cannot back is a SIGBUS, which kills
// the process with a goroutine dump and no message (4 of 7 full-disk
// runs). Checking the free space first turns that into an error.
//
// Each write checks for its own bytes beside the margin: PutPapers and a
// curation one transaction (at most 15% of a memtable), a load's final
// write its estimate (see Loader.space), again every 4 MiB of each
// stream, garbage collection half a value log file. The margin is for
// what Badger writes on its own, in the background: the memtable's log
// (mapped at twice memTableSize, filled up to one memtable) and its flush
// to a level-0 table of about one memtable, which Badger sizes, maps and
// then fills. Not covered: a compaction writes its new tables before it
// deletes the old ones, up to the size of the levels it merges (several
// memtables for level 0), and a process that fills the disk between a
// check and Badger's write still makes that write fault; neither can be
// closed from outside Badger, which extends its files with ftruncate
// (sparse, no error) rather than fallocate, and writes into them through
// memory maps, where a full disk is a SIGBUS in Badger's goroutine.
const spaceMargin = 2 * memTableSize

// checkSpace returns an error wrapping graph.ErrNoSpace, naming dir and
// its free space, when the file system of dir has less than need bytes
// free beyond spaceMargin. A file system that cannot say is not checked.
func checkSpace(dir string, need int64) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return nil
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	if free >= need+spaceMargin {
		return nil
	}
	return fmt.Errorf("%w: %s has %s free; writing needs %s (%s for this write, %s kept for Badger's logs and tables): free some space and run again",
		graph.ErrNoSpace, dir, mib(free), mib(need+spaceMargin), mib(need), mib(spaceMargin))
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// loadSpace keeps a load's final write within the free space: Finish
// refuses a load whose estimated bytes the disk cannot hold beside
// spaceMargin, and the write checks again at each buffer it hands Badger
// (every 4 MiB of each stream) that what remains of it still fits, so
// that space taken meanwhile by another writer ends the load with an
// error rather than a SIGBUS in the middle of a table.
type loadSpace struct {
	dir   string
	need  int64 // bytes the write adds, estimated
	start int64 // bytes allocated under dir when it began
}

// check returns an error wrapping graph.ErrNoSpace when what remains of
// the write, its estimate less what the directory grew by, does not fit
// beside spaceMargin. Safe for concurrent use.
func (r *loadSpace) check() error {
	grown := allocated(r.dir) - r.start
	return checkSpace(r.dir, max(0, r.need-grown))
}

// allocated returns the bytes of disk the files under dir take. Unlike
// their sizes, it does not count the holes of sparse files: Badger sizes
// its mapped logs at twice their capacity and fills them as it writes.
func allocated(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		var st syscall.Stat_t
		if syscall.Stat(path, &st) == nil {
			n += st.Blocks * 512 // st_blocks counts 512-byte units whatever the block size
		}
		return nil
	})
	return n
}

// largestValueLog returns the bytes of disk that the largest of Badger's
// value log files in dir takes, or 0.
func largestValueLog(dir string) int64 {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.vlog"))
	var n int64
	for _, name := range logs {
		var st syscall.Stat_t
		if syscall.Stat(name, &st) == nil {
			n = max(n, st.Blocks*512)
		}
	}
	return n
}

// dirSize returns the bytes of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
