package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/server"
)

// httpQuery is the GraphQL operation of the HTTP load: papersSharing with
// the fields a client listing related papers asks for.
const httpQuery = `query Sharing($paper: ID!) { papersSharing(paper: $paper) { score paper { id label } shared { id name } } }`

// loadHTTP starts the real server on a loopback port and drives it with
// C clients, each sending its next request when the last one is answered,
// for D. An error is a transport failure, a status other than 200 or a
// GraphQL error in the response.
//
// The server's CPU time is the process's (getrusage) minus the clients':
// each client is one goroutine locked to its OS thread that writes its
// requests and reads its responses itself on one keep-alive connection
// (no net/http Transport, whose goroutines would run elsewhere), and adds
// its thread's CPU time. What remains (handlers, net/http's server, the
// runtime, garbage collection of both sides) is counted as the server's,
// so the figure is an upper bound.
func (b *bench) loadHTTP(ctx context.Context, st server.Store) error {
	cacheSize := b.cfg.ResponseCache
	if cacheSize == 0 {
		cacheSize = -1 // off
	}
	h, err := server.New(server.Options{
		Store: st,
		Extract: func(ctx context.Context, title, abstract string) (graph.Paper, error) {
			return b.x.Extract(ctx, extract.Document{Title: title, Abstract: abstract})
		},
		Limits: server.Limits{ResponseCacheSize: cacheSize},
		Logger: b.log,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer func() {
		// Every client has had its last answer; Shutdown returns at once
		// unless one gave up on a request, whose handler must end before
		// the store closes.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	addr := ln.Addr().String()

	conc := b.cfg.Concurrency
	b.log.Info("http load", "addr", addr, "clients", conc, "duration", b.cfg.Duration)
	p := b.newProgress("http", "s", int64(b.cfg.Duration/time.Second))
	stopTicks := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.add(1)
			case <-stopTicks:
				return
			}
		}
	}()

	query, err := json.Marshal(httpQuery)
	if err != nil {
		return err
	}
	// Paper ids are hashes, so the first K in id order are a uniform sample.
	pool := b.papers
	if k := b.cfg.HTTPPapers; k > 0 && k < len(pool) {
		pool = pool[:k]
	}
	durs := make([][]time.Duration, conc)
	clientCPU := make([]time.Duration, conc)
	var errs atomic.Int64
	var wg sync.WaitGroup
	cpu0 := processCPU()
	start := time.Now()
	end := start.Add(b.cfg.Duration)
	for c := range conc {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := threadCPU()
			defer func() { clientCPU[c] = threadCPU() - t0 }()
			rng := rand.New(rand.NewPCG(b.cfg.Seed, uint64(3+c)))
			var cl httpClient
			defer cl.close()
			// Requests under way at the end are let finish and counted,
			// so that no handler is cut short by the load's own end.
			for ctx.Err() == nil && time.Now().Before(end) {
				id := pool[rng.IntN(len(pool))]
				body := fmt.Sprintf(`{"query":%s,"variables":{"paper":%q}}`, query, id)
				t := time.Now()
				ok := cl.post(addr, body)
				durs[c] = append(durs[c], time.Since(t))
				if !ok {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	cpu := processCPU() - cpu0
	close(stopTicks)
	p.finish()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, d := range clientCPU {
		cpu -= d
	}
	all := slices.Concat(durs...)
	l := percentilesOf(all)
	b.res.HTTP = &HTTPResult{
		Query: "papersSharing", Concurrency: conc, Papers: len(pool), Seconds: roundTo(secs, 2), Requests: len(all),
		RPS: roundTo(float64(len(all))/secs, 1), P50ms: millis(l.p50), P99ms: millis(l.p99), Errors: int(errs.Load()),
		ServerCPUms: roundTo(cpu.Seconds()*1000/float64(max(len(all), 1)), 3), ResponseCache: max(cacheSize, 0),
	}
	b.log.Info("http done", "requests", len(all), "rps", b.res.HTTP.RPS, "p99_ms", b.res.HTTP.P99ms,
		"server_cpu_ms", b.res.HTTP.ServerCPUms, "errors", b.res.HTTP.Errors)
	return nil
}

// httpClient sends requests over one keep-alive connection, on the
// calling goroutine alone, reconnecting after a failure.
type httpClient struct {
	conn net.Conn
	r    *bufio.Reader
	w    *bufio.Writer
}

// post sends one GraphQL request to addr and reports whether it succeeded.
func (c *httpClient) post(addr, body string) bool {
	if c.conn == nil {
		conn, err := net.DialTimeout("tcp", addr, 30*time.Second)
		if err != nil {
			return false
		}
		c.conn, c.r, c.w = conn, bufio.NewReader(conn), bufio.NewWriter(conn)
	}
	c.conn.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(c.w, "POST /query HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
	if err := c.w.Flush(); err != nil {
		c.close()
		return false
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		c.close()
		return false
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.Close {
		c.close()
	}
	// A name or label holding `"errors":` is escaped in JSON, so the bare
	// key can only be the response's own errors field.
	return err == nil && resp.StatusCode == http.StatusOK && !bytes.Contains(data, []byte(`"errors":`))
}

func (c *httpClient) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// processCPU returns the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadCPU returns the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
