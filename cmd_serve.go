package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/ingest"
	"github.com/papergraph/papergraph/seeds"
	"github.com/papergraph/papergraph/server"
)

const serveUsage = `usage: papergraph serve [flags]

Serves the GraphQL API at /query, the GraphiQL playground at /, /healthz,
/readyz, /metrics, /export/ and, with the write token, the whole graph at
/graph.{dot,graphml,json,rdf.gz}. It listens at once; an empty database is
first filled from the embedded seed abstracts, and until the store is open
and seeded /readyz and the API answer 503. Logs go to standard error, with
a line per request unless --access-log=false. Stops gracefully on SIGINT
or SIGTERM.

flags:
`

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprint(fl.Output(), serveUsage)
		fl.PrintDefaults()
	}
	db := fl.String("db", "", "database `dir`ectory (default $PAPERGRAPH_DB, else papergraph/db in the user cache directory)")
	dg := fl.String("dgraph", "", dgraphUsage)
	addr := fl.String("addr", "127.0.0.1:8080", "listen `address`; the default binds loopback only")
	token := fl.String("write-token", "", "enable the addPapers mutation for requests with \"Authorization: Bearer `token`\" (default $PAPERGRAPH_WRITE_TOKEN; empty disables writes)")
	var origins stringList
	fl.Var(&origins, "cors-origin", "allow browser pages of this `origin` (https://app.example) to call the API; repeatable; * allows any")
	var corsHeaders stringList
	fl.Var(&corsHeaders, "cors-header", "let those pages send this request `header` beside the ones common clients send (server.DefaultCORSHeaders); repeatable; * allows any")
	assets := fl.String("playground-assets", "", "serve the playground's files (/playground/...) found in this `dir`ectory in place of the embedded ones, to try another GraphiQL build (see .ci/playground-assets.sh)")
	noIntro := fl.Bool("no-introspection", false, "turn off schema introspection")
	seedsIfEmpty := fl.Bool("seeds-if-empty", true, "fill an empty database from the embedded seed abstracts")
	readOnly := fl.Bool("read-only", false, "open the database read-only: no writes and no seeding, and stats, check and export (any format) can open it beside the server")
	timeout := fl.Duration("timeout", 10*time.Second, "per-request `duration` limit")
	exportTimeout := fl.Duration("export-timeout", 10*time.Minute, "`duration` limit of a whole-graph export (/graph.graphml and the like)")
	respCache := fl.Int("response-cache", 2048, "query responses kept between writes, `n`; 0 disables the cache")
	logFormat := fl.String("log-format", "text", "log `format`: text (key=value) or json (one object a line)")
	accessLog := fl.Bool("access-log", true, "log a line per request: method, path, GraphQL operation, status, bytes, duration")
	if err := parseFlags(fl, args, stdout); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return fmt.Errorf("%w: serve takes no arguments, got %q", errUsage, fl.Args())
	}
	if *token == "" {
		*token = os.Getenv("PAPERGRAPH_WRITE_TOKEN")
	}
	if *readOnly && *dg != "" {
		fl.Usage()
		return fmt.Errorf("%w: serve: --read-only opens a Badger database; a Dgraph cluster has its own access control", errUsage)
	}
	if *assets != "" {
		if _, err := os.Stat(*assets); err != nil {
			return fmt.Errorf("--playground-assets: %w", err)
		}
	}
	var log *slog.Logger
	switch *logFormat {
	case "text":
		log = slog.New(slog.NewTextHandler(stderr, nil))
	case "json":
		log = slog.New(slog.NewJSONHandler(stderr, nil))
	default:
		fl.Usage()
		return fmt.Errorf("%w: serve: --log-format %q (want text or json)", errUsage, *logFormat)
	}

	// Listen first, so that probes get an answer (/readyz 503) while the
	// store opens and seeds; the gate opens to the server once it can.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	var gate server.Gate
	hs := httpServer(&gate, log)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	log.Info("listening, opening the database", "addr", ln.Addr().String())

	// Deferred before the shutdown below runs: the store closes once the
	// requests in flight are done.
	st, err := openBackend(ctx, *db, *dg, store.Options{Logger: log, ReadOnly: *readOnly})
	if err != nil {
		hs.Close()
		return err
	}
	// Close is bounded (see store.Close): with shutdownGrace, serve ends
	// within 25 s of SIGTERM even when its disk fails.
	defer func() {
		if cerr := st.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	x, err := extract.New(extract.Options{})
	if err != nil {
		hs.Close()
		return err
	}
	if *seedsIfEmpty && !*readOnly {
		if err := seedIfEmpty(ctx, st, x, log); err != nil {
			hs.Close()
			return err
		}
	}
	srv, err := server.New(server.Options{
		Store: st,
		Extract: func(ctx context.Context, title, abstract string) (graph.Paper, error) {
			return x.Extract(ctx, extract.Document{Title: title, Abstract: abstract})
		},
		WriteToken:           *token,
		ReadOnly:             *readOnly,
		CORSOrigins:          origins,
		CORSHeaders:          corsHeaders,
		PlaygroundAssets:     *assets,
		DisableIntrospection: *noIntro,
		Limits:               server.Limits{Timeout: *timeout, ExportTimeout: *exportTimeout, ResponseCacheSize: cmp.Or(*respCache, -1)},
		Logger:               log,
		AccessLog:            *accessLog,
	})
	if err != nil {
		hs.Close()
		return err
	}
	gate.Open(srv)
	log.Info("serving", "url", "http://"+ln.Addr().String()+"/", "graphql", "http://"+ln.Addr().String()+"/query")

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// httpServer returns the HTTP server of h, with serve's timeouts.
func httpServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		// Longer than the per-request timeout, so that a slow request gets
		// its TIMEOUT error rather than a cut connection.
		WriteTimeout: 60 * time.Second,
		IdleTimeout:  2 * time.Minute,
		ErrorLog:     slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// seedIfEmpty fills an empty database with the papers the extractor finds
// in the embedded seed files, through the ingest pipeline.
func seedIfEmpty(ctx context.Context, st backend, x *extract.Extractor, log *slog.Logger) error {
	stats, err := st.Stats(ctx)
	if err != nil || stats.Papers > 0 {
		return err
	}
	names, err := fs.Glob(seeds.FS, "*.txt")
	if err != nil {
		return err
	}
	warn := func(err error) { log.Warn("skipping a seed record", "err", err) }
	src := ingest.FilesFS(ctx, seeds.FS, names, extract.ReaderOptions{SkipBad: true, Warn: warn})
	defer src.Close()
	sum, err := ingest.Run(ctx, st, x, src, ingest.Options{SkipBad: true, Warn: warn})
	if err != nil {
		return fmt.Errorf("seed the database: %w", err)
	}
	if stats, err = st.Stats(ctx); err != nil {
		return err
	}
	log.Info(fmt.Sprintf("database empty: built the graph from %d embedded seed papers", stats.Papers),
		"added", sum.Added, "updated", sum.Updated, "unchanged", sum.Unchanged, "took", sum.Elapsed.Round(time.Millisecond))
	return nil
}

// shutdownGrace bounds the wait for requests in flight at shutdown.
const shutdownGrace = 15 * time.Second
