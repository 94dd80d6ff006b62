package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

// TestGate checks /healthz, /readyz and the API before and after the
// store is ready, over real HTTP with the real server behind the gate.
func TestGate(t *testing.T) {
	srv := newTestServer(t, 0, Options{})
	var g Gate
	ts := httptest.NewServer(&g)
	t.Cleanup(ts.Close)
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	tests := []struct {
		path             string
		before, after    int
		beforeBody, body string
	}{
		{"/healthz", http.StatusOK, http.StatusOK, "ok\n", "ok\n"},
		{"/readyz", http.StatusServiceUnavailable, http.StatusOK, "", "ready\n"},
		{"/query?query={stats{papers}}", http.StatusServiceUnavailable, http.StatusOK, "", ""},
	}
	for _, tt := range tests {
		if got, body := get(tt.path); got != tt.before || tt.beforeBody != "" && body != tt.beforeBody {
			t.Errorf("GET %s before Open = %d %q; want %d", tt.path, got, body, tt.before)
		}
	}
	g.Open(srv.Config.Handler)
	for _, tt := range tests {
		if got, body := get(tt.path); got != tt.after || tt.body != "" && body != tt.body {
			t.Errorf("GET %s after Open = %d %q; want %d %q", tt.path, got, body, tt.after, tt.body)
		}
	}
}

// TestAccessLog checks the line logged per request: operation, status,
// bytes and duration.
func TestAccessLog(t *testing.T) {
	ts := newTestServer(t, 0, Options{AccessLog: true})
	r := ts.post(t, `query Counts { stats { papers } }`, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("POST /query = %d", r.Status)
	}
	ts.do(t, http.MethodGet, "/nowhere", nil)
	// Close waits for the handlers, which log once they return: maybe
	// after the client has read the whole response.
	ts.Close()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`msg=request method=POST path=/query operation=Counts status=200 bytes=[1-9][0-9]* ms=[0-9.]+`),
		regexp.MustCompile(`msg=request method=GET path=/nowhere operation="" status=404 bytes=[1-9][0-9]* ms=[0-9.]+`),
	} {
		if logs := ts.logs.String(); !want.MatchString(logs) {
			t.Errorf("access log lacks %s:\n%s", want, logs)
		}
	}
}
