package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// exportWhole streams every node, then every edge, keeping entities of
// sel.Kinds: papers from their records (0x01), entities from theirs (0x02)
// with their paper counts (0x05), paper-entity edges from the paper
// records' entity references with the records' mentions as evidence, and
// taxonomy edges from the entities' Broader. Each record is read by one
// pass of an iterator over its prefix, twice (nodes, then edges), with no
// lookup per edge: a walk reading every paper as Paper does (its entities'
// records one point read each) exported about 7,000 edges/s.
//
// Paper nodes carry their entities as the record holds them, kind and
// name; the graph's edges are the Edges written.
func exportWhole(ctx context.Context, txn *badger.Txn, sel graph.Selection, gw graph.GraphWriter) error {
	keep := func(k graph.Kind) bool { return keepKind(sel.Kinds, k) }
	err := eachPaperRecord(ctx, txn, func(p *graph.Paper) error { return gw.WriteNode(graph.Node{Paper: p}) })
	if err == nil {
		err = eachEntityRecord(ctx, txn, keep, true, func(e *graph.Entity) error { return gw.WriteNode(graph.Node{Entity: e}) })
	}
	if err != nil {
		return fmt.Errorf("export nodes: %w", err)
	}
	var (
		edges []graph.Edge
		refs  []edgeTarget
		buf   []byte
		// intern holds every entity id met, so that the edges of one
		// entity share its id string: one per entity, not per edge.
		intern = make(map[string]string)
	)
	err = eachPaperRecord(ctx, txn, func(p *graph.Paper) error {
		refs = refs[:0]
		for _, e := range p.Entities {
			if !keep(e.Kind) {
				continue
			}
			buf = graph.AppendEntityID(buf[:0], e.Kind, e.Name)
			id, ok := intern[string(buf)]
			if !ok {
				id = string(buf)
				intern[id] = id
			}
			refs = append(refs, edgeTarget{id, e.Kind})
		}
		slices.SortFunc(refs, func(a, b edgeTarget) int { return strings.Compare(a.id, b.id) })
		edges = edges[:0]
		for _, r := range refs {
			edges = append(edges, graph.Edge{From: p.ID, To: r.id, Kind: r.kind.String()})
		}
		graph.FillEvidence(edges, p)
		for _, e := range edges {
			if err := gw.WriteEdge(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = eachEntityRecord(ctx, txn, keep, false, func(e *graph.Entity) error {
			edges = edges[:0]
			for _, b := range e.Broader {
				edges = append(edges, graph.Edge{From: e.ID(), To: graph.EntityID(e.Kind, b), Kind: graph.BroaderEdge})
			}
			return graph.WriteEdges(gw, edges)
		})
	}
	if err != nil {
		return fmt.Errorf("export edges: %w", err)
	}
	return nil
}

// edgeTarget is an entity of a paper record, by id.
type edgeTarget struct {
	id   string
	kind graph.Kind
}

// eachPaperRecord calls fn with every paper record (0x01) in id order,
// decoded as readPaperRecord does, from one iterator: no second lookup of
// the key. fn may keep the paper.
func eachPaperRecord(ctx context.Context, txn *badger.Txn, fn func(*graph.Paper) error) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: allKeys(prefixPaper)})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		item := it.Item()
		p := new(graph.Paper)
		err := item.Value(func(v []byte) error { return decodePaperRecord(v, p) })
		if err != nil {
			return fmt.Errorf("paper %s: %w", parseIDKey(item.Key()), err)
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// eachEntityRecord calls fn with every entity (0x02) of a kind keep
// accepts, in id order, with its PaperCount when count is set. fn may
// keep the entity.
func eachEntityRecord(ctx context.Context, txn *badger.Txn, keep func(graph.Kind) bool, count bool, fn func(*graph.Entity) error) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: allKeys(prefixEntity)})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		item := it.Item()
		id := parseIDKey(item.Key())
		if !keep(entityKind(id)) {
			continue
		}
		var e graph.Entity
		if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &e) }); err != nil {
			return fmt.Errorf("entity %s: decode record: %w", id, err)
		}
		if count {
			n, err := getUint64(txn, degreeKey(id))
			if err != nil {
				return fmt.Errorf("entity %s: %w", id, err)
			}
			e.PaperCount = int(n)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return nil
}
