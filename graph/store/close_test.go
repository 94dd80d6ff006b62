package store

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/papergraph/papergraph/corpus"
)

// TestCloseDiskGone removes a database's directory under a store holding
// unflushed writes, as a failing disk does: Close returns within its
// timeout with an error saying what was not written, where Badger alone
// retries forever.
func TestCloseDiskGone(t *testing.T) {
	dir := t.TempDir()
	const timeout = time.Second
	s, err := Open(dir, Options{closeTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutPapers(context.Background(), corpus.Papers(7, 20, 10)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = s.Close()
	took := time.Since(start)
	t.Logf("Close returned after %v: %v", took.Round(time.Millisecond), err)
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Close() = %v; want an error naming %s", err, dir)
	}
	if took > timeout+5*time.Second {
		t.Errorf("Close took %v; want about its %v timeout", took, timeout)
	}
}
