package server

import (
	"io"
	"net/http"
	"sync/atomic"
)

// A Gate is the handler serve listens with from the start: until Open it
// answers /healthz with 200 (the process is alive) and /readyz and every
// other path with 503 and Retry-After (the store is being opened and
// seeded), so that a readiness probe or load balancer waits; after Open it
// is the handler given, whose /readyz answers 200. The zero Gate is
// closed. A Gate is safe for concurrent use by multiple goroutines.
type Gate struct {
	h atomic.Pointer[http.Handler]
}

// Open makes g serve h from now on.
func (g *Gate) Open(h http.Handler) { g.h.Store(&h) }

// ServeHTTP implements http.Handler.
func (g *Gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := g.h.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Path == "/healthz" {
		io.WriteString(w, "ok\n")
		return
	}
	w.Header().Set("Retry-After", "1")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, "starting: the database is being opened and seeded\n")
}
