package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/papergraph/papergraph/graph"
)

// processCPU returns the CPU time (user and system) of this process from
// /proc/self/stat, in which the server under test runs.
func processCPU(tb testing.TB) time.Duration {
	tb.Helper()
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		tb.Skipf("no /proc/self/stat to measure CPU time: %v", err)
	}
	// Fields after the command name, which is in parentheses and may
	// hold spaces: state is field 3, utime 14 and stime 15.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		tb.Fatalf("parse /proc/self/stat %q: %v %v", b, err1, err2)
	}
	// Clock ticks are 1/100 s on Linux (sysconf(_SC_CLK_TCK)).
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// slowExtract burns about 50 ms of CPU per call, ignoring its context.
// Given the text "long", it works for up to a minute instead, checking its
// context every millisecond, as the extractor checks it at each step of a
// long text (TestServeExtractEndsAtDeadline has the real one).
func slowExtract(ctx context.Context, title, abstract string) (graph.Paper, error) {
	if abstract == "long" {
		start := time.Now()
		for time.Since(start) < time.Minute {
			for tick := time.Now(); time.Since(tick) < time.Millisecond; {
			}
			if err := ctx.Err(); err != nil {
				return graph.Paper{}, fmt.Errorf("extract: %w", err)
			}
		}
	}
	start := time.Now()
	for x := 0; time.Since(start) < 50*time.Millisecond; x++ {
		_ = x * x
	}
	return fixtureExtract(ctx, title, abstract)
}

// TestWorkEndsAtDeadline posts hostile shapes of request (those of issue
// 13) and checks that the server's work for each ends within a second of
// its answer, which comes within its deadline, and that a probe query
// answers meanwhile. Bounds are generous for a loaded 2-core machine.
func TestWorkEndsAtDeadline(t *testing.T) {
	const timeout = time.Second
	ts := newTestServer(t, 0, Options{Extract: slowExtract, Limits: Limits{Timeout: timeout}})
	big := strings.Repeat("We use Hub. ", 100<<10/12)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		code  string
	}{
		{"10,000 aliases of introspection", aliases(10000, `__schema { types { name fields { name type { name } } } }`), nil, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"20,000 copies of stats", "{" + strings.Repeat(" stats { papers }", 20000) + " }", nil, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"9,000 aliases of extract of 100 KB", "query($t: String!) " + aliases(9000, `extract(text: $t) { id }`), map[string]any{"t": big}, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"2,000 searches under one name", searchesUnderOneName(2000), nil, "COMPLEXITY_LIMIT_EXCEEDED"},
		// Within the field limit, but validation compares them in pairs.
		{"400 searches under one name", searchesUnderOneName(400), nil, "COMPLEXITY_LIMIT_EXCEEDED"},
		// Within every limit, but 200 extracts of 50 ms each are 10 s of
		// work: past the deadline, those not started never start.
		{"200 slow extracts", aliases(200, `extract(text: "Hub") { id }`), nil, "TIMEOUT"},
		// One field that would work for a minute: its context ends at
		// the deadline.
		{"one extract of a minute", `{ extract(text: "long") { id } }`, nil, "TIMEOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var probes sync.WaitGroup
			stop := make(chan struct{})
			var worst time.Duration
			probes.Add(1)
			go func() {
				defer probes.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					case <-time.After(100 * time.Millisecond):
					}
					start := time.Now()
					// A new query each time, which the response cache cannot answer.
					if r := ts.post(t, fmt.Sprintf(`{ p%d: stats { papers } }`, i), nil); len(r.Errors) > 0 {
						t.Errorf("probe: %+v", r.Errors)
					}
					worst = max(worst, time.Since(start))
				}
			}()
			start := time.Now()
			r := ts.post(t, tt.query, tt.vars)
			took := time.Since(start)
			answered := processCPU(t)
			time.Sleep(time.Second)
			settled := processCPU(t)
			time.Sleep(500 * time.Millisecond)
			after := processCPU(t) - settled
			close(stop)
			probes.Wait()
			t.Logf("answered in %v (status %d), CPU %v in the second after, %v in the half second after that; slowest probe %v",
				took.Round(time.Millisecond), r.Status, settled-answered, after, worst.Round(time.Millisecond))
			if codes := r.codes(); len(codes) != 1 || codes[0] != tt.code {
				t.Errorf("codes %q; want [%s]", codes[:min(3, len(codes))], tt.code)
			}
			if tt.code == "TIMEOUT" && r.Status != http.StatusServiceUnavailable {
				t.Errorf("status %d; want 503", r.Status)
			}
			if took > timeout+2*time.Second {
				t.Errorf("answered in %v; want within its %v deadline", took, timeout)
			}
			// The probes themselves cost a few milliseconds of it.
			if after > 150*time.Millisecond {
				t.Errorf("%v of CPU in the half second from 1 s after the answer; want the request's work over", after)
			}
			if worst > 2*time.Second {
				t.Errorf("a probe took %v meanwhile; want under 1 s", worst)
			}
		})
	}
}
