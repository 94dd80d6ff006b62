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

// maxOperationName is the longest operation name used as a label; longer
// ones (a document may name its operation with 100 KB) count as "other".
const maxOperationName = 64

// metrics counts GraphQL requests and times them by operation name, and
// counts the dataloaders' batches. It is a gqlgen extension, to learn the
// operation name and whether the response has errors; Server.serveGraphQL
// records each request (record), so that everything is timed, parse and
// validation failures included.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	batches  *prometheus.CounterVec
	keys     *prometheus.CounterVec
	cached   *prometheus.CounterVec

	mu sync.Mutex
	// ops holds the series of each label (see operation), looked up once:
	// finding them in the vectors by label values hashes the values on
	// every request.
	ops   map[string]*operationMetrics
	named int
}

// operationMetrics are the series of one operation label.
type operationMetrics struct {
	ok, failed prometheus.Counter
	duration   prometheus.Observer
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
		cached: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "papergraph_response_cache_total",
			Help: "Queries looked up in the response cache, by result (hit or miss).",
		}, []string{"result"}),
		ops: map[string]*operationMetrics{},
	}
	reg.MustRegister(m.requests, m.duration, m.batches, m.keys, m.cached)
	return m
}

// batchCounter returns the function that counts a store call of loader
// for keys ids.
func (m *metrics) batchCounter(loader string) func(keys int) {
	batches, ids := m.batches.WithLabelValues(loader), m.keys.WithLabelValues(loader)
	return func(keys int) {
		batches.Inc()
		ids.Add(float64(keys))
	}
}

// operation returns the series of an operation name: "anonymous" for
// none, "other" for the names beyond the first maxOperationLabels.
func (m *metrics) operation(name string) *operationMetrics {
	if len(name) > maxOperationName {
		name = "other"
	}
	label := name
	if label == "" {
		label = "anonymous"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if om, ok := m.ops[label]; ok {
		return om
	}
	if name != "" {
		if m.named >= maxOperationLabels {
			label = "other"
			if om, ok := m.ops[label]; ok {
				return om
			}
		} else {
			m.named++
		}
	}
	om := &operationMetrics{
		ok:       m.requests.WithLabelValues(label, "ok"),
		failed:   m.requests.WithLabelValues(label, "error"),
		duration: m.duration.WithLabelValues(label),
	}
	m.ops[label] = om
	return om
}

// record counts and times a request answered with status in d.
func (m *metrics) record(rq *request, status int, d time.Duration) {
	om := m.operation(rq.operation)
	if rq.failed || status != http.StatusOK {
		om.failed.Inc()
	} else {
		om.ok.Inc()
	}
	om.duration.Observe(d.Seconds())
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
	graphql.ResponseInterceptor
} = (*metrics)(nil)

func (m *metrics) ExtensionName() string { return "Metrics" }

func (m *metrics) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters records nothing: the operationName of a
// request that fails to parse names no operation, and any bytes the
// client sends there would become a label (100 KB names once took
// /metrics to 181 MiB). Such requests count as "anonymous".
func (m *metrics) MutateOperationParameters(context.Context, *graphql.RawParams) *gqlerror.Error {
	return nil
}

// MutateOperationContext records the name of the operation chosen, which
// the request need not give when the document has one operation; it
// changes nothing.
func (m *metrics) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if rq := requestFrom(ctx); rq != nil && opCtx.Operation != nil {
		rq.operation = opCtx.Operation.Name
	}
	return nil
}

// InterceptResponse records whether the response carries errors.
func (m *metrics) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if rq := requestFrom(ctx); rq != nil && resp != nil && len(resp.Errors) > 0 {
		rq.failed = true
	}
	return resp
}
