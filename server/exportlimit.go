package server

import (
	"context"
	"net/http"
)

// maxExports is how many /export/ requests run at once; the others wait,
// within their timeout. Graphviz renders one at a time anyway (see
// export.Render), and 40 SVG renders, 20 at a time, took up to 21 s each
// queueing for it.
const maxExports = 2

// exportLimits serves /export/ requests with next under the request
// timeout, at most maxExports at a time: a request that waits past its
// deadline for its turn gets a 503 and renders nothing.
func (s *Server) exportLimits(next http.Handler) http.Handler {
	slots := make(chan struct{}, maxExports)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.limits.Timeout)
		defer cancel()
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			http.Error(w, "export timed out waiting for its turn: "+ctx.Err().Error(), http.StatusServiceUnavailable)
			return
		}
		defer func() { <-slots }()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
