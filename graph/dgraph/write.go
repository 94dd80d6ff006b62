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

// putBatch upserts papers in one transaction: a query for the stored
// digests, then one upsert request that finds every node by pg.id, deletes
// the changed papers' edges and text and sets them anew.
func (s *Store) putBatch(ctx context.Context, papers []graph.Paper) (graph.PutResult, error) {
	var res graph.PutResult
	// The last of a paper given twice wins, as in the Badger store.
	last := make(map[string]int, len(papers))
	for i := range papers {
		last[papers[i].ID] = i
	}
	ids := make([]string, 0, len(last))
	for id := range last {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	txn := s.dg.NewTxn()
	defer txn.Discard(ctx)
	var stored struct {
		Q []struct {
			ID     string `json:"pg.id"`
			Digest string `json:"pg.digest"`
		} `json:"q"`
	}
	resp, err := txn.Query(ctx, `{ q(func: eq(pg.id, `+quoteList(ids)+`)) { pg.id pg.digest } }`)
	if err != nil {
		return res, err
	}
	if err := json.Unmarshal(resp.Json, &stored); err != nil {
		return res, err
	}
	had := make(map[string]string, len(stored.Q))
	for _, q := range stored.Q {
		had[q.ID] = q.Digest
	}
	u := upsert{vars: map[string]string{}}
	var objs []map[string]any
	var del strings.Builder
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
		old, ok := had[p.ID]
		switch {
		case ok && old == d:
			res.Unchanged++
			continue
		case ok:
			res.Updated++
		default:
			res.Added++
		}
		v := u.node(p.ID)
		fmt.Fprintf(&del, "uid(%s) <pg.link> * .\nuid(%s) <pg.text> * .\n", v, v)
		objs = append(objs, u.object(p.ID, schema.PaperFacts(p, rec, d)))
		for _, list := range [][]graph.Entity{p.Entities, p.Ancestors} {
			for _, e := range list {
				objs = append(objs, u.object(e.ID(), schema.EntityFacts(e)))
			}
		}
	}
	if len(objs) == 0 {
		return res, nil
	}
	set, err := json.Marshal(objs)
	if err != nil {
		return res, err
	}
	req := &api.Request{
		Query: u.query(),
		Mutations: []*api.Mutation{
			{DelNquads: []byte(del.String())},
			{SetJson: set},
		},
		CommitNow: true,
	}
	if _, err := txn.Do(ctx, req); err != nil {
		return graph.PutResult{}, err
	}
	return res, nil
}

// object is the JSON mutation of the node id with facts fs; an edge
// points at its target's query variable, so that it finds or creates the
// node of that id.
func (u *upsert) object(id string, fs []schema.Fact) map[string]any {
	o := map[string]any{"uid": "uid(" + u.node(id) + ")"}
	for _, f := range fs {
		var v any = f.Value
		if f.Ref != "" {
			v = map[string]any{"uid": "uid(" + u.node(f.Ref) + ")", "pg.id": f.Ref}
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
var listPreds = map[string]bool{"pg.text": true, "pg.prefix": true, "pg.alias": true, "pg.aliases": true, "pg.link": true, "pg.broader": true}

// upsert names one query variable per node id of a batch.
type upsert struct {
	vars  map[string]string // id -> variable
	order []string
}

func (u *upsert) node(id string) string {
	v, ok := u.vars[id]
	if !ok {
		v = fmt.Sprintf("n%d", len(u.vars))
		u.vars[id] = v
		u.order = append(u.order, id)
	}
	return v
}

// query finds every node of the batch by its id; a variable left empty
// makes the mutation create the node.
func (u *upsert) query() string {
	var b strings.Builder
	b.WriteString("{\n")
	for _, id := range u.order {
		q, _ := json.Marshal(id)
		fmt.Fprintf(&b, "%s as var(func: eq(pg.id, %s))\n", u.vars[id], q)
	}
	b.WriteString("}")
	return b.String()
}
