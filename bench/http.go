package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
func (b *bench) loadHTTP(ctx context.Context, st server.Store) error {
	h, err := server.New(server.Options{
		Store: st,
		Extract: func(_ context.Context, title, abstract string) (graph.Paper, error) {
			return b.x.Extract(extract.Document{Title: title, Abstract: abstract}), nil
		},
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
	url := "http://" + ln.Addr().String() + "/query"

	conc := b.cfg.Concurrency
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConns: conc, MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc},
		Timeout:   30 * time.Second,
	}
	defer client.CloseIdleConnections()
	b.log.Info("http load", "url", url, "clients", conc, "duration", b.cfg.Duration)
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
	var errs atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(b.cfg.Duration)
	for c := range conc {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(b.cfg.Seed, uint64(3+c)))
			// Requests under way at the end are let finish and counted,
			// so that no handler is cut short by the load's own end.
			for ctx.Err() == nil && time.Now().Before(end) {
				id := pool[rng.IntN(len(pool))]
				body := fmt.Sprintf(`{"query":%s,"variables":{"paper":%q}}`, query, id)
				t := time.Now()
				ok := b.post(ctx, client, url, body)
				durs[c] = append(durs[c], time.Since(t))
				if !ok {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	close(stopTicks)
	p.finish()
	if err := ctx.Err(); err != nil {
		return err
	}
	all := slices.Concat(durs...)
	l := percentilesOf(all)
	b.res.HTTP = &HTTPResult{
		Query: "papersSharing", Concurrency: conc, Papers: len(pool), Seconds: roundTo(secs, 2), Requests: len(all),
		RPS: roundTo(float64(len(all))/secs, 1), P50ms: millis(l.p50), P99ms: millis(l.p99), Errors: int(errs.Load()),
	}
	b.log.Info("http done", "requests", len(all), "rps", b.res.HTTP.RPS, "p99_ms", b.res.HTTP.P99ms, "errors", b.res.HTTP.Errors)
	return nil
}

// post sends one GraphQL request and reports whether it succeeded.
func (b *bench) post(ctx context.Context, client *http.Client, url, body string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	// A name or label holding `"errors":` is escaped in JSON, so the bare
	// key can only be the response's own errors field.
	return err == nil && resp.StatusCode == http.StatusOK && !bytes.Contains(data, []byte(`"errors":`))
}
