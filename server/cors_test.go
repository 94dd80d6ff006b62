package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestCORSHeaders checks which request headers a preflight allows: those
// common clients send by default, more through Options.CORSHeaders, any
// with "*".
func TestCORSHeaders(t *testing.T) {
	tests := []struct {
		name    string
		extra   []string
		request string // Access-Control-Request-Headers
		want    []string
		notWant []string
	}{
		{"Apollo Client", nil, "content-type,apollographql-client-name,apollographql-client-version", []string{"Content-Type", "apollographql-client-name", "apollographql-client-version"}, nil},
		{"tracing", nil, "traceparent", []string{"traceparent", "sentry-trace"}, nil},
		{"custom, not configured", nil, "x-tenant", nil, []string{"x-tenant", "X-Tenant"}},
		{"custom, configured", []string{"X-Tenant"}, "x-tenant", []string{"X-Tenant", "Authorization"}, nil},
		{"any", []string{"*"}, "x-whatever,content-type", []string{"x-whatever,content-type"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, 0, Options{CORSOrigins: []string{"*"}, CORSHeaders: tt.extra})
			req, _ := http.NewRequest(http.MethodOptions, ts.URL+"/query", nil)
			req.Header.Set("Origin", "https://app.example")
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", tt.request)
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := resp.Header.Get("Access-Control-Allow-Headers")
			if resp.StatusCode != http.StatusNoContent {
				t.Errorf("preflight = %d; want 204", resp.StatusCode)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Allow-Headers = %q; want it to include %s", got, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("Allow-Headers = %q; want it without %s", got, w)
				}
			}
		})
	}
}
