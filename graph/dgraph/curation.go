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

// Curation over Dgraph: the Badger store's deletes, merges and aliases
// (see graph/store's curation), each one transaction of queries and one
// request of mutations, committed together. A merge or an alias is kept,
// as the Badger store keeps it, as a correction: a node with pg.fix (the
// entity id taken away) and pg.fixto (the entity it resolves to), which
// PutPapers applies to every paper it is given (graph.Corrections), so a
// later ingest keeps the curator's decision. Counts (degrees, stats) are
// Dgraph's own and exact afterwards.

// curationTries is how often a curation is tried again when a concurrent
// writer aborted its transaction.
const curationTries = 10

// fixNode is a correction node.
type fixNode struct {
	UID  string `json:"uid"`
	From string `json:"pg.fix"`
	To   node   `json:"pg.fixto"`
}

const fixFields = `uid pg.fix pg.fixto { uid pg.id pg.kind pg.name }`

// readFixes returns the corrections the cluster holds.
func readFixes(ctx context.Context, txn *dgo.Txn) (graph.Corrections, error) {
	var r struct{ Fixes []fixNode }
	if err := queryTxn(ctx, txn, `{ fixes(func: has(pg.fix)) { `+fixFields+` } }`, nil, &r); err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	fixes := graph.Corrections{}
	for _, f := range r.Fixes {
		if f.To.ID != "" {
			fixes[f.From] = graph.Entity{Kind: graph.Kind(f.To.Kind), Name: f.To.Name}
		}
	}
	return fixes, nil
}

// curate runs fn on a write transaction and commits the mutations it
// left in w, trying again when a concurrent writer aborted it.
func (s *Store) curate(ctx context.Context, fn func(txn *dgo.Txn, w *batchWriter) error) error {
	for try := 0; ; try++ {
		err := func() error {
			txn := s.dg.NewTxn()
			defer txn.Discard(ctx)
			w := &batchWriter{uids: map[string]string{}}
			if err := fn(txn, w); err != nil {
				return err
			}
			if len(w.muts) == 0 {
				return nil
			}
			_, err := txn.Do(ctx, &api.Request{Mutations: w.muts, CommitNow: true})
			return err
		}()
		if !errors.Is(err, dgo.ErrAborted) || try == curationTries {
			return err
		}
	}
}

// curNode is an entity node as curation reads it.
type curNode struct {
	UID      string    `json:"uid"`
	ID       string    `json:"pg.id"`
	Kind     int       `json:"pg.kind"`
	Name     string    `json:"pg.name"`
	Aliases  []string  `json:"pg.aliases"`
	Degree   int       `json:"degree"`
	Broader  []curNode `json:"pg.broader"`
	Narrower []curNode `json:"narrower"`
	Fixes    []fixNode `json:"~pg.fixto"`
}

const curFields = `uid pg.id pg.kind pg.name pg.aliases degree: count(~pg.link)
	pg.broader { uid pg.id pg.kind pg.name } narrower: ~pg.broader { uid pg.id pg.kind pg.name pg.broader { uid pg.id } }
	~pg.fixto { uid pg.fix }`

// resolve returns the entity ref (an entity id or KIND:NAME, NAME a name,
// alias or the id's slug), as the Badger store resolves it: by name or
// alias as Lookup, else by id.
func resolve(ctx context.Context, txn *dgo.Txn, ref string) (*curNode, error) {
	k, name, ok := strings.Cut(ref, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("%w: %q is not an entity (want kind:name, as dataset:gsm8k)", graph.ErrBadID, ref)
	}
	kind, err := graph.ParseKind(k)
	if err != nil {
		return nil, fmt.Errorf("entity %q: %w", ref, err)
	}
	q, vars := lookupQuery(kind, strings.TrimSpace(name), true, curFields)
	var r struct{ Norm, Slug, ID []curNode }
	if err := queryTxn(ctx, txn, q, vars, &r); err != nil {
		return nil, fmt.Errorf("entity %q: %w", ref, err)
	}
	for _, list := range [][]curNode{r.Norm, r.Slug, r.ID} {
		if len(list) > 0 {
			return &list[0], nil
		}
	}
	return nil, fmt.Errorf("entity %q: %w: no %s has that name, alias or id", ref, graph.ErrNotFound, kind)
}

// readEntity returns the entity id as Entities does, read after a
// curation committed.
func (s *Store) readEntity(ctx context.Context, id string) (graph.Entity, error) {
	ns, err := s.nodes(ctx, []string{id})
	if err != nil {
		return graph.Entity{}, err
	}
	n := ns[id]
	if n == nil || n.isPaper() {
		return graph.Entity{}, fmt.Errorf("entity %s: %w", id, graph.ErrNotFound)
	}
	return n.entity(), nil
}

// Duplicates returns the pairs of stored entities that are likely one
// concept, as graph.Duplicates finds and orders them, keeping those q
// selects, as the Badger store does. It reads every entity, in one query.
func (s *Store) Duplicates(ctx context.Context, q graph.DuplicateQuery) ([]graph.Duplicate, error) {
	if q.Kind != 0 && !q.Kind.Valid() {
		return nil, fmt.Errorf("duplicates: %w: %d", graph.ErrBadKind, uint8(q.Kind))
	}
	var r struct{ Q []node }
	if err := s.query(ctx, `{ q(func: eq(pg.kind, [1, 2, 3, 4]), orderasc: pg.id) { `+entityFields+` } }`, nil, &r); err != nil {
		return nil, fmt.Errorf("duplicates: %w", err)
	}
	es := make([]graph.Entity, len(r.Q))
	for i := range r.Q {
		es[i] = r.Q[i].entity()
		es[i].Narrower = nil
	}
	var out []graph.Duplicate
	for _, d := range graph.Duplicates(es) {
		if (q.Kind == 0 || d.A.Kind == q.Kind || d.B.Kind == q.Kind) && (q.Reason == 0 || d.Reason == q.Reason) {
			out = append(out, d)
		}
	}
	return out, nil
}

// DeletePapers deletes the papers with ids (each at most once), with their
// edges and text, as the Badger store does: an entity of theirs left with
// no paper, no narrower entity and no correction resolving to it is
// deleted too, and then likewise its parents in the taxonomy. It deletes
// nothing and fails with ErrBadID for an id that is not a paper id and
// with ErrNotFound for one that is not stored. It returns the number of
// papers deleted.
func (s *Store) DeletePapers(ctx context.Context, ids []string) (int, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	for _, id := range ids {
		if !graph.IsPaperID(id) {
			return 0, fmt.Errorf("delete paper %q: %w", id, graph.ErrBadID)
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	err := s.curate(ctx, func(txn *dgo.Txn, w *batchWriter) error {
		var r struct {
			P []struct {
				UID  string    `json:"uid"`
				ID   string    `json:"pg.id"`
				Kind int       `json:"pg.kind"`
				Link []curNode `json:"pg.link"`
			}
		}
		if err := queryTxn(ctx, txn, `{ p(func: eq(pg.id, `+quoteList(ids)+`)) { uid pg.id pg.kind pg.link { uid pg.id } } }`, nil, &r); err != nil {
			return err
		}
		found := map[string]bool{}
		var del strings.Builder
		lost := map[string]int{} // entity uid -> edges deleted
		var linked []string      // entity uids, in the order the Badger store prunes them
		for _, p := range r.P {
			if p.Kind != 0 {
				continue
			}
			found[p.ID] = true
			fmt.Fprintf(&del, "<%s> * * .\n", p.UID)
			slices.SortFunc(p.Link, func(a, b curNode) int { return strings.Compare(a.ID, b.ID) })
			for _, e := range p.Link {
				lost[e.UID]++
				linked = append(linked, e.UID)
			}
		}
		for _, id := range ids {
			if !found[id] {
				return fmt.Errorf("paper %s: %w", id, graph.ErrNotFound)
			}
		}
		dropped, err := prune(ctx, txn, linked, lost)
		if err != nil {
			return err
		}
		for _, u := range dropped {
			fmt.Fprintf(&del, "<%s> * * .\n", u)
		}
		w.muts = append(w.muts, &api.Mutation{DelNquads: []byte(del.String())})
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("delete papers: %w", err)
	}
	return len(ids), nil
}

// prune returns the entities (uids) of queue that are left with no paper
// (their degree less lost), no narrower entity and no correction
// resolving to them, then their parents left so: the Badger store's prune,
// in its order. An entity is looked at once.
func prune(ctx context.Context, txn *dgo.Txn, queue []string, lost map[string]int) ([]string, error) {
	info := map[string]*curNode{}
	done := map[string]bool{}
	drop := map[string]bool{}
	var dropped []string
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if done[u] {
			continue
		}
		done[u] = true
		n := info[u]
		if n == nil {
			var r struct{ Q []curNode }
			if err := queryTxn(ctx, txn, `{ q(func: uid(`+u+`)) { `+curFields+` } }`, nil, &r); err != nil {
				return nil, err
			}
			if len(r.Q) == 0 {
				continue
			}
			n = &r.Q[0]
			info[u] = n
		}
		if n.Degree-lost[u] > 0 || len(n.Fixes) > 0 {
			continue
		}
		if slices.ContainsFunc(n.Narrower, func(c curNode) bool { return !drop[c.UID] }) {
			continue
		}
		drop[u] = true
		dropped = append(dropped, u)
		parents := slices.Clone(n.Broader)
		slices.SortFunc(parents, func(a, b curNode) int { return strings.Compare(a.ID, b.ID) })
		for _, p := range parents {
			queue = append(queue, p.UID)
		}
	}
	return dropped, nil
}

// MergeEntities merges the entity from into the entity into, each an
// entity id or KIND:NAME with NAME a name or alias, as the Badger store
// does: every paper linked to from, or to an entity below it, is written
// again corrected (linked to into); from's name and aliases become
// aliases of into, its parents into's and its children into's (both only
// when the kinds agree), and from is deleted. The merge is kept as a
// correction, and earlier corrections to from now resolve to into. It
// returns into as Entities does, read once the merge is committed. It
// fails with ErrNotFound when either entity does not exist and with
// ErrBadArgument when both are the same.
func (s *Store) MergeEntities(ctx context.Context, from, into string) (graph.Entity, error) {
	var bid string
	err := s.curate(ctx, func(txn *dgo.Txn, w *batchWriter) error {
		a, err := resolve(ctx, txn, from)
		if err != nil {
			return err
		}
		b, err := resolve(ctx, txn, into)
		if err != nil {
			return err
		}
		if a.ID == b.ID {
			return fmt.Errorf("%w: %s and %s are the same entity", graph.ErrBadArgument, from, into)
		}
		bid = b.ID
		fixes, err := readFixes(ctx, txn)
		if err != nil {
			return err
		}
		return merge(ctx, txn, w, fixes, a, b)
	})
	if err != nil {
		return graph.Entity{}, fmt.Errorf("merge %s into %s: %w", from, into, err)
	}
	return s.readEntity(ctx, bid)
}

// merge adds to w the mutations that merge entity a into entity b (see
// MergeEntities), fixes being the corrections before it.
func merge(ctx context.Context, txn *dgo.Txn, w *batchWriter, fixes graph.Corrections, a, b *curNode) error {
	target := graph.Entity{Kind: graph.Kind(b.Kind), Name: b.Name}
	w.uids[a.ID], w.uids[b.ID] = a.UID, b.UID
	var set []map[string]any
	// The correction, and the earlier ones to a re-pointed to b.
	fixes[a.ID] = target
	set = append(set, w.object(schema.CorrectionID(a.ID), schema.CorrectionFacts(a.ID, b.ID)))
	for _, f := range a.Fixes {
		fixes[f.From] = target
		set = append(set, map[string]any{"uid": f.UID, "pg.fixto": map[string]any{"uid": b.UID}})
	}

	// Papers linked to a, or to an entity below it, are written again,
	// corrected.
	var r struct {
		P []struct {
			Record string `json:"pg.record"`
		}
	}
	q := `query q($id: string) {
		A as var(func: eq(pg.id, $id))
		var(func: uid(A)) @recurse(loop: false) { D as ~pg.broader }
		var(func: uid(A, D)) { PS as ~pg.link }
		p(func: uid(PS), orderasc: pg.id) { pg.record }
	}`
	if err := queryTxn(ctx, txn, q, map[string]string{"$id": a.ID}, &r); err != nil {
		return err
	}
	papers := make([]graph.Paper, len(r.P))
	for i, p := range r.P {
		if err := json.Unmarshal([]byte(p.Record), &papers[i]); err != nil {
			return fmt.Errorf("paper record: %w", err)
		}
	}
	if _, err := w.papers(ctx, txn, fixes, papers); err != nil {
		return err
	}

	// a's names become b's aliases; a's parents b's, within a kind.
	add := graph.Entity{Kind: target.Kind, Name: target.Name, Aliases: append([]string{a.Name}, a.Aliases...)}
	if a.Kind == b.Kind {
		for _, p := range a.Broader {
			if p.ID != b.ID {
				w.uids[p.ID] = p.UID
				add.Broader = append(add.Broader, p.Name)
			}
		}
	}
	set = append(set, w.object(b.ID, schema.EntityFacts(add)))

	// a's children move to b; a goes, with its edges.
	var del strings.Builder
	for _, c := range a.Narrower {
		fmt.Fprintf(&del, "<%s> <pg.broader> <%s> .\n", c.UID, a.UID)
		if a.Kind == b.Kind && c.ID != b.ID && !slices.ContainsFunc(c.Broader, func(p curNode) bool { return p.ID == b.ID }) {
			set = append(set, map[string]any{"uid": c.UID, "pg.broader": []any{map[string]any{"uid": b.UID}}})
		}
	}
	fmt.Fprintf(&del, "<%s> * * .\n", a.UID)
	w.muts = append(w.muts, &api.Mutation{DelNquads: []byte(del.String())})
	return w.set(set)
}

// AddAlias adds alias to the aliases of entity ref (an entity id or
// KIND:NAME) and keeps the correction, as the Badger store does: papers
// ingested later that mention an entity of that kind named alias are
// linked to ref's entity. An existing entity of the kind with alias's id
// is merged into it first (see MergeEntities). It returns the entity as
// Entities does, read once the change is committed. It fails with
// ErrBadArgument when alias has no letters or digits or is already an
// alias of, or resolves to, another entity.
func (s *Store) AddAlias(ctx context.Context, ref, alias string) (graph.Entity, error) {
	var bid string
	err := s.curate(ctx, func(txn *dgo.Txn, w *batchWriter) error {
		b, err := resolve(ctx, txn, ref)
		if err != nil {
			return err
		}
		bid = b.ID
		if graph.Slug(alias) == "" {
			return fmt.Errorf("%w: alias %q has no letters or digits", graph.ErrBadArgument, alias)
		}
		fixes, err := readFixes(ctx, txn)
		if err != nil {
			return err
		}
		kind := graph.Kind(b.Kind)
		xid := graph.EntityID(kind, alias)
		if t, ok := fixes[xid]; ok && t.ID() != bid {
			return fmt.Errorf("%w: %q already resolves to %s", graph.ErrBadArgument, alias, t.ID())
		}
		var r struct{ ByID, ByAlias []curNode }
		q := `query q($id: string) {
			byID(func: eq(pg.id, $id)) { ` + curFields + ` }
			byAlias(func: eq(pg.alias, $id), orderasc: pg.id) { uid pg.id pg.kind }
		}`
		if err := queryTxn(ctx, txn, q, map[string]string{"$id": xid}, &r); err != nil {
			return err
		}
		for _, o := range append(slices.Clone(r.ByID), r.ByAlias...) {
			if o.Kind != 0 && o.ID != bid && o.ID != xid {
				return fmt.Errorf("%w: %q is already a name of %s: merge that entity instead", graph.ErrBadArgument, alias, o.ID)
			}
		}
		if xid != bid {
			if len(r.ByID) > 0 && r.ByID[0].Kind != 0 {
				if err := merge(ctx, txn, w, fixes, &r.ByID[0], b); err != nil {
					return err
				}
			} else if _, ok := fixes[xid]; !ok {
				w.uids[b.ID] = b.UID
				if err := w.set([]map[string]any{w.object(schema.CorrectionID(xid), schema.CorrectionFacts(xid, b.ID))}); err != nil {
					return err
				}
			}
		}
		w.uids[b.ID] = b.UID
		return w.set([]map[string]any{w.object(b.ID, schema.EntityFacts(graph.Entity{Kind: kind, Name: b.Name, Aliases: []string{alias}}))})
	})
	if err != nil {
		return graph.Entity{}, fmt.Errorf("add alias %q to %s: %w", alias, ref, err)
	}
	return s.readEntity(ctx, bid)
}

// Check is BAD_ARGUMENT over Dgraph, which checks its own storage; the
// invariants store.Store.Check verifies are Badger's key layout.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	return nil, fmt.Errorf("%w: check reads an embedded Badger database; a Dgraph cluster checks its own storage", graph.ErrBadArgument)
}
