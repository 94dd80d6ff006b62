package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

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
func (s *Store) Paper(ctx context.Context, id string) (graph.Paper, error) {
	if !graph.IsPaperID(id) {
		return graph.Paper{}, fmt.Errorf("paper %q: %w", id, graph.ErrBadID)
	}
	var p graph.Paper
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		p, err = readPaper(txn, s.cache, id)
		return err
	})
	return p, err
}

// Papers returns the papers with ids, in the same order, filled as by
// Paper; a missing or malformed id gives nil. It serves dataloaders.
func (s *Store) Papers(ctx context.Context, ids []string) ([]*graph.Paper, error) {
	out := make([]*graph.Paper, len(ids))
	err := s.view(ctx, func(txn *badger.Txn) error {
		for i, id := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !graph.IsPaperID(id) {
				continue
			}
			p, err := readPaper(txn, s.cache, id)
			if errors.Is(err, graph.ErrNotFound) {
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

// readPaper reads paper id and its entities in txn through c (nil reads
// Badger only), as Paper returns them.
func readPaper(txn *badger.Txn, c *readCache, id string) (graph.Paper, error) {
	p, err := readPaperRecord(txn, c, id)
	if err != nil {
		return p, err
	}
	p.Entities = p.Entities[:0]
	ids, err := paperEdges(txn, c, id)
	if err != nil {
		return p, err
	}
	for _, eid := range ids {
		e, err := c.entityCopy(txn, eid)
		if err != nil {
			return p, fmt.Errorf("paper %s: %w", id, err)
		}
		p.Entities = append(p.Entities, e)
	}
	slices.SortFunc(p.Entities, func(a, b graph.Entity) int {
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
func (s *Store) Entity(ctx context.Context, id string) (graph.Entity, error) {
	if _, _, err := graph.ParseEntityID(id); err != nil {
		return graph.Entity{}, err
	}
	var e graph.Entity
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		e, err = readEntityNarrower(txn, s.cache, id)
		return err
	})
	return e, err
}

// Entities returns the entities with ids, in the same order, filled as by
// Entity; a missing or malformed id gives nil. It serves dataloaders.
func (s *Store) Entities(ctx context.Context, ids []string) ([]*graph.Entity, error) {
	out := make([]*graph.Entity, len(ids))
	err := s.view(ctx, func(txn *badger.Txn) error {
		for i, id := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			if _, _, err := graph.ParseEntityID(id); err != nil {
				continue
			}
			e, err := readEntityNarrower(txn, s.cache, id)
			if errors.Is(err, graph.ErrNotFound) {
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

// readEntity reads entity id's record with its PaperCount from Badger;
// readers go through readCache.entity, which calls it on a miss.
func readEntity(txn *badger.Txn, id string) (graph.Entity, error) {
	var e graph.Entity
	val, err := getValue(txn, entityKey(id))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return e, fmt.Errorf("entity %s: %w", id, graph.ErrNotFound)
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
	return e, nil
}

// readEntityNarrower reads entity id through c, as Entity returns it: with
// the names of its narrower entities (0x09).
func readEntityNarrower(txn *badger.Txn, c *readCache, id string) (graph.Entity, error) {
	e, err := c.entityCopy(txn, id)
	if err != nil {
		return e, err
	}
	it := txn.NewIterator(badger.IteratorOptions{Prefix: taxonomyPrefix(prefixNarrower, id)})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		_, child, err := parseTaxonomyKey(prefixNarrower, it.Item().Key())
		if err != nil {
			return e, err
		}
		ch, err := c.entity(txn, child)
		if err != nil {
			return e, fmt.Errorf("entity %s: narrower: %w", id, err)
		}
		e.Narrower = append(e.Narrower, ch.Name)
	}
	return e, nil
}

// Lookup finds the entity of kind k whose name or alias is name,
// case-insensitively and ignoring runs of white space; failing that, one
// whose name or alias has the same slug ("GPT 4" finds "GPT-4"). It fails
// with ErrNotFound when there is none.
func (s *Store) Lookup(ctx context.Context, k graph.Kind, name string) (graph.Entity, error) {
	if !k.Valid() {
		return graph.Entity{}, fmt.Errorf("lookup %q: %w: %d", name, graph.ErrBadKind, uint8(k))
	}
	var e graph.Entity
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		e, err = lookup(txn, s.cache, k, name)
		return err
	})
	return e, err
}

// lookup serves Lookup in txn.
func lookup(txn *badger.Txn, c *readCache, k graph.Kind, name string) (graph.Entity, error) {
	for _, form := range []string{graph.NormName(name), graph.Slug(name)} {
		if form == "" {
			continue
		}
		id, err := lookupName(txn, k, form)
		if err != nil {
			return graph.Entity{}, err
		}
		if id != "" {
			return readEntityNarrower(txn, c, id)
		}
	}
	return graph.Entity{}, fmt.Errorf("lookup %s %q: %w", k, name, graph.ErrNotFound)
}

// lookupName returns the id of the first entity of kind k indexed under
// the exact normalised form, or "".
func lookupName(txn *badger.Txn, k graph.Kind, form string) (string, error) {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: nameExactPrefix(form)})
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

// keyScanner reads many prefixes in one read transaction through one
// key-only iterator. Costs measured at 100k papers: positioning it (Seek)
// costs about 35µs, as it positions a cursor in every level of the LSM
// tree, about what opening a new prefix iterator costs; each further key
// about 0.4µs; a point read (Get) about 10µs, as bloom filters skip most
// tables. So traversals scan long prefixes (postings), and check single
// edges or read records by point reads.
//
// The iterator is opened by the first scan, not before: papersSharing
// from the sharing index, without family, scans nothing, and opening one
// (an iterator over every table) and closing it was about 2% of its CPU.
type keyScanner struct {
	txn   *badger.Txn
	it    *badger.Iterator // nil until the first scan
	cache *readCache       // nil reads Badger only
}

func newKeyScanner(txn *badger.Txn, c *readCache) *keyScanner {
	return &keyScanner{txn: txn, cache: c}
}

func (sc *keyScanner) close() {
	if sc.it != nil {
		sc.it.Close()
	}
}

// scan calls fn with each key under prefix from start (the first key under
// prefix when start is nil), in order, until fn returns false. The key and
// item are valid only during the call.
func (sc *keyScanner) scan(prefix, start []byte, fn func(key []byte, item *badger.Item) bool) {
	if start == nil {
		start = prefix
	}
	if sc.it == nil {
		sc.it = sc.txn.NewIterator(badger.IteratorOptions{})
	}
	for sc.it.Seek(start); sc.it.ValidForPrefix(prefix); sc.it.Next() {
		item := sc.it.Item()
		if !fn(item.Key(), item) {
			return
		}
	}
}

// has reports whether key exists.
func has(txn *badger.Txn, key []byte) (bool, error) {
	_, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// paperEdges returns the ids of the entities paper pid links to (0x03),
// in byte order; none when it has none or does not exist.
// A nil c reads Badger only.
func paperEdges(txn *badger.Txn, c *readCache, pid string) ([]string, error) {
	v, err := c.edgesOf(txn, pid)
	if err != nil {
		return nil, err
	}
	ids, err := decodeEdges(v)
	if err != nil {
		return nil, fmt.Errorf("paper %s: %w", pid, err)
	}
	return ids, nil
}

// hasEdge reports whether paper pid links to entity eid.
func hasEdge(txn *badger.Txn, c *readCache, pid, eid string) (bool, error) {
	ids, err := paperEdges(txn, c, pid)
	if err != nil {
		return false, err
	}
	_, ok := slices.BinarySearch(ids, eid)
	return ok, nil
}

// readPaperRecord reads the stored record of paper id (0x01), entity
// references as stored (kind and name).
func readPaperRecord(txn *badger.Txn, c *readCache, id string) (graph.Paper, error) {
	return readPaperParts(txn, c, id, 0)
}

// readPaperParts is readPaperRecord with the parts in omit left empty.
func readPaperParts(txn *badger.Txn, c *readCache, id string, omit graph.PaperParts) (graph.Paper, error) {
	var p graph.Paper
	v, ok, err := c.record(txn, id)
	if err == nil && !ok {
		return p, fmt.Errorf("paper %s: %w", id, graph.ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("paper %s: %w", id, err)
	}
	// v is the cache's, or a copy now kept there: never modified.
	if err := decodeFrozenRecord(v, &p, omit); err != nil {
		return p, fmt.Errorf("paper %s: %w", id, err)
	}
	return p, nil
}

// checkNode validates a node id and reports whether it names a paper. It
// fails with ErrBadID for a malformed id and ErrNotFound for a missing node.
func checkNode(txn *badger.Txn, id string) (paper bool, err error) {
	key := paperKey(id)
	if !graph.IsPaperID(id) {
		if _, _, err := graph.ParseEntityID(id); err != nil {
			return false, err
		}
		key = entityKey(id)
	}
	ok, err := has(txn, key)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, fmt.Errorf("node %s: %w", id, graph.ErrNotFound)
	}
	return graph.IsPaperID(id), nil
}

// readNode reads a paper record or an entity record (PaperCount filled).
func readNode(txn *badger.Txn, c *readCache, id string) (graph.Node, error) {
	if graph.IsPaperID(id) {
		p, err := readPaperRecord(txn, c, id)
		return graph.Node{Paper: &p}, err
	}
	e, err := c.entity(txn, id)
	return graph.Node{Entity: &e}, err
}

// entityKind returns the kind named by an entity id's prefix, or 0.
func entityKind(id string) graph.Kind {
	name, _, ok := strings.Cut(id, ":")
	if !ok {
		return 0
	}
	for _, k := range graph.Kinds {
		if k.String() == name {
			return k
		}
	}
	return 0
}

// kindSet returns the set of kinds in ks; empty ks means def (or all kinds
// when def is nil). It fails with ErrBadKind for an invalid kind.
func kindSet(ks []graph.Kind, def []graph.Kind) ([5]bool, error) {
	var set [5]bool
	if len(ks) == 0 {
		ks = def
		if ks == nil {
			ks = graph.Kinds
		}
	}
	for _, k := range ks {
		if !k.Valid() {
			return set, fmt.Errorf("%w: %d", graph.ErrBadKind, uint8(k))
		}
		set[k] = true
	}
	return set, nil
}
