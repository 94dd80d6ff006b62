package server

import (
	"net/http"
	"slices"
	"strings"
)

// DefaultCORSHeaders are the request headers a browser page of an allowed
// origin may send, beside those of Options.CORSHeaders: what common
// GraphQL clients send (Apollo Client's client-awareness and CSRF-guard
// headers, persisted-query and tracing headers of OpenTelemetry and
// Sentry instrumentation), so that a preflight does not fail for them.
var DefaultCORSHeaders = []string{
	"Accept",
	"Authorization",
	"Content-Type",
	"apollographql-client-name",
	"apollographql-client-version",
	"apollo-require-preflight",
	"x-apollo-operation-name",
	"traceparent",
	"tracestate",
	"baggage",
	"sentry-trace",
}

// cors lets the browser pages of Options.CORSOrigins call next: it answers
// preflight requests and marks responses to allowed origins. Requests from
// other origins are served as usual, without the headers, so the browser
// withholds the response from the page.
func (s *Server) cors(next http.Handler) http.Handler {
	any := slices.Contains(s.cfg.CORSOrigins, "*")
	anyHeader := slices.Contains(s.cfg.CORSHeaders, "*")
	allowHeaders := strings.Join(slices.Concat(DefaultCORSHeaders, s.cfg.CORSHeaders), ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin")
		allowed := any || slices.Contains(s.cfg.CORSOrigins, origin)
		if allowed {
			h.Set("Access-Control-Allow-Origin", origin)
		}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			if !allowed {
				http.Error(w, "origin not allowed", http.StatusForbidden)
				return
			}
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			// "*" in Allow-Headers is not a wildcard on requests with
			// credentials (Authorization), so "any" echoes what is asked.
			if req := r.Header.Get("Access-Control-Request-Headers"); anyHeader && req != "" {
				h.Set("Access-Control-Allow-Headers", req)
			} else {
				h.Set("Access-Control-Allow-Headers", allowHeaders)
			}
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
