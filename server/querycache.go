package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// queryCache is gqlgen's cache of parsed and validated documents, bounded
// in bytes, that keeps only documents the limits let run. gqlgen adds a
// document once it is valid, before the depth and cost limits see it: 30
// distinct 1 MiB queries, each rejected as too complex, pinned 530 MB.
// Here Add only notes the document in its request, and the extension,
// which runs after the limits, keeps it; a rejected document never gets
// there. Documents parsed outside a request of /query are not kept.
type queryCache struct {
	lru *byteLRU[*ast.QueryDocument]
}

// parsedBytesPerByte estimates the memory of a parsed document from the
// length of its text: positions, names and the AST's nodes, about 18
// bytes per byte of a document of aliased fields.
const parsedBytesPerByte = 20

func newQueryCache(entries int, bytes int64) *queryCache {
	return &queryCache{lru: newByteLRU(entries, bytes, func(query string, _ *ast.QueryDocument) int64 {
		return int64(len(query))*(1+parsedBytesPerByte) + 1<<10
	})}
}

// parsed is a document parsed in a request, kept once the limits pass it.
type parsed struct {
	query string
	doc   *ast.QueryDocument
}

var _ interface {
	graphql.Cache[*ast.QueryDocument]
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = (*queryCache)(nil)

func (c *queryCache) Get(ctx context.Context, query string) (*ast.QueryDocument, bool) {
	return c.lru.Get(ctx, query)
}

func (c *queryCache) Add(ctx context.Context, query string, doc *ast.QueryDocument) {
	if rq := requestFrom(ctx); rq != nil {
		rq.parsed = parsed{query: query, doc: doc}
	}
}

func (*queryCache) ExtensionName() string { return "QueryCache" }

func (*queryCache) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext keeps the document of the request, which every
// limit has passed.
func (c *queryCache) MutateOperationContext(ctx context.Context, _ *graphql.OperationContext) *gqlerror.Error {
	if rq := requestFrom(ctx); rq != nil && rq.parsed.doc != nil {
		c.lru.Add(ctx, rq.parsed.query, rq.parsed.doc)
		rq.parsed = parsed{}
	}
	return nil
}
