package server

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// graphExportServer is a Server over a real store holding the fixture
// (and bulk generated papers), behind a real HTTP server.
func graphExportServer(t *testing.T, bulk int, opts Options) (*Server, *httptest.Server, *store.Store) {
	t.Helper()
	st, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.PutPapers(context.Background(), fixturePapers(bulk)); err != nil {
		t.Fatal(err)
	}
	opts.Store, opts.Extract = st, fixtureExtract
	opts.Logger = slog.New(slog.DiscardHandler)
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return srv, ts, st
}

func getGraph(t *testing.T, ts *httptest.Server, method, path, token string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// TestGraphExport checks /graph.EXT: the whole graph as export.Write
// writes it, with the write token only.
func TestGraphExport(t *testing.T) {
	_, ts, st := graphExportServer(t, 0, Options{WriteToken: "s3cret"})
	for _, f := range graphFormats {
		for _, kinds := range []string{"", "dataset,task"} {
			path := "/graph." + f.Ext()
			if kinds != "" {
				path += "?kinds=" + kinds
			}
			resp, got, err := getGraph(t, ts, http.MethodGet, path, "s3cret")
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s = %d, %v; want 200", path, resp.StatusCode, err)
				continue
			}
			ks, _ := graph.ParseKinds(kinds)
			var want bytes.Buffer
			if err := export.Write(context.Background(), &want, st, graph.Selection{Kinds: ks}, f, export.Options{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("GET %s: %d bytes; want export.Write's %d", path, len(got), want.Len())
			}
			if ct := resp.Header.Get("Content-Type"); ct != f.ContentType() {
				t.Errorf("GET %s: Content-Type %q; want %q", path, ct, f.ContentType())
			}
		}
	}
}

// TestGraphExportRefusals checks what /graph.EXT answers besides the
// graph.
func TestGraphExportRefusals(t *testing.T) {
	srv, ts, _ := graphExportServer(t, 0, Options{WriteToken: "s3cret"})
	_, open, _ := graphExportServer(t, 0, Options{})
	tests := []struct {
		name, method, path, token string
		ts                        *httptest.Server
		busy                      bool
		status                    int
		body                      string
	}{
		{"no token", "GET", "/graph.dot", "", ts, false, http.StatusUnauthorized, "write token"},
		{"wrong token", "GET", "/graph.dot", "wrong", ts, false, http.StatusUnauthorized, "write token"},
		{"server without a token", "GET", "/graph.dot", "s3cret", open, false, http.StatusForbidden, "--write-token"},
		{"bad kinds", "GET", "/graph.dot?kinds=papers", "s3cret", ts, false, http.StatusBadRequest, "bad kind"},
		{"svg is not streamed", "GET", "/graph.svg", "s3cret", ts, false, http.StatusNotFound, ""},
		{"post", "POST", "/graph.dot", "s3cret", ts, false, http.StatusMethodNotAllowed, ""},
		{"head", "HEAD", "/graph.graphml", "s3cret", ts, false, http.StatusOK, ""},
		{"busy", "GET", "/graph.dot", "s3cret", ts, true, http.StatusServiceUnavailable, "already running"},
	}
	for _, tt := range tests {
		if tt.busy {
			srv.graphSlot <- struct{}{}
		}
		resp, b, err := getGraph(t, tt.ts, tt.method, tt.path, tt.token)
		if tt.busy {
			<-srv.graphSlot
		}
		if err != nil || resp.StatusCode != tt.status || !strings.Contains(string(b), tt.body) {
			t.Errorf("%s: %s %s = %d %q, %v; want %d and %q", tt.name, tt.method, tt.path, resp.StatusCode, b, err, tt.status, tt.body)
		}
		if tt.method == "HEAD" && len(b) > 0 {
			t.Errorf("%s: a body of %d bytes", tt.name, len(b))
		}
	}
}

// TestGraphExportTimeout exports a graph far larger than the first
// buffer past its limit. Expired before it starts, the answer is a clean
// 503; expired midway, the transfer is cut off, so that no client takes
// what it got for a whole document. Where the limit falls depends on the
// machine's speed, so the second case accepts either.
func TestGraphExportTimeout(t *testing.T) {
	tests := []struct {
		name    string
		bulk    int
		timeout time.Duration
		cut     bool // a cut transfer is a right answer
	}{
		{"expired before", 0, time.Nanosecond, false},
		{"expired midway", 10000, 20 * time.Millisecond, true},
	}
	for _, tt := range tests {
		_, ts, _ := graphExportServer(t, tt.bulk, Options{WriteToken: "s3cret", Limits: Limits{ExportTimeout: tt.timeout}})
		resp, b, err := getGraph(t, ts, http.MethodGet, "/graph.graphml", "s3cret")
		switch {
		case resp.StatusCode == http.StatusServiceUnavailable && err == nil && strings.Contains(string(b), "deadline exceeded"):
			t.Logf("%s: 503 %q", tt.name, b)
		case tt.cut && resp.StatusCode == http.StatusOK && err != nil:
			t.Logf("%s: cut off after %d bytes: %v", tt.name, len(b), err)
		default:
			t.Errorf("%s: GET /graph.graphml past its limit = %d, %d bytes ending %q, read error %v; want 503 or a cut transfer",
				tt.name, resp.StatusCode, len(b), b[max(0, len(b)-20):], err)
		}
	}
}
