package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
)

// graphFormats are the formats of the whole-graph export, by extension:
// the streamed ones (SVG and PNG draw at most a thousand nodes).
var graphFormats = []export.Format{export.DOT, export.GraphML, export.Cytoscape, export.RDF}

// graphFlushBytes is how much of a whole-graph export is buffered before
// the first byte goes out: an error within it (a bad kinds parameter, a
// store error at the start) is still a clean error response; one after it
// cuts the connection, so that the client sees a truncated transfer
// rather than a file that looks whole.
const graphFlushBytes = 64 << 10

// graphExport serves GET /graph.{dot,graphml,json,rdf.gz}: the whole graph
// in format f, written by export.Write as `export --format f` writes it,
// streamed in bounded memory from one snapshot. It is how `export
// --server` exports the whole graph while serve holds the database.
//
// It reads every record, so it needs the write token; it runs one at a
// time (a second gets 503 with Retry-After) and within
// Limits.ExportTimeout, not the per-request timeout, since a large graph
// takes minutes (1.96M edges of GraphML: 3.8 s). ?kinds=task,dataset keeps
// only entities of those kinds.
func (s *Server) graphExport(f export.Format) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch err := checkToken(bearerToken(r.Header.Get("Authorization")), s.cfg.WriteToken); {
		case errors.Is(err, errForbidden):
			http.Error(w, "forbidden: a whole-graph export needs the server's write token, and this server has none (start it with --write-token)", http.StatusForbidden)
			return
		case err != nil:
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "unauthenticated: a whole-graph export needs the server's write token as \"Authorization: Bearer <token>\"", http.StatusUnauthorized)
			return
		}
		kinds, err := graph.ParseKinds(r.URL.Query().Get("kinds"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		select {
		case s.graphSlot <- struct{}{}:
			defer func() { <-s.graphSlot }()
		default:
			w.Header().Set("Retry-After", "60")
			http.Error(w, "a whole-graph export is already running: retry when it is done", http.StatusServiceUnavailable)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.limits.ExportTimeout)
		defer cancel()
		// The server's write timeout is for ordinary requests; this one
		// may write for as long as its own limit.
		http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.limits.ExportTimeout + 5*time.Second))
		w.Header().Set("Content-Type", f.ContentType())
		if r.Method == http.MethodHead {
			return
		}

		fw := &firstFlush{w: w}
		bw := bufio.NewWriterSize(fw, graphFlushBytes)
		err = export.Write(ctx, bw, s.cfg.Store, graph.Selection{Kinds: kinds}, f, export.Options{})
		if err == nil {
			err = bw.Flush()
		}
		if err == nil {
			return
		}
		if !fw.started {
			status := exportStatusOf(err)
			s.log.ErrorContext(r.Context(), "whole-graph export", "path", r.URL.Path, "err", err)
			msg := "whole-graph export failed: " + err.Error()
			if errors.Is(err, context.DeadlineExceeded) {
				msg += fmt.Sprintf(" (its limit is %s: serve --export-timeout)", s.limits.ExportTimeout)
			}
			http.Error(w, msg, status)
			return
		}
		s.log.ErrorContext(r.Context(), "whole-graph export cut off", "path", r.URL.Path, "err", err)
		panic(http.ErrAbortHandler)
	})
}

// firstFlush is the ResponseWriter under a whole-graph export's buffer: it
// records whether anything has gone out, after which an error can only
// cut the connection.
type firstFlush struct {
	w       http.ResponseWriter
	started bool
}

func (f *firstFlush) Write(p []byte) (int, error) {
	if !f.started {
		f.started = true
		f.w.Header().Set("X-Content-Type-Options", "nosniff")
		f.w.WriteHeader(http.StatusOK)
	}
	return f.w.Write(p)
}
