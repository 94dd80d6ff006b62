// Package schema is the layout of the paper graph in Dgraph: the DQL
// schema and the predicates of each paper and entity node, shared by the
// Dgraph store's upserts (graph/dgraph) and the RDF export for `dgraph
// bulk` (package export), so that a bulk-loaded graph is the graph
// PutPapers would have written. It does not import Dgraph's client.
//
//	for _, f := range schema.PaperFacts(&p, rec) { ... f.Pred, f.Value ... }
package schema

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/papergraph/papergraph/graph"
)

// DQL is the DQL schema of the graph, set by graph/dgraph's Open and
// written beside an RDF export for `dgraph bulk -s`. Its predicates:
//
//	predicate    | on             | value                          | serves
//	-------------+----------------+--------------------------------+------------------------------------
//	pg.id        | paper, entity  | paper id or entity id          | every lookup; the upsert key
//	pg.kind      | paper, entity  | 0 for a paper, else graph.Kind | stats, kind filters
//	pg.name      | entity         | canonical name                 | listings by name
//	pg.alias     | entity         | entity id of each alias        | Lookup by alias
//	pg.aliases   | entity         | each alias as written          | reading an entity back
//	pg.prefix    | entity         | slug of its name and aliases   | entities(search:) prefix ranges;
//	             |                |                                | Lookup by slug
//	pg.norm      | entity         | graph.NormName of its name and | Lookup, first (as the Badger
//	             |                | aliases                        | store's name index)
//	pg.text      | paper, entity  | title and abstract; name and   | search (fulltext and term indexes)
//	             |                | aliases                        |
//	pg.source    | paper          | source file base name          | papers(filter: {source})
//	pg.record    | paper          | the paper as JSON              | reading a paper back
//	pg.digest    | paper          | hash of pg.record              | telling unchanged papers on upsert
//	pg.link      | paper          | -> each entity it links to     | degrees (count(~pg.link)), sharing,
//	             |                |                                | traversals
//	pg.broader   | entity         | -> each broader entity         | taxonomy, family, traversals
//	pg.fix       | correction     | entity id merged away, or an   | PutPapers links papers naming it to
//	             |                | alias made another's name      | pg.fixto instead (curation)
//	pg.fixto     | correction     | -> the entity pg.fix resolves  | the same
//	             |                | to                             |
//
// Names are prefixed so that the graph can share a cluster with others.
// Changing a predicate's meaning is a format change: export as RDF from a
// store of the old format and bulk-load anew.
const DQL = `pg.id: string @index(exact) @upsert .
pg.kind: int @index(int) .
pg.name: string @index(exact) .
pg.alias: [string] @index(exact) .
pg.aliases: [string] .
pg.prefix: [string] @index(exact) .
pg.norm: [string] @index(exact) .
pg.text: [string] @index(fulltext, term) .
pg.source: string @index(exact) .
pg.record: string .
pg.digest: string .
pg.link: [uid] @reverse @count .
pg.broader: [uid] @reverse @count .
pg.fix: string @index(exact) @upsert .
pg.fixto: uid @reverse .

type Paper {
	pg.id
	pg.kind
	pg.text
	pg.source
	pg.record
	pg.digest
	pg.link
}

type Correction {
	pg.fix
	pg.fixto
}

type Entity {
	pg.id
	pg.kind
	pg.name
	pg.alias
	pg.aliases
	pg.prefix
	pg.norm
	pg.text
	pg.broader
}
`

// Fact is one predicate of a node: a string, an int or an edge to the
// node whose pg.id is Ref.
type Fact struct {
	Pred  string
	Value any    // string or int; nil for an edge
	Ref   string // the pg.id of an edge's target
}

// Record returns what pg.record holds, the paper with its entities
// reduced to kind and name (their details live on the entity nodes), and
// its digest.
func Record(p *graph.Paper) (rec, digest string, err error) {
	r := *p
	r.Entities = bare(p.Entities)
	r.Ancestors = bare(p.Ancestors)
	slices.SortFunc(r.Entities, func(a, b graph.Entity) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	b, err := json.Marshal(&r)
	if err != nil {
		return "", "", err
	}
	h := sha256.Sum256(b)
	return string(b), hex.EncodeToString(h[:16]), nil
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

// PaperFacts returns the predicates of paper p whose record and digest
// are rec and digest (Record): the node, its text and its edges.
func PaperFacts(p *graph.Paper, rec, digest string) []Fact {
	fs := []Fact{
		{Pred: "dgraph.type", Value: "Paper"},
		{Pred: "pg.id", Value: p.ID},
		{Pred: "pg.kind", Value: 0},
		{Pred: "pg.record", Value: rec},
		{Pred: "pg.digest", Value: digest},
	}
	if p.Source != "" {
		fs = append(fs, Fact{Pred: "pg.source", Value: p.Source})
	}
	for _, t := range []string{p.Title, p.Abstract} {
		if t != "" {
			fs = append(fs, Fact{Pred: "pg.text", Value: t})
		}
	}
	for _, e := range p.Entities {
		fs = append(fs, Fact{Pred: "pg.link", Ref: e.ID()})
	}
	return fs
}

// EntityFacts returns the predicates of entity e: name, kind, aliases
// (as written, and as entity ids), the slugs that name searches match,
// the normalised forms and slugs that Lookup compares and the edges to
// its broader entities.
func EntityFacts(e graph.Entity) []Fact {
	fs := []Fact{
		{Pred: "dgraph.type", Value: "Entity"},
		{Pred: "pg.id", Value: e.ID()},
		{Pred: "pg.kind", Value: int(e.Kind)},
		{Pred: "pg.name", Value: e.Name},
		{Pred: "pg.text", Value: e.Name},
		{Pred: "pg.prefix", Value: graph.Slug(e.Name)},
		{Pred: "pg.norm", Value: graph.NormName(e.Name)},
	}
	for _, a := range e.Aliases {
		// As the Badger store keeps them: never the name itself (which a
		// merge's correction would add).
		if graph.Slug(a) == "" || a == e.Name {
			continue
		}
		fs = append(fs,
			Fact{Pred: "pg.aliases", Value: a},
			Fact{Pred: "pg.alias", Value: graph.EntityID(e.Kind, a)},
			Fact{Pred: "pg.text", Value: a},
			Fact{Pred: "pg.prefix", Value: graph.Slug(a)},
			Fact{Pred: "pg.norm", Value: graph.NormName(a)})
	}
	for _, b := range e.Broader {
		fs = append(fs, Fact{Pred: "pg.broader", Ref: graph.EntityID(e.Kind, b)})
	}
	return fs
}

// CorrectionID is the node name of the correction of the entity id from
// (a blank node label in an RDF export, a key of an upsert's nodes): no
// paper or entity id starts with "correction:".
func CorrectionID(from string) string { return "correction:" + from }

// CorrectionFacts returns the predicates of the correction that entity id
// from (merged away, or an alias made another's name) resolves to the
// entity id to.
func CorrectionFacts(from, to string) []Fact {
	return []Fact{
		{Pred: "dgraph.type", Value: "Correction"},
		{Pred: "pg.fix", Value: from},
		{Pred: "pg.fixto", Ref: to},
	}
}
