package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// maxOperationLabels bounds the distinct operation names in the metrics:
// clients choose the names, and every label value is a time series kept
// for ever. Names beyond the first ones seen are counted as "other".
const maxOperationLabels = 100

// metrics counts GraphQL requests and times them by operation name, and
// counts the dataloaders' batches. It is a gqlgen extension (to learn the
// operation name and whether the response has errors) and an HTTP
// middleware (to time everything, parse and validation failures included).
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	batches  *prometheus.CounterVec
	keys     *prometheus.CounterVec

	mu    sync.Mutex
	names map[string]bool
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "papergraph_graphql_requests_total",
			Help: "GraphQL requests by operation name and outcome (ok, or error when the response has errors or a status other than 200).",
		}, []string{"operation", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "papergraph_graphql_request_duration_seconds",
			Help:    "Time to serve a GraphQL request, by operation name.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"operation"}),
		batches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "papergraph_dataloader_batches_total",
			Help: "Store calls made by the per-request dataloaders, by loader.",
		}, []string{"loader"}),
		keys: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "papergraph_dataloader_keys_total",
			Help: "Ids looked up by the per-request dataloaders, by loader.",
		}, []string{"loader"}),
		names: map[string]bool{},
	}
	reg.MustRegister(m.requests, m.duration, m.batches, m.keys)
	return m
}

func (m *metrics) batch(loader string, keys int) {
	m.batches.WithLabelValues(loader).Inc()
	m.keys.WithLabelValues(loader).Add(float64(keys))
}

// label returns the metric label for an operation name.
func (m *metrics) label(name string) string {
	if name == "" {
		return "anonymous"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.names[name] {
		if len(m.names) >= maxOperationLabels {
			return "other"
		}
		m.names[name] = true
	}
	return name
}

// requestInfo is what the extension learns about a request, for the
// middleware to record when the response is written.
type requestInfo struct {
	operation string
	failed    bool
}

type requestInfoKey struct{}

// instrument times and counts each request to next.
func (m *metrics) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info)))
		op := m.label(info.operation)
		outcome := "ok"
		if info.failed || sw.status != http.StatusOK {
			outcome = "error"
		}
		m.requests.WithLabelValues(op, outcome).Inc()
		m.duration.WithLabelValues(op).Observe(time.Since(start).Seconds())
	})
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
	graphql.ResponseInterceptor
} = (*metrics)(nil)

func (m *metrics) ExtensionName() string { return "Metrics" }

func (m *metrics) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters records the operation name the request
// gives, for requests that fail to parse; it changes nothing.
func (m *metrics) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		info.operation = params.OperationName
	}
	return nil
}

// MutateOperationContext records the name of the operation chosen, which
// the request need not give when the document has one operation; it
// changes nothing.
func (m *metrics) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok && opCtx.Operation != nil {
		info.operation = opCtx.Operation.Name
	}
	return nil
}

// InterceptResponse records whether the response carries errors.
func (m *metrics) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok && resp != nil && len(resp.Errors) > 0 {
		info.failed = true
	}
	return resp
}

// statusWriter remembers the status code written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
