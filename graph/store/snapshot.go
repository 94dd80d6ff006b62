package store

import (
	"context"

	"github.com/dgraph-io/badger/v4"
)

// snapshotKey is the context key of a snapshot (see Snapshot).
type snapshotKey struct{}

// snapshot is one read transaction shared by the reads of a context.
type snapshot struct {
	db  *badger.DB
	txn *badger.Txn
}

// Snapshot returns a context in which every read of s sees the same state
// of the database, that of the moment Snapshot is called, and the function
// that releases that state, to be called once the reads are done (reads
// after it fail). Without it each read is a snapshot of its own: a
// GraphQL response asking for stats and a page of papers while addPapers
// ran disagreed with itself in one read of ten. Writes (PutPapers) are
// not affected; reads in the context do not see them.
//
// Reads of one snapshot may run concurrently: a read-only Badger
// transaction keeps no state that reads change.
func (s *Store) Snapshot(ctx context.Context) (context.Context, func()) {
	txn := s.db.NewTransaction(false)
	return context.WithValue(ctx, snapshotKey{}, &snapshot{db: s.db, txn: txn}), txn.Discard
}

// view runs fn in ctx's snapshot of s, or in a read transaction of its
// own, unless ctx has ended: the one snapshot of a read.
func (s *Store) view(ctx context.Context, fn func(txn *badger.Txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if snap, ok := ctx.Value(snapshotKey{}).(*snapshot); ok && snap.db == s.db {
		return fn(snap.txn)
	}
	return s.db.View(fn)
}
