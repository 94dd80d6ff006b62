package store

import (
	"context"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Walk calls paper for every paper in id order (Entities filled as by
// Paper), then entity for every entity in id order (PaperCount filled),
// streaming from one snapshot: memory stays bounded whatever the database
// size. A nil callback skips its half; an error from a callback stops the
// walk and is returned.
func (s *Store) Walk(ctx context.Context, paper func(graph.Paper) error, entity func(graph.Entity) error) error {
	return s.view(ctx, func(txn *badger.Txn) error { return walk(ctx, txn, paper, entity) })
}

// walk serves Walk in txn. It reads Badger, not the read cache: a walk
// over the whole store would only push out what queries keep there.
func walk(ctx context.Context, txn *badger.Txn, paper func(graph.Paper) error, entity func(graph.Entity) error) error {
	if paper != nil {
		err := scanPrefix(ctx, txn, allKeys(prefixPaper), func(k []byte) error {
			p, err := readPaper(txn, nil, parseIDKey(k))
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
	return scanPrefix(ctx, txn, allKeys(prefixEntity), func(k []byte) error {
		e, err := readEntity(txn, parseIDKey(k))
		if err != nil {
			return err
		}
		return entity(e)
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
