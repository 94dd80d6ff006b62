package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// smallDisk mounts a tmpfs of size bytes for the test, skipping when the
// test may not mount one (not root, or in a container without the right).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (needs root): %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file into dir leaving about left bytes free.
func fill(t *testing.T, dir string, left int64) string {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, "filler")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := int64(st.Bavail)*int64(st.Bsize) - left
	chunk := make([]byte, 1<<20)
	for ; n > 0; n -= int64(len(chunk)) {
		if _, err := f.Write(chunk[:min(int64(len(chunk)), n)]); err != nil {
			t.Fatal(err)
		}
	}
	return f.Name()
}

// TestFullDisk fills a small tmpfs under a store: writes fail with an
// error naming the directory and its free space, never a SIGBUS (which
// would kill this test binary), and the database opens whole once space
// is freed.
func TestFullDisk(t *testing.T) {
	disk := smallDisk(t, "192m")
	dir := filepath.Join(disk, "db")
	ctx := context.Background()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	filler := fill(t, disk, spaceMargin+8<<20)
	papers := corpus.Papers(3, 20000, 60)
	stored := 0
	for i := 0; i < len(papers); i += 500 {
		_, err = s.PutPapers(ctx, papers[i:min(i+500, len(papers))])
		if err != nil {
			break
		}
		stored = min(i+500, len(papers))
	}
	t.Logf("after %d papers: %v", stored, err)
	if !errors.Is(err, graph.ErrNoSpace) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "MiB free") {
		t.Errorf("PutPapers on a full disk: %v; want ErrNoSpace naming %s and its free space", err, dir)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Fuller still: the margin is not left, and no writer may open.
	filler2 := fill(t, disk, spaceMargin/2)
	if rw, err := Open(dir, Options{}); !errors.Is(err, graph.ErrNoSpace) {
		t.Errorf("Open read-write on the full disk: %v; want ErrNoSpace", err)
		if err == nil {
			rw.Close()
		}
	}
	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("Open read-only on the full disk: %v", err)
	}
	if st, err := ro.Stats(ctx); err != nil || st.Papers < stored {
		t.Errorf("read-only on the full disk: %+v, %v; want at least the %d papers stored", st, err, stored)
	}
	ro.Close()

	for _, f := range []string{filler, filler2} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if st := reopenChecked(t, dir); st.Papers < stored {
		t.Errorf("after freeing space: %d papers; want at least the %d acknowledged", st.Papers, stored)
	}
}

// loader returns a Loader of a new store in dir holding papers, not
// finished.
func loader(t *testing.T, dir string, papers []graph.Paper) (*Store, *Loader) {
	t.Helper()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.NewLoader()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(papers); i += 1000 {
		if err := l.Add(context.Background(), papers[i:min(i+1000, len(papers))]); err != nil {
			t.Fatal(err)
		}
	}
	return s, l
}

// TestLoadFullDisk loads more papers than a small tmpfs has room for:
// refused before its final write when the disk is full already, and
// stopped in the middle of it when another writer fills the disk after
// the first check. Either way the error names the directory and its free
// space, nothing is written, and the database opens and checks clean.
func TestLoadFullDisk(t *testing.T) {
	papers := corpus.Papers(5, 20000, 60) // about 52 MiB estimated
	tests := []struct {
		name string
		// finish ends the load on the disk disk: fill leaves the free
		// space it is given.
		finish func(t *testing.T, l *Loader, disk string, fill func(left int64)) error
	}{
		{"full before", func(t *testing.T, l *Loader, disk string, fill func(int64)) error {
			fill(spaceMargin + 16<<20)
			_, err := l.Finish(context.Background())
			return err
		}},
		{"filled during", func(t *testing.T, l *Loader, disk string, fill func(int64)) error {
			room, err := l.space()
			if err != nil {
				t.Fatalf("space before filling: %v", err)
			}
			// Another writer takes the space the check saw.
			fill(spaceMargin + 16<<20)
			err = l.write(context.Background(), room)
			l.Close()
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			disk := smallDisk(t, "320m")
			dir := filepath.Join(disk, "db")
			s, l := loader(t, dir, papers)
			var fillers []string
			err := tt.finish(t, l, disk, func(left int64) { fillers = append(fillers, fill(t, disk, left)) })
			t.Logf("load: %v", err)
			if !errors.Is(err, graph.ErrNoSpace) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "MiB free") {
				t.Errorf("load on a full disk: %v; want ErrNoSpace naming %s and its free space", err, dir)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			for _, f := range fillers {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
			if st := reopenChecked(t, dir); st.Papers != 0 {
				t.Errorf("after the refused load: %d papers; want 0", st.Papers)
			}
		})
	}
}
