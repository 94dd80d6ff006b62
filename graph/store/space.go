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
// runs). Checking the free space first turns that into an error. A
// memtable's log and its flush to a table take about two memtables.
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
