package dgraph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/dgo/v250"
	"github.com/dgraph-io/dgo/v250/protos/api"

	"github.com/papergraph/papergraph/graph"
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

// record is what pg.record holds: the paper with its entities reduced to
// kind and name, their details living on the entity nodes.
func record(p *graph.Paper) (string, error) {
	r := *p
	r.Entities = bare(p.Entities)
	r.Ancestors = bare(p.Ancestors)
	b, err := json.Marshal(&r)
	return string(b), err
}

func bare(es []graph.Entity) []graph.Entity {
	if len(es) == 0 {
		return nil
	}
	out := make([]graph.Entity, len(es))
	for i, e := range es {
		out[i] = graph.Entity{Kind: e.Kind, Name: e.Name}
	}
	return out
}

// digest is a paper record's hash, kept to tell unchanged papers: hashing
// in Go costs less than comparing records in DQL.
func digest(rec string) string {
	h := sha256.Sum256([]byte(rec))
	return hex.EncodeToString(h[:16])
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
		rec, err := record(p)
		if err != nil {
			return res, fmt.Errorf("paper %s: %w", p.ID, err)
		}
		d := digest(rec)
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
		links := make([]map[string]any, 0, len(p.Entities))
		for _, e := range p.Entities {
			links = append(links, map[string]any{"uid": "uid(" + u.node(e.ID()) + ")"})
		}
		text := []string{}
		for _, t := range []string{p.Title, p.Abstract} {
			if t != "" {
				text = append(text, t)
			}
		}
		objs = append(objs, map[string]any{
			"uid": "uid(" + v + ")", "dgraph.type": "Paper",
			"pg.id": p.ID, "pg.kind": 0, "pg.source": p.Source,
			"pg.record": rec, "pg.digest": d, "pg.text": text, "pg.link": links,
		})
		for _, list := range [][]graph.Entity{p.Entities, p.Ancestors} {
			for _, e := range list {
				objs = append(objs, entityObject(&u, e))
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

// entityObject is the JSON mutation of e: its name, kind, aliases and
// broader entities, each of which is a node of its own.
func entityObject(u *upsert, e graph.Entity) map[string]any {
	text := []string{e.Name}
	prefix := []string{graph.Slug(e.Name)}
	var alias []string
	for _, a := range e.Aliases {
		if graph.Slug(a) == "" {
			continue
		}
		text = append(text, a)
		prefix = append(prefix, graph.Slug(a))
		alias = append(alias, graph.EntityID(e.Kind, a))
	}
	o := map[string]any{
		"uid": "uid(" + u.node(e.ID()) + ")", "dgraph.type": "Entity",
		"pg.id": e.ID(), "pg.kind": int(e.Kind), "pg.name": e.Name,
		"pg.text": text, "pg.prefix": prefix,
	}
	if len(e.Aliases) > 0 {
		o["pg.aliases"] = e.Aliases
		o["pg.alias"] = alias
	}
	if len(e.Broader) > 0 {
		var bs []map[string]any
		for _, b := range e.Broader {
			bid := graph.EntityID(e.Kind, b)
			bs = append(bs, map[string]any{"uid": "uid(" + u.node(bid) + ")", "pg.id": bid, "dgraph.type": "Entity",
				"pg.kind": int(e.Kind)})
		}
		o["pg.broader"] = bs
	}
	return o
}

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
