package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// Curation: deleting papers, merging an entity into another and adding
// an alias, each in one transaction written by a writer, as PutPapers
// writes, so that edges, degrees, postings and counters stay exact. A
// merge or an alias is also kept as a correction (0x0F, see keys.go): the
// id it takes away resolves to the entity it goes to, and PutPapers
// applies the corrections to every paper it is given, so a later ingest of
// papers mentioning the merged entity links them to the one it was merged
// into.

// corrections maps a corrected entity id to the entity (kind and name) it
// resolves to (see graph.Corrections).
type corrections = graph.Corrections

// corrections returns the database's corrections, read once and kept
// until a curation changes them; writeMu is held.
func (s *Store) corrections() (corrections, error) {
	if s.fixes != nil {
		return s.fixes, nil
	}
	fixes := corrections{}
	err := s.db.View(func(txn *badger.Txn) error { return readCorrections(txn, fixes) })
	if err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	s.fixes = fixes
	return fixes, nil
}

// Corrections returns the corrections the database holds (see
// graph.Corrections): what an RDF export carries to Dgraph, so that a
// bulk-loaded cluster keeps the merges and aliases made here.
func (s *Store) Corrections(ctx context.Context) (graph.Corrections, error) {
	fixes := corrections{}
	if err := s.view(ctx, func(txn *badger.Txn) error { return readCorrections(txn, fixes) }); err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	return fixes, nil
}

// readCorrections adds the corrections stored in txn to into.
func readCorrections(txn *badger.Txn, into corrections) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: allKeys(prefixCorrection), PrefetchValues: true})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		from := parseIDKey(it.Item().Key())
		to, err := it.Item().ValueCopy(nil)
		if err != nil {
			return err
		}
		e, err := readEntity(txn, string(to))
		if err != nil {
			return fmt.Errorf("correction %s -> %s: %w", from, to, err)
		}
		into[from] = graph.Entity{Kind: e.Kind, Name: e.Name}
	}
	return nil
}

// curate runs fn with a writer on one write transaction, flushes it, runs
// read (when not nil) on the transaction, which then sees the writes, and
// commits. It holds writeMu and marks a write under way for Generation
// and the read cache, as PutPapers does; the writer's caches (Store.ints,
// Store.entities) and the corrections are dropped afterwards, since a
// curation deletes what they may hold.
func (s *Store) curate(ctx context.Context, fn func(w *writer, txn *badger.Txn) error, read func(txn *badger.Txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.beginWrite()
	// A curation rewrites edges outside the writer's edge log: the
	// sharing index is dropped and built again by the next papersSharing,
	// which at 100k papers costs about a second, once per curation.
	defer s.endWrite(nil, false)
	fixes, err := s.corrections()
	if err != nil {
		return err
	}
	defer func() {
		clear(s.ints)
		clear(s.entities)
		s.fixes = nil
	}()
	txn := s.db.NewTransaction(true)
	defer txn.Discard()
	w := newWriter(badgerTxn{txn}, s.ints, s.entities, nil)
	w.fixes = maps.Clone(fixes)
	err = func() error {
		if err := fn(w, txn); err != nil {
			return err
		}
		if err := w.flush(); err != nil {
			return err
		}
		if read != nil {
			if err := read(txn); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		// As PutPapers does: a write the full disk cannot back is a SIGBUS.
		if err := checkSpace(s.dir, int64(w.bytes)); err != nil {
			return err
		}
		return txn.Commit()
	}()
	if errors.Is(err, badger.ErrTxnTooBig) {
		// A curation is one transaction, all or nothing: nothing was
		// written.
		return fmt.Errorf("%w: the change is more than one transaction holds; nothing was changed", err)
	}
	return err
}

// DeletePapers deletes the papers with ids (each at most once) and what
// is derived from them: their edges, degrees, postings, text records,
// source index entries and counters. An entity of theirs left with no
// paper, no narrower entity and no correction resolving to it is deleted
// too, and then likewise its parents in the taxonomy, so that the graph
// is as if the papers had never been ingested (but for aliases they
// brought to entities that stay). It deletes nothing and fails with
// ErrBadID for an id that is not a paper id and with ErrNotFound for one
// that is not stored. It returns the number of papers deleted.
func (s *Store) DeletePapers(ctx context.Context, ids []string) (int, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	for _, id := range ids {
		if !graph.IsPaperID(id) {
			return 0, fmt.Errorf("delete paper %q: %w", id, graph.ErrBadID)
		}
	}
	err := s.curate(ctx, func(w *writer, txn *badger.Txn) error {
		var linked []string
		for _, id := range ids {
			es, err := w.deletePaper(id)
			if err != nil {
				return err
			}
			linked = append(linked, es...)
		}
		if err := w.deleteSources(txn, ids); err != nil {
			return err
		}
		return w.prune(txn, linked)
	}, nil)
	if err != nil {
		return 0, fmt.Errorf("delete papers: %w", err)
	}
	return len(ids), nil
}

// deletePaper deletes paper id's record, edges and text, and returns the
// ids of the entities it linked to.
func (w *writer) deletePaper(id string) ([]string, error) {
	val, ok, err := w.get(paperKey(id))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("paper %s: %w", id, graph.ErrNotFound)
	}
	var old graph.Paper
	if err := decodePaperRecord(val, &old); err != nil {
		return nil, fmt.Errorf("paper %s: decode stored record: %w", id, err)
	}
	_, edges, _ := refs(old.Entities, w.ids)
	linked := make([]string, len(edges))
	for i, x := range edges {
		linked[i] = x.id
		if err := w.remove(entityEdgeKey(x.id, id)); err != nil {
			return nil, err
		}
		if err := w.addDegree(x.id, x.kind, -1); err != nil {
			return nil, err
		}
	}
	if len(edges) > 0 {
		if err := w.addCounter(counterEdges, -int64(len(edges))); err != nil {
			return nil, err
		}
		if err := w.remove(edgesKey(id)); err != nil {
			return nil, err
		}
	}
	if err := w.unindexText(id); err != nil {
		return nil, err
	}
	for _, k := range [][]byte{textKey(id), paperKey(id)} {
		if err := w.del(k); err != nil {
			return nil, err
		}
	}
	return linked, w.addCounter(counterPapers, -1)
}

// prune deletes each entity of ids left with no paper, no narrower entity
// and no correction resolving to it, then its parents left so.
func (w *writer) prune(txn *badger.Txn, ids []string) error {
	targets := make(map[string]bool, len(w.fixes))
	for _, t := range w.fixes {
		targets[w.ids.of(t.Kind, t.Name)] = true
	}
	done := make(map[string]bool)
	for len(ids) > 0 {
		id := ids[0]
		ids = ids[1:]
		if done[id] || targets[id] {
			continue
		}
		done[id] = true
		var degree uint64
		if d := w.degree[id]; d != nil {
			degree = d.cur
		} else {
			var err error
			if degree, err = kvUint64(w.txn, degreeKey(id)); err != nil {
				return err
			}
		}
		if degree > 0 {
			continue
		}
		// The iterator of a write transaction sees its deletions.
		children, err := scanIDs(txn, taxonomyPrefix(prefixNarrower, id))
		if err != nil {
			return err
		}
		if len(children) > 0 {
			continue
		}
		parents, err := w.dropEntity(txn, id)
		if err != nil {
			return err
		}
		ids = append(ids, parents...)
	}
	return nil
}

// dropEntity deletes entity id's record, names and edges to its parents,
// and returns the parents' ids. Its papers and children must have gone.
func (w *writer) dropEntity(txn *badger.Txn, id string) ([]string, error) {
	ed, err := w.entity(id)
	if err != nil || ed.rec == nil {
		return nil, err
	}
	rec := ed.rec
	parents, err := scanIDs(txn, taxonomyPrefix(prefixBroader, id))
	if err != nil {
		return nil, err
	}
	for _, pid := range parents {
		if err := w.remove(broaderKey(id, pid), narrowerKey(pid, id)); err != nil {
			return nil, err
		}
	}
	for _, n := range append([]string{rec.Name}, rec.Aliases...) {
		if err := w.remove(nameIndexKeys(n, id, &w.scratch.stems)...); err != nil {
			return nil, err
		}
	}
	delete(w.entities, id)
	if err := w.remove(entityKey(id)); err != nil {
		return nil, err
	}
	return parents, w.addCounter(entitiesCounter(rec.Kind), -1)
}

// deleteSources deletes the source index entries (0x0D) of the papers
// ids, sorted: a paper read from several sources has one for each, and
// its record names only one, so they are found by a scan.
func (w *writer) deleteSources(txn *badger.Txn, ids []string) error {
	var keys [][]byte
	it := txn.NewIterator(badger.IteratorOptions{Prefix: allKeys(prefixSource), PrefetchValues: true})
	for it.Rewind(); it.Valid(); it.Next() {
		err := it.Item().Value(func(v []byte) error {
			if _, found := slices.BinarySearch(ids, string(v)); found {
				keys = append(keys, it.Item().KeyCopy(nil))
			}
			return nil
		})
		if err != nil {
			it.Close()
			return err
		}
	}
	it.Close()
	for _, k := range keys {
		if err := w.del(k); err != nil {
			return err
		}
	}
	return nil
}

// del deletes key, which PutPapers reads back through pending (a paper,
// text or source key): pending then says it is absent.
func (w *writer) del(key []byte) error {
	w.pending[string(key)] = pendingValue{}
	return w.remove(key)
}

// MergeEntities merges the entity from into the entity into, each an
// entity id or KIND:NAME with NAME a name or alias: every paper linked to
// from is linked to into instead, from's name and aliases become aliases
// of into, its parents in the taxonomy into's and its children into's
// (both only when the kinds agree: the taxonomy joins entities of one
// kind), and from is deleted. The merge is kept as a correction, so that
// papers ingested later that mention from are linked to into; earlier
// corrections to from now resolve to into. It returns into as Entity
// does. It fails with ErrNotFound when either entity does not exist and
// with ErrBadArgument when both are the same.
func (s *Store) MergeEntities(ctx context.Context, from, into string) (graph.Entity, error) {
	var merged graph.Entity
	var bid string
	err := s.curate(ctx, func(w *writer, txn *badger.Txn) error {
		a, err := s.resolveEntity(txn, from)
		if err != nil {
			return err
		}
		b, err := s.resolveEntity(txn, into)
		if err != nil {
			return err
		}
		if a.ID() == b.ID() {
			return fmt.Errorf("%w: %s and %s are the same entity", graph.ErrBadArgument, from, into)
		}
		bid = b.ID()
		return w.merge(txn, a.ID(), bid)
	}, func(txn *badger.Txn) error {
		var err error
		merged, err = readEntityNarrower(txn, nil, bid)
		return err
	})
	if err != nil {
		return graph.Entity{}, fmt.Errorf("merge %s into %s: %w", from, into, err)
	}
	return merged, nil
}

// merge merges entity aid into entity bid (see MergeEntities).
func (w *writer) merge(txn *badger.Txn, aid, bid string) error {
	ea, err := w.entity(aid)
	if err != nil {
		return err
	}
	eb, err := w.entity(bid)
	if err != nil {
		return err
	}
	if ea.rec == nil || eb.rec == nil {
		return fmt.Errorf("merge %s into %s: %w", aid, bid, graph.ErrNotFound)
	}
	a, b := *ea.rec, graph.Entity{Kind: eb.rec.Kind, Name: eb.rec.Name}

	// The correction, and the earlier ones to a.
	w.correct(aid, bid, b)
	for from, t := range w.fixes {
		if w.ids.of(t.Kind, t.Name) == aid {
			w.correct(from, bid, b)
		}
	}

	// Papers: each one linked to a, or to an entity below a in the
	// taxonomy (a is among its ancestors), is written again, corrected.
	pids, err := scanIDs(txn, entityEdgePrefix(aid))
	if err != nil {
		return err
	}
	below, err := descendants(txn, aid)
	if err != nil {
		return err
	}
	for _, id := range below {
		ps, err := scanIDs(txn, entityEdgePrefix(id))
		if err != nil {
			return err
		}
		pids = append(pids, ps...)
	}
	for _, pid := range slices.Compact(slices.Sorted(slices.Values(pids))) {
		v, ok, err := w.get(paperKey(pid))
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("edge %s <- %s: paper missing", aid, pid)
		}
		var p graph.Paper
		if err := decodePaperRecord(v, &p); err != nil {
			return fmt.Errorf("paper %s: decode stored record: %w", pid, err)
		}
		if _, err := w.putPaper(w.fixes.Apply(&p, w.ids.of)); err != nil {
			return err
		}
	}

	// a's names become b's aliases; a's parents b's, within a kind.
	add := graph.Entity{Kind: b.Kind, Name: b.Name, Aliases: append([]string{a.Name}, a.Aliases...)}
	if a.Kind == b.Kind {
		for _, p := range a.Broader {
			if w.ids.of(a.Kind, p) != bid {
				add.Broader = append(add.Broader, p)
			}
		}
	}
	if err := w.putEntity(add, bid); err != nil {
		return err
	}

	// a's children move to b.
	children, err := scanIDs(txn, taxonomyPrefix(prefixNarrower, aid))
	if err != nil {
		return err
	}
	for _, cid := range children {
		if err := w.remove(broaderKey(cid, aid), narrowerKey(aid, cid)); err != nil {
			return err
		}
		ec, err := w.entity(cid)
		if err != nil {
			return err
		}
		if ec.rec == nil {
			return fmt.Errorf("narrower %s -> %s: entity missing", aid, cid)
		}
		rec := ec.rec
		// A copy: the record's slices may be Store.entities's.
		rec.Broader = slices.DeleteFunc(slices.Clone(rec.Broader), func(n string) bool { return w.ids.of(rec.Kind, n) == aid })
		if a.Kind == b.Kind && cid != bid && !slices.ContainsFunc(rec.Broader, func(n string) bool { return w.ids.of(rec.Kind, n) == bid }) {
			rec.Broader = append(rec.Broader, b.Name)
			if err := w.mark(broaderKey(cid, bid), narrowerKey(bid, cid)); err != nil {
				return err
			}
		}
		w.touch(ec, cid)
	}

	// a goes, and with it its parents' edges to it. Its degree is zero
	// now: the papers moved.
	_, err = w.dropEntity(txn, aid)
	return err
}

// descendants returns the entities below entity id in the taxonomy
// (0x09, transitively), each once.
func descendants(txn *badger.Txn, id string) ([]string, error) {
	seen := map[string]bool{id: true}
	var out []string
	for next := []string{id}; len(next) > 0; {
		cur := next[0]
		next = next[1:]
		children, err := scanIDs(txn, taxonomyPrefix(prefixNarrower, cur))
		if err != nil {
			return nil, err
		}
		for _, c := range children {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				next = append(next, c)
			}
		}
	}
	return out, nil
}

// correct records that entity id from resolves to entity to, which is t.
func (w *writer) correct(from, to string, t graph.Entity) {
	w.set(correctionKey(from), []byte(to))
	w.fixes[from] = t
}

// touch marks an entity's record as changed by this transaction.
func (w *writer) touch(ed *entityEdit, id string) {
	if !ed.dirty {
		ed.dirty = true
		w.entries++
		w.bytes += len(id) + 200
	}
}

// scanIDs returns what follows prefix in each key under it: the paper ids
// of an entity's edges (0x04) or the entity ids of its taxonomy (0x08,
// 0x09).
func scanIDs(txn *badger.Txn, prefix []byte) ([]string, error) {
	var ids []string
	err := scanPrefix(context.Background(), txn, prefix, func(k []byte) error {
		ids = append(ids, string(k[len(prefix):]))
		return nil
	})
	return ids, err
}

// AddAlias adds alias to the aliases of entity ref (an entity id or
// KIND:NAME), so that a lookup or search by it finds the entity, and keeps
// the correction: papers ingested later that mention an entity of that
// kind named alias are linked to ref's entity. An existing entity of the
// kind with alias's id ("task:peft" for "PEFT") is merged into it first
// (see MergeEntities). It returns the entity as Entity does. It fails with
// ErrBadArgument when alias has no letters or digits or is already an
// alias of, or resolves to, another entity.
func (s *Store) AddAlias(ctx context.Context, ref, alias string) (graph.Entity, error) {
	var out graph.Entity
	var bid string
	err := s.curate(ctx, func(w *writer, txn *badger.Txn) error {
		b, err := s.resolveEntity(txn, ref)
		if err != nil {
			return err
		}
		bid = b.ID()
		if graph.Slug(alias) == "" {
			return fmt.Errorf("%w: alias %q has no letters or digits", graph.ErrBadArgument, alias)
		}
		xid := w.ids.of(b.Kind, alias)
		if t, ok := w.fixes[xid]; ok && w.ids.of(t.Kind, t.Name) != bid {
			return fmt.Errorf("%w: %q already resolves to %s", graph.ErrBadArgument, alias, t.ID())
		}
		if other, err := lookupName(txn, b.Kind, graph.NormName(alias)); err != nil {
			return err
		} else if other != "" && other != bid && other != xid {
			return fmt.Errorf("%w: %q is already a name of %s: merge that entity instead", graph.ErrBadArgument, alias, other)
		}
		if xid != bid {
			ex, err := w.entity(xid)
			if err != nil {
				return err
			}
			if ex.rec != nil {
				if err := w.merge(txn, xid, bid); err != nil {
					return err
				}
			} else {
				w.correct(xid, bid, graph.Entity{Kind: b.Kind, Name: b.Name})
			}
		}
		return w.putEntity(graph.Entity{Kind: b.Kind, Name: b.Name, Aliases: []string{alias}}, bid)
	}, func(txn *badger.Txn) error {
		var err error
		out, err = readEntityNarrower(txn, nil, bid)
		return err
	})
	if err != nil {
		return graph.Entity{}, fmt.Errorf("add alias %q to %s: %w", alias, ref, err)
	}
	return out, nil
}
