package dgraph

// Schema is the DQL schema of the graph, set by Open and written beside an
// RDF export for `dgraph bulk -s`. Its predicates:
//
//	predicate    | on             | value                          | serves
//	-------------+----------------+--------------------------------+------------------------------------
//	pg.id        | paper, entity  | paper id or entity id          | every lookup; the upsert key
//	pg.kind      | paper, entity  | 0 for a paper, else graph.Kind | stats, kind filters
//	pg.name      | entity         | canonical name                 | listings by name
//	pg.alias     | entity         | entity id of each alias        | Lookup by alias
//	pg.aliases   | entity         | each alias as written          | reading an entity back
//	pg.prefix    | entity         | slug of its name and aliases   | entities(search:) prefix ranges
//	pg.text      | paper, entity  | title and abstract; name and   | search (fulltext and term indexes)
//	             |                | aliases                        |
//	pg.source    | paper          | source file base name          | papers(filter: {source})
//	pg.record    | paper          | the paper as JSON              | reading a paper back
//	pg.digest    | paper          | hash of pg.record              | telling unchanged papers on upsert
//	pg.link      | paper          | -> each entity it links to     | degrees (count(~pg.link)), sharing,
//	             |                |                                | traversals
//	pg.broader   | entity         | -> each broader entity         | taxonomy, family, traversals
//
// Names are prefixed so that the graph can share a cluster with others.
// Changing a predicate's meaning is a format change: export as RDF from a
// store of the old format and bulk-load anew.
const Schema = `pg.id: string @index(exact) @upsert .
pg.kind: int @index(int) .
pg.name: string @index(exact) .
pg.alias: [string] @index(exact) .
pg.aliases: [string] .
pg.prefix: [string] @index(exact) .
pg.text: [string] @index(fulltext, term) .
pg.source: string @index(exact) .
pg.record: string .
pg.digest: string .
pg.link: [uid] @reverse @count .
pg.broader: [uid] @reverse @count .

type Paper {
	pg.id
	pg.kind
	pg.text
	pg.source
	pg.record
	pg.digest
	pg.link
}

type Entity {
	pg.id
	pg.kind
	pg.name
	pg.alias
	pg.aliases
	pg.prefix
	pg.text
	pg.broader
}
`
