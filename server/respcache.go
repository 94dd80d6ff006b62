package server

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/ast"
)

// responseCache answers a request that was answered before, since the
// last write to the store, with the same bytes, without parsing or
// executing it again: a frontend asks the same few queries (the papers
// related to the one on screen) far more often than the graph changes;
// executing papersSharing costs about a millisecond, encoding its answer
// a tenth of that, where a cached answer costs a map lookup.
//
// Requests are identified by method, Accept header and body (POST) or
// query string (GET), byte for byte: the Accept header chooses the
// response's Content-Type (application/graphql-response+json or
// application/json), and nothing else in a request changes a query's
// response (requests with an Authorization header are not cached; Origin
// matters only to the CORS headers, set outside the cache). A response is kept only when the request's
// operation is a query that answered without errors and status 200 (its
// extension, InterceptResponse, says so), and the store's Generation was
// the same even number before and after it ran, so it is of one state of
// the database; it is served while Generation still returns that number,
// so any write (addPapers, an ingest in the same process) retires every
// response at once. Parsing, validation and the depth and complexity
// limits ran on the first request; the same bytes pass them again.
type responseCache struct {
	store Store
	lru   *byteLRU[cachedResponse]
	// hits and misses count lookups.
	hits, misses prometheus.Counter
}

// Bounds of what is cached: requests and responses larger than these are
// served as usual. The cache as a whole is bounded by its entries and its
// bytes (Limits.ResponseCacheBytes).
const (
	maxCachedRequest  = 16 << 10
	maxCachedResponse = 32 << 10
)

type cachedResponse struct {
	gen         uint64
	operation   string // for the metrics of a hit
	contentType string
	body        []byte
}

func newResponseCache(st Store, size int, bytes int64, m *metrics) *responseCache {
	return &responseCache{
		store: st,
		lru: newByteLRU(size, bytes, func(key string, e cachedResponse) int64 {
			return int64(len(key) + len(e.operation) + len(e.contentType) + len(e.body) + 64)
		}),
		hits:   m.cached.WithLabelValues("hit"),
		misses: m.cached.WithLabelValues("miss"),
	}
}

// key returns the cache key of request r with body, "" for one that is
// not cached. A request with an Authorization header is never cached: the
// token may be what lets its query run (check), and one with the token
// must not answer one without.
func (c *responseCache) key(r *http.Request, body []byte) string {
	switch {
	case c == nil || r.Header.Get("Authorization") != "":
		return ""
	case r.Method == http.MethodPost && len(body) <= maxCachedRequest:
		return "POST\x00" + r.Header.Get("Accept") + "\x00" + string(body)
	case r.Method == http.MethodGet && len(r.URL.RawQuery) <= maxCachedRequest:
		return "GET\x00" + r.Header.Get("Accept") + "\x00" + r.URL.RawQuery
	}
	return ""
}

// serve answers the request of key from the cache and reports whether it
// did.
func (c *responseCache) serve(ctx context.Context, w http.ResponseWriter, key string, rq *request) bool {
	e, ok := c.lru.Get(ctx, key)
	if !ok || e.gen != c.store.Generation() {
		c.misses.Inc()
		return false
	}
	c.hits.Inc()
	rq.operation = e.operation
	w.Header().Set("Content-Type", e.contentType)
	w.Write(e.body)
	return true
}

// keep caches the response body of the request of key, which ran from
// generation gen, if it may be served again.
func (c *responseCache) keep(ctx context.Context, key string, gen uint64, rq *request, status int, header http.Header, body []byte) {
	if !rq.cacheable || status != http.StatusOK || len(body) > maxCachedResponse || gen%2 != 0 || c.store.Generation() != gen {
		return
	}
	c.lru.Add(ctx, key, cachedResponse{gen: gen, operation: rq.operation, contentType: header.Get("Content-Type"), body: body})
}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = (*responseCache)(nil)

func (c *responseCache) ExtensionName() string { return "ResponseCache" }

func (c *responseCache) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse marks the request cacheable when its operation is a
// query and its response has no errors.
func (c *responseCache) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	rq := requestFrom(ctx)
	if rq == nil || resp == nil || len(resp.Errors) > 0 || !graphql.HasOperationContext(ctx) {
		return resp
	}
	if op := graphql.GetOperationContext(ctx).Operation; op != nil && op.Operation == ast.Query {
		rq.cacheable = true
	}
	return resp
}
