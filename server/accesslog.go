package server

import (
	"log/slog"
	"net/http"
	"time"
)

// accessLog wraps h so that every request is logged once it is answered,
// at level Info with message "request": method, path, the GraphQL
// operation name for /query (empty when anonymous or unparsed), status,
// bytes of the response body and duration in milliseconds.
func (s *Server) accessLog(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		aw := &accessWriter{ResponseWriter: w, status: http.StatusOK}
		// Deferred, so that a response cut off by http.ErrAbortHandler
		// (a whole-graph export failing midway) is logged too.
		defer func() {
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("operation", aw.operation),
				slog.Int("status", aw.status),
				slog.Int64("bytes", aw.bytes),
				slog.Float64("ms", float64(time.Since(start).Microseconds())/1000))
		}()
		h.ServeHTTP(aw, r)
	})
}

// accessWriter records what the access log says of a response; the
// GraphQL handler names the operation in it (see nameOperation).
type accessWriter struct {
	http.ResponseWriter
	status    int
	bytes     int64
	wrote     bool
	operation string
}

func (w *accessWriter) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *accessWriter) Write(p []byte) (int, error) {
	w.wrote = true
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *accessWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// nameOperation gives the access log of w, if it has one, the operation
// name of rq.
func nameOperation(w http.ResponseWriter, rq *request) {
	if aw, ok := w.(*accessWriter); ok {
		aw.operation = rq.operation
	}
}
