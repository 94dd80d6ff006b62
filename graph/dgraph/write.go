package dgraph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/dgo/v250"
	"github.com/dgraph-io/dgo/v250/protos/api"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph/schema"
)

// PutPapers writes papers in upserts of Options.Batch papers, each one
// transaction keyed by paper and entity ids (pg.id, @upsert), so that
// running it twice writes nothing the second time and concurrent writers
// conflict and retry rather than duplicate a node. A paper already stored
// with the same record is unchanged; one whose extraction changed has its
// edges and text replaced. Entities are merged: aliases and broader
// entities accumulate, as in the Badger store.
//
// Unlike the Badger store, the same paper id from another source replaces
// the stored record instead of merging its metadata.
//
// On error, the batches committed before it stay written; the result
// counts them.
func (s *Store) PutPapers(ctx context.Context, papers []graph.Paper) (graph.PutResult, error) {
	var res graph.PutResult
	for i := range papers {
		if err := graph.ValidatePaper(&papers[i]); err != nil {
			return res, err
		}
	}
	for len(papers) > 0 {
		n := min(len(papers), s.batch)
		var r graph.PutResult
		var err error
		for try := 0; ; try++ {
			r, err = s.putBatch(ctx, papers[:n])
			if !errors.Is(err, dgo.ErrAborted) || try == 10 {
				break
			}
		}
		if err != nil {
			return res, fmt.Errorf("put papers: %w", err)
		}
		res.Added += r.Added
		res.Updated += r.Updated
		res.Unchanged += r.Unchanged
		papers = papers[n:]
	}
	return res, nil
}

// putBatch upserts papers in one transaction, with the corrections the
// cluster holds applied to them (see graph.Corrections), as the Badger
// store applies its own. A concurrent writer creating the same id
// conflicts on pg.id's @upsert index, and PutPapers retries the batch.
func (s *Store) putBatch(ctx context.Context, papers []graph.Paper) (graph.PutResult, error) {
	txn := s.dg.NewTxn()
	defer txn.Discard(ctx)
	fixes, err := readFixes(ctx, txn)
	if err != nil {
		return graph.PutResult{}, err
	}
	w := &batchWriter{uids: map[string]string{}}
	res, err := w.papers(ctx, txn, fixes, papers)
	if err != nil || len(w.muts) == 0 {
		return res, err
	}
	if _, err := txn.Do(ctx, &api.Request{Mutations: w.muts, CommitNow: true}); err != nil {
		return graph.PutResult{}, err
	}
	return res, nil
}

// papers adds to w's mutations the upsert of papers, corrected by fixes,
// and returns what it would do: one query reads the uid of every node the
// batch names (papers, their entities, ancestors and broader entities)
// with what tells whether it changed; the mutations then write the
// changed papers (their old edges and text deleted first), the entities
// that are new or gain aliases or broader entities, and create the
// missing nodes as blank nodes.
func (w *batchWriter) papers(ctx context.Context, txn *dgo.Txn, fixes graph.Corrections, papers []graph.Paper) (graph.PutResult, error) {
	var res graph.PutResult
	if len(fixes) > 0 {
		fixed := make([]graph.Paper, len(papers))
		for i := range papers {
			fixed[i] = *fixes.Apply(&papers[i], graph.EntityID)
		}
		papers = fixed
	}
	// The last of a paper given twice wins, as in the Badger store.
	last := make(map[string]int, len(papers))
	entities := map[string]graph.Entity{}
	for i := range papers {
		last[papers[i].ID] = i
		for _, list := range [][]graph.Entity{papers[i].Entities, papers[i].Ancestors} {
			for _, e := range list {
				entities[e.ID()] = mergeEntity(entities[e.ID()], e)
			}
		}
	}
	ids := make([]string, 0, len(last)+len(entities))
	for id := range last {
		ids = append(ids, id)
	}
	for id, e := range entities {
		ids = append(ids, id)
		for _, b := range e.Broader {
			ids = append(ids, graph.EntityID(e.Kind, b))
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var stored struct {
		Q []struct {
			UID     string   `json:"uid"`
			ID      string   `json:"pg.id"`
			Digest  string   `json:"pg.digest"`
			Aliases []string `json:"pg.aliases"`
			Broader []struct {
				ID string `json:"pg.id"`
			} `json:"pg.broader"`
		} `json:"q"`
	}
	resp, err := txn.Query(ctx, `{ q(func: eq(pg.id, `+quoteList(ids)+`)) { uid pg.id pg.digest pg.aliases pg.broader { pg.id } } }`)
	if err != nil {
		return res, err
	}
	if err := json.Unmarshal(resp.Json, &stored); err != nil {
		return res, err
	}
	digests := map[string]string{}
	current := map[string]bool{} // entities whose stored facts hold the batch's
	for _, q := range stored.Q {
		w.uids[q.ID] = "0x" + strings.TrimPrefix(q.UID, "0x")
		digests[q.ID] = q.Digest
		if e, ok := entities[q.ID]; ok {
			var broader []string
			for _, b := range q.Broader {
				broader = append(broader, b.ID)
			}
			current[q.ID] = holds(q.Aliases, e.Aliases) && holds(broader, broaderIDs(e))
		}
	}
	var objs []map[string]any
	var del strings.Builder
	written := map[string]bool{}
	for i := range papers {
		p := &papers[i]
		if last[p.ID] != i {
			res.Unchanged++
			continue
		}
		rec, d, err := schema.Record(p)
		if err != nil {
			return res, fmt.Errorf("paper %s: %w", p.ID, err)
		}
		old, ok := digests[p.ID]
		switch {
		case ok && old == d:
			res.Unchanged++
			continue
		case ok:
			res.Updated++
			fmt.Fprintf(&del, "<%s> <pg.link> * .\n<%s> <pg.text> * .\n", w.uids[p.ID], w.uids[p.ID])
		default:
			res.Added++
		}
		objs = append(objs, w.object(p.ID, schema.PaperFacts(p, rec, d)))
		for _, list := range [][]graph.Entity{p.Entities, p.Ancestors} {
			for _, e := range list {
				if id := e.ID(); !written[id] && !current[id] {
					written[id] = true
					objs = append(objs, w.object(id, schema.EntityFacts(entities[id])))
				}
			}
		}
	}
	if del.Len() > 0 {
		w.muts = append(w.muts, &api.Mutation{DelNquads: []byte(del.String())})
	}
	return res, w.set(objs)
}

// set adds the mutation that sets objs, if any, to w's.
func (w *batchWriter) set(objs []map[string]any) error {
	if len(objs) == 0 {
		return nil
	}
	b, err := json.Marshal(objs)
	if err != nil {
		return err
	}
	w.muts = append(w.muts, &api.Mutation{SetJson: b})
	return nil
}

// mergeEntity returns a with the aliases and broader entities of b added:
// the entity as the batch describes it.
func mergeEntity(a, b graph.Entity) graph.Entity {
	if a.Name == "" {
		a = graph.Entity{Kind: b.Kind, Name: b.Name}
	}
	for _, x := range b.Aliases {
		if !slices.Contains(a.Aliases, x) {
			a.Aliases = append(a.Aliases, x)
		}
	}
	for _, x := range b.Broader {
		if !slices.Contains(a.Broader, x) {
			a.Broader = append(a.Broader, x)
		}
	}
	return a
}

func broaderIDs(e graph.Entity) []string {
	var out []string
	for _, b := range e.Broader {
		out = append(out, graph.EntityID(e.Kind, b))
	}
	return out
}

// holds reports whether have contains every one of want.
func holds(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// batchWriter names the nodes of one request's mutations, stored ones by
// uid, new ones as blank nodes (one per id, shared by the request's
// mutations), and collects the mutations.
type batchWriter struct {
	uids map[string]string // id -> "0x..." or "_:nN"
	muts []*api.Mutation
}

func (w *batchWriter) node(id string) string {
	u, ok := w.uids[id]
	if !ok {
		u = fmt.Sprintf("_:n%d", len(w.uids))
		w.uids[id] = u
	}
	return u
}

// object is the JSON mutation of the node id with facts fs; an edge to a
// node the batch has not described yet carries its pg.id, so that a node
// created for it is found by id.
func (w *batchWriter) object(id string, fs []schema.Fact) map[string]any {
	o := map[string]any{"uid": w.node(id)}
	for _, f := range fs {
		var v any = f.Value
		if f.Ref != "" {
			v = map[string]any{"uid": w.node(f.Ref), "pg.id": f.Ref}
		}
		if !listPreds[f.Pred] {
			o[f.Pred] = v
			continue
		}
		l, _ := o[f.Pred].([]any)
		o[f.Pred] = append(l, v)
	}
	return o
}

// listPreds are the predicates that hold lists (see schema.DQL).
var listPreds = map[string]bool{"pg.text": true, "pg.prefix": true, "pg.norm": true, "pg.alias": true, "pg.aliases": true, "pg.link": true, "pg.broader": true}
