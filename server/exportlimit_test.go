package server

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestExportTimeout fires SVG renders at once at a server with a short
// timeout: each answers, rendered or 503, within its timeout and a
// render, rather than queueing on Graphviz for as long as the others take.
func TestExportTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	srv, err := New(Options{Store: exportStore(t), Extract: fixtureExtract, Limits: Limits{Timeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	const n = 12
	var wg sync.WaitGroup
	statuses := make([]int, n)
	took := make([]time.Duration, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			status, _, _ := get(t, hs, "/export/"+exportPaper+".svg?hops=2")
			statuses[i], took[i] = status, time.Since(start)
		}()
	}
	wg.Wait()
	t.Logf("statuses %v, times %v", statuses, took)
	for i := range n {
		if statuses[i] != http.StatusOK && statuses[i] != http.StatusServiceUnavailable {
			t.Errorf("request %d: status %d; want 200 or 503", i, statuses[i])
		}
		// A render begun just before the deadline runs to its end; a
		// generous bound for a slow machine.
		if took[i] > timeout+5*time.Second {
			t.Errorf("request %d answered after %v; want within its timeout and one render", i, took[i])
		}
	}
}
