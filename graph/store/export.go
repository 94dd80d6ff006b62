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
// records one point read each) exported about 7,000 edges/s. The papers
// are read and decoded in a goroutine of their own while gw writes the
// ones before, a few batches ahead at most.
//
// Paper nodes carry their entities as the record holds them, kind and
// name; the graph's edges are the Edges written.
func exportWhole(ctx context.Context, txn *badger.Txn, sel graph.Selection, gw graph.GraphWriter) error {
	keep := func(k graph.Kind) bool { return keepKind(sel.Kinds, k) }
	err := eachPaperRecord(ctx, txn, nil, func(p exportPaper) error { return gw.WriteNode(graph.Node{Paper: p.paper}) })
	if err == nil {
		err = eachEntityRecord(ctx, txn, keep, true, func(e *graph.Entity) error { return gw.WriteNode(graph.Node{Entity: e}) })
	}
	if err != nil {
		return fmt.Errorf("export nodes: %w", err)
	}
	var (
		refs []edgeTarget
		buf  []byte
		// intern holds every entity id met, so that the edges of one
		// entity share its id string: one per entity, not per edge.
		intern = make(map[string]string)
	)
	paperEdges := func(p *graph.Paper) []graph.Edge {
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
		edges := make([]graph.Edge, len(refs))
		for i, r := range refs {
			edges[i] = graph.Edge{From: p.ID, To: r.id, Kind: r.kind.String()}
		}
		graph.FillEvidence(edges, p)
		return edges
	}
	err = eachPaperRecord(ctx, txn, paperEdges, func(p exportPaper) error {
		for _, e := range p.edges {
			if err := gw.WriteEdge(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		var edges []graph.Edge
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

// exportPaper is a decoded paper record and, when asked for, its edges.
type exportPaper struct {
	paper *graph.Paper
	edges []graph.Edge
}

// readAhead bounds the papers eachPaperRecord decodes ahead of fn: batches
// of readBatch, at most readAhead of them queued.
const (
	readBatch = 256
	readAhead = 4
)

// eachPaperRecord calls fn with every paper record (0x01) in id order,
// decoded as readPaperRecord does, from one iterator: no second lookup of
// the key. Reading, decoding and edges (unless nil) run in a goroutine of
// their own, ahead of fn, which may keep what it gets.
func eachPaperRecord(ctx context.Context, txn *badger.Txn, edges func(*graph.Paper) []graph.Edge, fn func(exportPaper) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []exportPaper, readAhead)
	read := make(chan error, 1)
	go func() {
		defer close(batches)
		read <- readPaperRecords(ctx, txn, edges, batches)
	}()
	for batch := range batches {
		for _, p := range batch {
			if err := fn(p); err != nil {
				cancel()
				for range batches { // let the reader see the cancel and end
				}
				<-read
				return err
			}
		}
	}
	return <-read
}

// readPaperRecords sends every paper record to out in batches, until ctx
// ends.
func readPaperRecords(ctx context.Context, txn *badger.Txn, edges func(*graph.Paper) []graph.Edge, out chan<- []exportPaper) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: allKeys(prefixPaper)})
	defer it.Close()
	batch := make([]exportPaper, 0, readBatch)
	send := func() error {
		select {
		case out <- batch:
			batch = make([]exportPaper, 0, readBatch)
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for it.Rewind(); it.Valid(); it.Next() {
		item := it.Item()
		p := new(graph.Paper)
		err := item.Value(func(v []byte) error { return decodePaperRecord(v, p) })
		if err != nil {
			return fmt.Errorf("paper %s: %w", parseIDKey(item.Key()), err)
		}
		ep := exportPaper{paper: p}
		if edges != nil {
			ep.edges = edges(p)
		}
		if batch = append(batch, ep); len(batch) == readBatch {
			if err := send(); err != nil {
				return err
			}
		}
	}
	if len(batch) > 0 {
		return send()
	}
	return ctx.Err()
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
