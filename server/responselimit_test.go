package server

import (
	"strings"
	"testing"
)

func TestResponseLimit(t *testing.T) {
	ts := newTestServer(t, 60, Options{Limits: Limits{MaxResponseBytes: 4000}})
	tests := []struct {
		name  string
		query string
		codes int    // errors in the response
		last  string // the last one's code
	}{
		{"many errors", aliases(150, `paper(id: "bad") { id }`), 100, "TOO_MANY_ERRORS"},
		{"large data", `{ papers(first: 60) { edges { node { id label abstract } } } }`, 1, "RESPONSE_TOO_LARGE"},
		{"within limits", `{ stats { papers } }`, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.post(t, tt.query, nil)
			codes := r.codes()
			if len(codes) != tt.codes || (tt.codes > 0 && codes[len(codes)-1] != tt.last) {
				t.Fatalf("%d errors, codes %.200q; want %d, the last %s", len(codes), codes, tt.codes, tt.last)
			}
			if tt.last == "TOO_MANY_ERRORS" && !strings.Contains(r.Errors[99].Message, "51 more errors") {
				t.Errorf("last error %q; want it to count the 51 left out", r.Errors[99].Message)
			}
			if tt.last == "RESPONSE_TOO_LARGE" && string(r.Data) != "null" {
				t.Errorf("data %.100s; want null", r.Data)
			}
		})
	}
}
