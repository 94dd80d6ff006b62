package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/papergraph/papergraph/graph"
)

// ExtractFunc returns the paper that the extractor finds in a title (may be
// empty) and an abstract. The server takes it as a function so that it does
// not depend on package extract.
type ExtractFunc func(ctx context.Context, title, abstract string) (graph.Paper, error)

// Options configures New. Only Store and Extract are required; zero limits
// take the defaults given on Limits. (The name Config is taken by gqlgen's
// generated schema configuration.)
type Options struct {
	Store   Store
	Extract ExtractFunc
	// WriteToken enables the addPapers mutation for requests carrying it as
	// "Authorization: Bearer <token>"; empty disables writes.
	WriteToken string
	// ReadOnly says that Store was opened read-only: the mutations answer
	// FORBIDDEN, token or not; the token still guards check and the
	// whole-graph export.
	ReadOnly bool
	// CORSOrigins are the browser origins allowed to call the API
	// ("https://app.example.org"); "*" allows any. Empty allows none, so
	// only same-origin pages (the playground) can call it from a browser.
	CORSOrigins []string
	// CORSHeaders are request headers that those pages may send beside
	// DefaultCORSHeaders ("X-Tenant"); "*" allows any header a preflight
	// asks for.
	CORSHeaders []string
	// PlaygroundAssets, when not empty, is a directory whose files replace
	// the embedded playground's under /playground/ (graphiql.min.js,
	// graphiql.min.css, react.production.min.js,
	// react-dom.production.min.js, start.js; see
	// .ci/playground-assets.sh). Empty serves the embedded ones.
	PlaygroundAssets string
	// DisableIntrospection turns off schema introspection (and with it the
	// playground's schema-aware editor).
	DisableIntrospection bool
	Limits               Limits
	// Logger receives request errors and panics, and the access log;
	// nil uses slog.Default().
	Logger *slog.Logger
	// AccessLog logs a line per request to Logger (see accessLog).
	AccessLog bool
}

// Limits bound what one request may cost.
type Limits struct {
	// MaxDepth is the deepest nesting of fields in an operation, not
	// counting introspection fields; default 12.
	MaxDepth int
	// MaxComplexity bounds an operation's cost (see costLimit), in which
	// every field selected counts, a list field costs its page size times
	// its selection, and extract and search cost their input's size;
	// default 20000.
	MaxComplexity int
	// MaxFields bounds the selections (fields, aliases, fragment spreads)
	// written in a document, counted before it is parsed (see
	// fieldLimit); default 1000.
	MaxFields int
	// MaxBodyBytes bounds a request body; larger ones get 413. Default 1 MiB.
	MaxBodyBytes int64
	// MaxResponseBytes bounds the data of one response; larger ones get
	// RESPONSE_TOO_LARGE in its place (see responseLimit). Default 16 MiB.
	MaxResponseBytes int
	// Timeout bounds the time spent on one request; default 10 s.
	Timeout time.Duration
	// ExportTimeout bounds a whole-graph export (/graph.*, see
	// graphExport) in place of Timeout; default 10 min.
	ExportTimeout time.Duration
	// QueryCacheSize is the number of parsed queries and of persisted
	// queries kept; default 1000.
	QueryCacheSize int
	// QueryCacheBytes bounds the memory of the parsed queries kept, as
	// estimated from their length (see queryCache), and a quarter of it
	// that of the persisted queries' text; default 64 MiB.
	QueryCacheBytes int64
	// ResponseCacheBytes bounds the bytes of the responses kept (see
	// responseCache); default 32 MiB.
	ResponseCacheBytes int64
	// ResponseCacheSize is the number of query responses kept between
	// writes (see responseCache); default 2048, negative disables it.
	ResponseCacheSize int
	// LoaderWait is how long a dataloader collects ids before it calls the
	// store; default 1 ms. Longer batches more under load at the cost of
	// latency.
	LoaderWait time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = 12
	}
	if l.MaxComplexity <= 0 {
		l.MaxComplexity = 20000
	}
	if l.MaxFields <= 0 {
		l.MaxFields = 1000
	}
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = 1 << 20
	}
	if l.MaxResponseBytes <= 0 {
		l.MaxResponseBytes = 16 << 20
	}
	if l.Timeout <= 0 {
		l.Timeout = 10 * time.Second
	}
	if l.ExportTimeout <= 0 {
		l.ExportTimeout = 10 * time.Minute
	}
	if l.QueryCacheSize <= 0 {
		l.QueryCacheSize = 1000
	}
	if l.QueryCacheBytes <= 0 {
		l.QueryCacheBytes = 64 << 20
	}
	if l.ResponseCacheBytes <= 0 {
		l.ResponseCacheBytes = 32 << 20
	}
	if l.ResponseCacheSize == 0 {
		l.ResponseCacheSize = 2048
	}
	if l.LoaderWait <= 0 {
		l.LoaderWait = time.Millisecond
	}
	return l
}

// maxErrors bounds the errors of one response (see responseLimit).
const maxErrors = 100

// Server is the HTTP handler of the API:
//
//	/              GraphiQL playground, prefilled with an example query
//	/playground/   its scripts and styles, embedded in the binary
//	/explore       the explorer app, a reference frontend of the API
//	/query         GraphQL over GET and POST
//	/healthz       200 "ok" while serving
//	/readyz        200 "ready": the store is open and seeded (see Gate)
//	/metrics       Prometheus metrics
//	/export/       files of subgraphs (see NewExportHandler)
//	/graph.graphml the whole graph, with the write token (see graphExport)
//
// A Server is safe for concurrent use by multiple goroutines.
type Server struct {
	cfg    Options
	limits Limits
	log    *slog.Logger
	cache  *responseCache // nil when disabled
	// queries is gqlgen's cache of parsed documents.
	queries *queryCache
	// examples is the playground's example query of the store's current
	// generation.
	examples exampleCache
	// graphSlot holds the one whole-graph export that may run.
	graphSlot chan struct{}
	handler   http.Handler
}

// New returns the server for cfg.
func New(cfg Options) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: Options.Store is nil")
	}
	if cfg.Extract == nil {
		return nil, errors.New("server: Options.Extract is nil")
	}
	s := &Server{cfg: cfg, limits: cfg.Limits.withDefaults(), log: cfg.Logger, graphSlot: make(chan struct{}, 1)}
	if s.log == nil {
		s.log = slog.Default()
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := newMetrics(reg)
	f := newFetchers(cfg.Store, m, s.limits.LoaderWait)
	if s.limits.ResponseCacheSize > 0 {
		s.cache = newResponseCache(cfg.Store, s.limits.ResponseCacheSize, s.limits.ResponseCacheBytes, m)
	}

	mux := http.NewServeMux()
	mux.Handle("/query", s.cors(s.serveGraphQL(m, f, s.graphQL(m))))
	mux.Handle("GET /{$}", s.playground())
	mux.Handle("GET /playground/", playgroundAssets(cfg.PlaygroundAssets))
	mux.Handle("GET /explore", explore())
	mux.Handle("GET /explore/", explore())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ready\n")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.Handle("/export/", s.cors(s.exportLimits(NewExportHandler(cfg.Store))))
	for _, f := range graphFormats {
		mux.Handle("GET /graph."+f.Ext(), s.graphExport(f))
	}
	s.handler = mux
	if cfg.AccessLog {
		s.handler = s.accessLog(mux)
	}
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// graphQL builds the gqlgen handler: explicit transports and extensions,
// in the order they run on an operation.
func (s *Server) graphQL(m *metrics) http.Handler {
	es := NewExecutableSchema(Config{
		Resolvers:  &Resolver{store: s.cfg.Store, extract: s.cfg.Extract, writeToken: s.cfg.WriteToken, readOnly: s.cfg.ReadOnly},
		Complexity: complexity(),
	})
	h := handler.New(es)
	// Options answers plain OPTIONS requests (cors answers the CORS
	// preflights before they get here); GET serves links and persisted-query
	// hashes and refuses mutations, so that a link cannot write; POST (gqlgen's,
	// but for writing responses, see post) is the main transport. No
	// websockets: there are no subscriptions.
	h.AddTransport(transport.Options{})
	h.AddTransport(transport.GET{})
	h.AddTransport(post{})
	s.queries = newQueryCache(s.limits.QueryCacheSize, s.limits.QueryCacheBytes)
	h.SetQueryCache(s.queries)
	h.SetErrorPresenter(s.presentError)
	h.SetRecoverFunc(s.recoverPanic)
	if !s.cfg.DisableIntrospection {
		h.Use(extension.Introspection{})
	}
	h.Use(extension.AutomaticPersistedQuery{Cache: newByteLRU(s.limits.QueryCacheSize, s.limits.QueryCacheBytes/4, func(hash, query string) int64 {
		return int64(len(hash) + len(query))
	})})
	// After the persisted-query extension, which fills in the query of a
	// hash, and before parsing.
	h.Use(fieldLimit{max: s.limits.MaxFields, queries: s.queries})
	h.Use(m)
	h.Use(responseLimit{maxErrors: maxErrors, maxBytes: s.limits.MaxResponseBytes})
	h.Use(deadline{})
	h.Use(snapshots{store: s.cfg.Store})
	h.Use(depthLimit{max: s.limits.MaxDepth})
	h.Use(newCostLimit(es, s.limits.MaxComplexity, !s.cfg.DisableIntrospection))
	// After every limit: it keeps the documents they let run.
	h.Use(s.queries)
	if s.cache != nil {
		h.Use(s.cache)
	}
	// The one field interceptor: it sees papersSharing's result and writes
	// its matches when their selection is plain.
	h.Use(directMatches{})
	return h
}

// serveGraphQL serves /query: it times and counts each request and hands
// it, within the limits of guard, to gql with the request's state in its
// context.
func (s *Server) serveGraphQL(m *metrics, f *fetchers, gql http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rq := &request{bearer: bearerToken(r.Header.Get("Authorization")), loaders: loaders{fetch: f}}
		status := s.guard(w, r, rq, gql)
		m.record(rq, status, time.Since(start))
		nameOperation(w, rq)
	})
}

// request is what the server keeps about one GraphQL request, in its
// context under requestKey. It is one value rather than one per concern
// because each context.WithValue and Request.WithContext allocates.
type request struct {
	// bearer is the token of the request's Authorization header, "" for
	// none (see authorize).
	bearer string
	// operation and failed are what the metrics extension learns about
	// the request; the resolvers are done with them when they are read.
	operation string
	failed    bool
	// cacheable: the operation is a query answered without errors (see
	// responseCache).
	cacheable bool
	loaders   loaders
	// parsed is the document gqlgen parsed for the request, until the
	// limits pass it (see queryCache).
	parsed parsed
}

type requestKey struct{}

// requestFrom returns the state of the request that ctx belongs to, nil
// outside /query.
func requestFrom(ctx context.Context) *request {
	rq, _ := ctx.Value(requestKey{}).(*request)
	return rq
}
