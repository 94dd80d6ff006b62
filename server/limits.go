package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/papergraph/papergraph/graph"
)

// depthLimit rejects operations nesting fields deeper than max, before
// they run. Complexity alone does not bound depth: a chain of cheap
// single-object fields (entity { broader { broader { ... } } }) costs
// little per level but makes a deep walk.
type depthLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string { return "DepthLimit" }

func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (d depthLimit) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if n := depth(opCtx.Operation.SelectionSet); n > d.max {
		err := gqlerror.Errorf("operation has depth %d, which exceeds the limit of %d", n, d.max)
		errcode.Set(err, "DEPTH_LIMIT_EXCEEDED")
		return err
	}
	return nil
}

// depth returns the depth of the deepest field in set, fragments
// expanded; a top-level field has depth 1. Introspection fields (__schema,
// __type) are not counted: GraphiQL's own schema query is deep by nature
// and cheap. Validation has already rejected fragment cycles.
func depth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		var d int
		switch sel := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(sel.Name, "__") {
				continue
			}
			d = 1 + depth(sel.SelectionSet)
		case *ast.InlineFragment:
			d = depth(sel.SelectionSet)
		case *ast.FragmentSpread:
			if sel.Definition != nil {
				d = depth(sel.Definition.SelectionSet)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// complexity costs each list field by the number of elements it may
// return (its page size, or its default) times its selection, so that
// nesting pages multiplies as the work does. Lists without a size argument
// (a paper's entities) keep gqlgen's default cost.
func complexity() ComplexityRoot {
	var c ComplexityRoot
	c.Query.Papers = func(child int, first *int, _ *string, _ *graph.PaperFilter) int {
		return perElement(child, first, 20)
	}
	c.Query.Entities = func(child int, _ *graph.Kind, _ *string, first *int, _ *string, _ *graph.EntityOrder) int {
		return perElement(child, first, 20)
	}
	c.Query.PapersSharing = func(child int, _ string, _ []graph.Kind, _ *int, _ *bool, first *int) int {
		return perElement(child, first, 20)
	}
	c.Query.Neighborhood = func(child int, _ string, _ *int, _ []graph.Kind, limit *int) int {
		return perElement(child, limit, 200)
	}
	c.Query.Path = func(child int, _ string, _ string, maxHops *int) int {
		// A path of n hops has n+1 nodes.
		return perElement(child, maxHops, 6)
	}
	c.Query.Search = func(child int, _ string, first *int) int {
		return perElement(child, first, 20)
	}
	c.Query.CoOccurring = func(child int, _ string, _ *graph.Kind, first *int) int {
		return perElement(child, first, 20)
	}
	c.Entity.Papers = func(child int, first *int, _ *string) int {
		return perElement(child, first, 20)
	}
	c.Query.Duplicates = func(child int, _ *graph.Kind, _ *graph.DuplicateReason, first *int) int {
		return perElement(child, first, 20)
	}
	c.Mutation.AddPapers = func(child int, input []PaperInput) int {
		return 1 + len(input)*child
	}
	return c
}

// perElement is the cost of a list of *size (def when nil) elements each
// costing child, plus one for the field itself. A size beyond any field's
// range is costed at def: its resolver rejects it with a message naming
// the argument, and a huge size cannot overflow the product.
func perElement(child int, size *int, def int) int {
	n := def
	if size != nil && *size >= 1 && *size <= maxNeighborhood {
		n = *size
	}
	return 1 + n*child
}

// guard serves r with next within the per-request limits and returns the
// response's status: the body is read in full up to MaxBodyBytes (413
// beyond, before any parsing), and the request gets Timeout: its context
// ends then, and the client gets a 503 with a TIMEOUT error even if a
// resolver ignores its context. rq goes in the context given to next.
//
// next runs on the connection's own goroutine, not on one started per
// request as http.TimeoutHandler does: a new goroutine grows gqlgen's deep
// stack from scratch on every request, and TimeoutHandler also buffers the
// whole response. Here the response goes straight to the client, and only
// the timeout answer comes from another goroutine (see timeoutWriter).
func (s *Server) guard(w http.ResponseWriter, r *http.Request, rq *request, next http.Handler) (status int) {
	if r.ContentLength > s.limits.MaxBodyBytes {
		return tooLarge(w, s.limits.MaxBodyBytes)
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, s.limits.MaxBodyBytes))
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return tooLarge(w, s.limits.MaxBodyBytes)
		case err != nil:
			http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
			return http.StatusBadRequest
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	key := s.cache.key(r, body)
	if key != "" && s.cache.serve(r.Context(), w, key, rq) {
		return http.StatusOK
	}
	gen := s.cfg.Store.Generation()
	ctx, cancel := context.WithTimeout(r.Context(), s.limits.Timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	tw := &timeoutWriter{w: w, header: http.Header{}, deadline: deadline, status: http.StatusOK, capture: key != ""}
	stop := context.AfterFunc(ctx, tw.timeout)
	// Deferred, so that even a panic out of next (which net/http
	// recovers) leaves w to net/http alone.
	defer func() {
		stop()
		status = tw.finish()
		if tw.capture {
			s.cache.keep(r.Context(), key, gen, rq, status, tw.header, tw.body)
		}
	}()
	next.ServeHTTP(tw, r.WithContext(context.WithValue(ctx, requestKey{}, rq)))
	return status
}

// timeoutBody is the response to a request that ran out of time: a GraphQL
// error, so that clients handle it like the others.
const timeoutBody = `{"errors":[{"message":"request timed out","extensions":{"code":"TIMEOUT"}}],"data":null}`

// tooLarge answers a request whose body is over limit and returns the
// status.
func tooLarge(w http.ResponseWriter, limit int64) int {
	http.Error(w, fmt.Sprintf("request body larger than %d bytes", limit), http.StatusRequestEntityTooLarge)
	return http.StatusRequestEntityTooLarge
}

// timeoutWriter is the response writer of a request with a deadline. The
// handler's response passes straight through to w; if the deadline comes
// before the handler has begun it, the client gets the timeout answer
// instead, at once, and the handler's later writes fail with
// http.ErrHandlerTimeout.
//
// The handler and timeout run on different goroutines: mu orders their use
// of w, and the handler gets a header map of its own, copied to w's when
// it begins its response, so that the two never share a map.
type timeoutWriter struct {
	w      http.ResponseWriter
	header http.Header
	// deadline is that of the request's context.
	deadline time.Time

	mu sync.Mutex
	// started: w's status line is written (or the handler has returned),
	// so timeout must leave w alone.
	started  bool
	timedOut bool
	// status is that of the response the client gets.
	status int
	// capture keeps the body written in body, for the response cache,
	// until it grows past maxCachedResponse.
	capture bool
	body    []byte
}

func (tw *timeoutWriter) Header() http.Header { return tw.header }

func (tw *timeoutWriter) WriteHeader(code int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	tw.start(code)
}

func (tw *timeoutWriter) Write(p []byte) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if !tw.start(http.StatusOK) {
		return 0, http.ErrHandlerTimeout
	}
	if tw.capture {
		if len(tw.body)+len(p) > maxCachedResponse {
			tw.capture, tw.body = false, nil
		} else {
			tw.body = append(tw.body, p...)
		}
	}
	return tw.w.Write(p)
}

// start writes the status line with the handler's headers, once, and
// reports whether the handler's response is the one going to the client:
// a response begun after the deadline is not, even if the timeout
// goroutine has not run yet. tw.mu is held.
func (tw *timeoutWriter) start(code int) bool {
	if tw.timedOut {
		return false
	}
	if !tw.started {
		if tw.expired() {
			tw.answerTimeout()
			return false
		}
		tw.started, tw.status = true, code
		maps.Copy(tw.w.Header(), tw.header)
		tw.w.WriteHeader(code)
	}
	return true
}

// expired reports whether the request's deadline has passed (and not
// merely its context ended: a client that went away gets no answer).
func (tw *timeoutWriter) expired() bool {
	return !time.Now().Before(tw.deadline)
}

// timeout runs when the request's context ends: if that is its deadline
// and the handler has not begun its response, the client gets the timeout
// answer now.
func (tw *timeoutWriter) timeout() {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if !tw.started && tw.expired() {
		tw.answerTimeout()
	}
}

// answerTimeout sends the 503 TIMEOUT, complete: the handler may yet hold
// the connection's goroutine for a while, so the response closes the
// connection rather than leave the client waiting on it. tw.mu is held.
func (tw *timeoutWriter) answerTimeout() {
	tw.timedOut, tw.started, tw.status = true, true, http.StatusServiceUnavailable
	h := tw.w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(timeoutBody)))
	h.Set("Connection", "close")
	tw.w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(tw.w, timeoutBody)
	http.NewResponseController(tw.w).Flush()
}

// finish is called when the handler returns: from then on w belongs to
// net/http again, and a timeout that has not yet answered must not. It
// returns the response's status.
func (tw *timeoutWriter) finish() int {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	tw.started = true
	return tw.status
}
