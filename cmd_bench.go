package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/ingest"
	"github.com/papergraph/papergraph/server"
)

const benchUsage = `usage: papergraph bench [flags]

Measures, in one run, on a deterministic synthetic corpus (or on --corpus
FILE, repeated with varied ids when shorter than --papers):
  extraction throughput (MB/s, papers/s) on a sample, all cores and one core;
  ingest throughput (extraction pipelined with batched writes) into a fresh
  database, its size on disk and the process's peak RSS;
  latency percentiles of papersSharing, neighbourhood (1 hop), shortest path
  (at most 4 hops) and search, in-process, after a warm-up;
  with --http, papersSharing over real HTTP against the real server, with
  --concurrency clients for --duration, each asking for a paper drawn
  from all (or from --http-papers K of them: 1 repeats one request, as a
  load generator such as hey or wrk does).
With --reuse, only the queries (and --http) run, against the database in
--db as an earlier bench --db run left it.

Example:
  papergraph bench --papers 100000 --http --json > bench.json

flags:
`

// benchConfig holds bench's flags.
type benchConfig struct {
	papers      int
	seed        uint64
	corpus      string
	http        bool
	concurrency int
	httpPapers  int
	duration    time.Duration
	queries     int
	json        bool
	db          string
	writeCorpus string
	cpuProfile  string
	memProfile  string
	reuse       bool
	incremental bool
}

// Sizes of bench's phases.
const (
	// benchSample bounds the documents of the extraction measurement, kept
	// in memory so that generating them is not timed; throughput does not
	// depend on the corpus size.
	benchSample = 5000
	// benchSingleSample bounds the documents of the one-core measurement.
	benchSingleSample = 1000
)

// benchResult is the outcome of a run; its JSON form is `bench --json`.
type benchResult struct {
	Papers       int    `json:"papers"`
	Corpus       string `json:"corpus"`
	CorpusBytes  int64  `json:"corpus_bytes"`
	StoredPapers int    `json:"stored_papers"`
	Entities     int    `json:"entities"`
	Edges        int    `json:"edges"`

	ExtractMBs           float64 `json:"extract_mb_s"`
	ExtractPapersS       float64 `json:"extract_papers_s"`
	ExtractWorkers       int     `json:"extract_workers"`
	ExtractSingleMBs     float64 `json:"extract_single_core_mb_s"`
	ExtractSinglePapersS float64 `json:"extract_single_core_papers_s"`
	IngestMode           string  `json:"ingest_mode"` // "bulk" (Loader) or "incremental" (PutPapers)
	IngestPapersS        float64 `json:"ingest_papers_s"`
	IngestSeconds        float64 `json:"ingest_s"`
	PutPapersS           float64 `json:"put_papers_s"`
	DBBytes              int64   `json:"db_bytes"`
	PeakRSSBytes         int64   `json:"peak_rss_bytes"`
	IngestPeakRSSBytes   int64   `json:"ingest_peak_rss_bytes"`
	// The parts of the ingest's RSS and the live Go heap, each the peak
	// of samples taken every 200 ms (see memPeaks).
	IngestPeakAnonBytes     int64 `json:"ingest_peak_anon_bytes"`
	IngestPeakFileBytes     int64 `json:"ingest_peak_file_bytes"`
	IngestPeakHeapLiveBytes int64 `json:"ingest_peak_heap_live_bytes"`
	// QueriesPeakRSSBytes is VmHWM after the in-process queries; the
	// HTTP load comes after it.
	QueriesPeakRSSBytes int64 `json:"queries_peak_rss_bytes"`

	Queries   map[string]*benchLatency `json:"queries"`
	PathFound float64                  `json:"path_found"`
	HTTP      *benchHTTP               `json:"http"`
	Machine   benchMachine             `json:"machine"`
}

// benchLatency summarises the durations of one query, in microseconds.
type benchLatency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_us"`
	P95 float64 `json:"p95_us"`
	P99 float64 `json:"p99_us"`
	Max float64 `json:"max_us"`
}

// benchHTTP is the outcome of the HTTP load phase.
type benchHTTP struct {
	Query       string  `json:"query"`
	Concurrency int     `json:"concurrency"`
	Papers      int     `json:"papers"`
	Seconds     float64 `json:"duration_s"`
	Requests    int     `json:"requests"`
	RPS         float64 `json:"rps"`
	P50ms       float64 `json:"p50_ms"`
	P99ms       float64 `json:"p99_ms"`
	Errors      int     `json:"errors"`
}

// benchMachine describes where the figures were measured.
type benchMachine struct {
	CPU        string `json:"cpu"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	MemBytes   int64  `json:"mem_bytes"`
	Go         string `json:"go"`
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("bench", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var cfg benchConfig
	flags.IntVar(&cfg.papers, "papers", 10000, "number of papers `N` to generate and ingest")
	flags.Uint64Var(&cfg.seed, "seed", 1, "seed of the generated corpus and of the query picks")
	flags.StringVar(&cfg.corpus, "corpus", "", "read abstracts from `FILE` (any format extract reads) instead of generating them")
	flags.BoolVar(&cfg.http, "http", false, "also load the real HTTP server with papersSharing queries")
	flags.IntVar(&cfg.concurrency, "concurrency", 64, "concurrent HTTP clients `C`")
	flags.IntVar(&cfg.httpPapers, "http-papers", 0, "draw the HTTP load's papers from `K` of them (default all)")
	flags.DurationVar(&cfg.duration, "duration", 10*time.Second, "length `D` of the HTTP load")
	flags.IntVar(&cfg.queries, "queries", 2000, "in-process queries `Q` of each kind")
	flags.BoolVar(&cfg.json, "json", false, "print the results as one JSON object")
	flags.StringVar(&cfg.db, "db", "", "database `DIR`, absent or empty, kept afterwards (default: a temporary directory, removed)")
	flags.StringVar(&cfg.writeCorpus, "write-corpus", "", "only write the corpus of --papers documents to `FILE` as JSON Lines, and exit")
	flags.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE`")
	flags.StringVar(&cfg.memProfile, "memprofile", "", "write a profile of the run's allocations to `FILE`")
	flags.BoolVar(&cfg.incremental, "incremental", false, "ingest with PutPapers, as into a database that holds data, rather than with a bulk load")
	flags.BoolVar(&cfg.reuse, "reuse", false, "skip extraction and ingest: query the database in --db, left by an earlier bench --db")
	flags.Usage = func() { fmt.Fprint(stderr, benchUsage); flags.PrintDefaults() }
	if err := flags.Parse(args); err != nil {
		return err
	}
	switch {
	case flags.NArg() > 0:
		flags.Usage()
		return fmt.Errorf("%w: bench takes no arguments, got %q", errUsage, flags.Args())
	case cfg.papers < 1:
		return fmt.Errorf("%w: --papers must be at least 1", errUsage)
	case cfg.queries < 1:
		return fmt.Errorf("%w: --queries must be at least 1", errUsage)
	case cfg.reuse && cfg.db == "":
		return fmt.Errorf("%w: --reuse needs --db", errUsage)
	case cfg.http && (cfg.concurrency < 1 || cfg.duration <= 0):
		return fmt.Errorf("%w: --concurrency and --duration must be positive", errUsage)
	case cfg.httpPapers < 0:
		return fmt.Errorf("%w: --http-papers must not be negative", errUsage)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	x, err := extract.New(extract.Options{})
	if err != nil {
		return err
	}
	if cfg.writeCorpus != "" {
		return writeCorpusFile(x, cfg)
	}
	if cfg.cpuProfile != "" {
		f, err := os.Create(cfg.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if cfg.memProfile != "" {
		defer func() {
			if err := writeHeapProfile(cfg.memProfile); err != nil {
				log.Error("memory profile", "err", err)
			}
		}()
	}
	b := &bench{cfg: cfg, x: x, log: log, stderr: stderr, res: benchResult{
		Papers: cfg.papers, Corpus: "generated, seed " + strconv.FormatUint(cfg.seed, 10),
		Queries: map[string]*benchLatency{}, Machine: benchMachineInfo(),
	}}
	if cfg.corpus != "" {
		b.res.Corpus = cfg.corpus
	}
	if err := b.run(ctx); err != nil {
		return err
	}
	if cfg.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(b.res)
	}
	return b.res.writeTable(stdout)
}

func writeCorpusFile(x *extract.Extractor, cfg benchConfig) error {
	c, err := openBenchCorpus(x, cfg.seed, cfg.corpus)
	if err != nil {
		return err
	}
	defer c.Close()
	f, err := os.Create(cfg.writeCorpus)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := writeBenchCorpus(w, c, cfg.papers); err != nil {
		f.Close()
		return fmt.Errorf("write corpus %s: %w", cfg.writeCorpus, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write corpus %s: %w", cfg.writeCorpus, err)
	}
	return f.Close()
}

// bench is one run of the bench command.
type bench struct {
	cfg    benchConfig
	x      *extract.Extractor
	log    *slog.Logger
	stderr io.Writer
	res    benchResult

	// Filled by ingest, read by the query phases.
	papers   []string          // stored paper ids, sorted
	entities []string          // linked entity ids, sorted
	names    map[string]string // entity id -> canonical name
}

func (b *bench) run(ctx context.Context) error {
	dir := b.cfg.db
	if b.cfg.reuse {
		return b.queryPhases(ctx, dir, func(ctx context.Context, st *store.Store) error {
			if err := b.readIDs(ctx, st); err != nil {
				return err
			}
			b.res.StoredPapers = len(b.papers)
			b.res.Papers = len(b.papers)
			b.res.Corpus = "database " + b.cfg.db
			return nil
		})
	}
	if err := b.extractSample(ctx); err != nil {
		return err
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "papergraph-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := checkEmptyDir(dir); err != nil {
		return err
	}
	if err := b.ingest(ctx, dir); err != nil {
		return err
	}
	// Reopen, as a server would: the queries run against the store as it
	// is on disk, not against memtables left by the ingest.
	return b.queryPhases(ctx, dir, nil)
}

// queryPhases opens the database in dir, calls prepare if not nil, then
// runs the query phases.
func (b *bench) queryPhases(ctx context.Context, dir string, prepare func(context.Context, *store.Store) error) error {
	st, err := openStore(dir, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if prepare != nil {
		if err := prepare(ctx, st); err != nil {
			return err
		}
	}
	if err := b.queries(ctx, st); err != nil {
		return err
	}
	b.res.QueriesPeakRSSBytes = procStatus()["VmHWM"]
	if b.cfg.http {
		if err := b.loadHTTP(ctx, st); err != nil {
			return err
		}
	}
	b.res.PeakRSSBytes = procStatus()["VmHWM"]
	return nil
}

// readIDs lists the stored papers and the entities linked to any, which
// the query phases pick from, in id order.
func (b *bench) readIDs(ctx context.Context, st *store.Store) error {
	after := ""
	for {
		page, err := st.ListPapers(ctx, graph.PaperFilter{}, 100, after)
		if err != nil {
			return err
		}
		for _, p := range page.Papers {
			b.papers = append(b.papers, p.ID)
		}
		if !page.HasNext {
			break
		}
		after = page.EndCursor
	}
	b.names = map[string]string{}
	err := st.Walk(ctx, nil, func(e graph.Entity) error {
		if e.PaperCount > 0 {
			b.entities = append(b.entities, e.ID())
			b.names[e.ID()] = e.Name
		}
		return nil
	})
	return err
}

// checkEmptyDir refuses to benchmark into a directory that holds anything:
// the ingest figures are for a fresh database, and --db must never be
// pointed at a real one by mistake.
func checkEmptyDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(ents) > 0 {
		return fmt.Errorf("%w: --db %s is not empty; bench needs a fresh database", errUsage, dir)
	}
	return nil
}

// extractSample measures extraction alone on the first documents of the
// corpus, held in memory: with every core (one worker per GOMAXPROCS),
// then with one.
func (b *bench) extractSample(ctx context.Context) error {
	c, err := openBenchCorpus(b.x, b.cfg.seed, b.cfg.corpus)
	if err != nil {
		return err
	}
	defer c.Close()
	docs := make([]extract.Document, min(b.cfg.papers, benchSample))
	for i := range docs {
		if docs[i], err = c.Next(); err != nil {
			return err
		}
	}
	size := func(docs []extract.Document) (n int64) {
		for _, d := range docs {
			n += int64(len(d.Abstract))
		}
		return n
	}

	workers := runtime.GOMAXPROCS(0)
	p := b.progress("extract", "papers", int64(len(docs)))
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(docs) || ctx.Err() != nil {
					return
				}
				b.x.Extract(docs[i])
				p.add(1)
			}
		})
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	p.finish()
	if err := ctx.Err(); err != nil {
		return err
	}
	b.res.ExtractWorkers = workers
	b.res.ExtractMBs = roundTo(float64(size(docs))/1e6/secs, 3)
	b.res.ExtractPapersS = roundTo(float64(len(docs))/secs, 1)

	one := docs[:min(len(docs), benchSingleSample)]
	start = time.Now()
	for _, d := range one {
		b.x.Extract(d)
	}
	secs = time.Since(start).Seconds()
	b.res.ExtractSingleMBs = roundTo(float64(size(one))/1e6/secs, 3)
	b.res.ExtractSinglePapersS = roundTo(float64(len(one))/secs, 1)
	b.log.Info("extraction measured", "papers", len(docs), "mb_s", b.res.ExtractMBs,
		"papers_s", b.res.ExtractPapersS, "single_core_papers_s", b.res.ExtractSinglePapersS)
	return ctx.Err()
}

// ingest runs the ingest pipeline, as the ingest command does (with its
// heap limit), on the first --papers documents of the corpus into a fresh
// store in dir, then closes the store and measures it on disk.
func (b *bench) ingest(ctx context.Context, dir string) error {
	defer ingest.LimitMemory()()
	c, err := openBenchCorpus(b.x, b.cfg.seed, b.cfg.corpus)
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := openStore(dir, store.Options{})
	if err != nil {
		return err
	}
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	rssStop, rssDone := make(chan struct{}), make(chan struct{})
	stopRSS := sync.OnceFunc(func() { close(rssStop) })
	defer stopRSS()
	go func() {
		b.res.IngestPeakAnonBytes, b.res.IngestPeakFileBytes, b.res.IngestPeakHeapLiveBytes = memPeaks(rssStop)
		close(rssDone)
	}()
	p := b.progress("ingest", "papers", int64(b.cfg.papers))
	done := 0
	src := &corpusSource{c: c, n: b.cfg.papers}
	// A fresh database is bulk loaded, as ingest does; --incremental
	// measures PutPapers, what ingest into a database with data costs.
	sum, err := ingest.Run(ctx, st, b.x, src, ingest.Options{
		Incremental: b.cfg.incremental,
		Progress: func(sum ingest.Summary) {
			p.add(sum.Papers() - done)
			done = sum.Papers()
		},
	})
	p.finish()
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	b.res.IngestPeakRSSBytes = procStatus()["VmHWM"]
	stopRSS()
	<-rssDone
	if err := b.readIDs(ctx, st); err != nil {
		return err
	}
	err = st.Close()
	st = nil
	if err != nil {
		return err
	}

	secs := sum.Elapsed.Seconds()
	b.res.IngestMode = "incremental"
	if sum.Bulk {
		b.res.IngestMode = "bulk"
	}
	b.res.CorpusBytes = src.read
	b.res.IngestSeconds = roundTo(secs, 3)
	b.res.IngestPapersS = roundTo(float64(b.cfg.papers)/secs, 1)
	b.res.PutPapersS = roundTo(float64(b.cfg.papers)/sum.Writing.Seconds(), 1)
	b.res.StoredPapers = stats.Papers
	for _, n := range stats.Entities {
		b.res.Entities += n
	}
	b.res.Edges = stats.Edges
	if b.res.DBBytes, err = diskBytes(dir); err != nil {
		return err
	}
	b.log.Info("ingest done", "papers", b.cfg.papers, "seconds", b.res.IngestSeconds, "papers_s", b.res.IngestPapersS,
		"put_papers_s", b.res.PutPapersS, "db_bytes", b.res.DBBytes)
	return nil
}

// queries times each traversal on Q random picks (fixed by the seed),
// after Q/10 untimed ones that warm Badger's caches.
func (b *bench) queries(ctx context.Context, st *store.Store) error {
	if len(b.papers) == 0 {
		return errors.New("bench: no papers stored")
	}
	rng := rand.New(rand.NewPCG(b.cfg.seed, 2))
	paper := func() string { return b.papers[rng.IntN(len(b.papers))] }
	entity := func() string {
		if len(b.entities) == 0 {
			return paper()
		}
		return b.entities[rng.IntN(len(b.entities))]
	}
	found := 0
	kinds := []struct {
		name string
		run  func() error
	}{
		{"papersSharing", func() error {
			_, err := st.Sharing(ctx, paper(), graph.SharingQuery{})
			return err
		}},
		{"neighborhood", func() error {
			_, err := st.Neighborhood(ctx, paper(), graph.NeighborhoodQuery{Hops: 1})
			return err
		}},
		{"neighborhoodEntity", func() error {
			_, err := st.Neighborhood(ctx, entity(), graph.NeighborhoodQuery{Hops: 1})
			return err
		}},
		{"path", func() error {
			_, ok, err := st.Path(ctx, paper(), paper(), 4)
			if ok {
				found++
			}
			return err
		}},
		{"search", func() error {
			// Entity names: what a user types, prefix and full text at once.
			_, err := st.Search(ctx, cmp.Or(b.names[entity()], "model"), 20)
			return err
		}},
	}
	q := b.cfg.queries
	warm := q / 10
	p := b.progress("queries", "queries", int64(len(kinds)*(q+warm)))
	defer p.finish()
	for _, k := range kinds {
		durs := make([]time.Duration, 0, q)
		for i := range warm + q {
			if err := ctx.Err(); err != nil {
				return err
			}
			if i == warm {
				found = 0
			}
			t := time.Now()
			if err := k.run(); err != nil {
				return fmt.Errorf("bench %s: %w", k.name, err)
			}
			if i >= warm {
				durs = append(durs, time.Since(t))
			}
			p.add(1)
		}
		l := percentilesOf(durs)
		b.res.Queries[k.name] = &benchLatency{N: len(durs), P50: micros(l.p50), P95: micros(l.p95), P99: micros(l.p99), Max: micros(l.max)}
		if k.name == "path" {
			b.res.PathFound = float64(found) / float64(q)
		}
	}
	return nil
}

// benchHTTPQuery is the GraphQL operation of the HTTP load: papersSharing with
// the fields a client listing related papers asks for.
const benchHTTPQuery = `query Sharing($paper: ID!) { papersSharing(paper: $paper) { score paper { id label } shared { id name } } }`

// loadHTTP starts the real server on a loopback port and drives it with
// C clients, each sending its next request when the last one is answered,
// for D. An error is a transport failure, a status other than 200 or a
// GraphQL error in the response.
func (b *bench) loadHTTP(ctx context.Context, st *store.Store) error {
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

	conc := b.cfg.concurrency
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConns: conc, MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc},
		Timeout:   30 * time.Second,
	}
	defer client.CloseIdleConnections()
	b.log.Info("http load", "url", url, "clients", conc, "duration", b.cfg.duration)
	p := b.progress("http", "s", int64(b.cfg.duration/time.Second))
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

	query, err := json.Marshal(benchHTTPQuery)
	if err != nil {
		return err
	}
	// Paper ids are hashes, so the first K in id order are a uniform sample.
	pool := b.papers
	if k := b.cfg.httpPapers; k > 0 && k < len(pool) {
		pool = pool[:k]
	}
	durs := make([][]time.Duration, conc)
	var errs atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(b.cfg.duration)
	for c := range conc {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(b.cfg.seed, uint64(3+c)))
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
	b.res.HTTP = &benchHTTP{
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

// benchPercentiles are percentiles of a set of durations.
type benchPercentiles struct{ p50, p95, p99, max time.Duration }

// percentilesOf sorts ds and returns its percentiles by nearest rank; zero
// for no durations.
// writeHeapProfile writes the allocations so far (the heap profile,
// whose alloc_space sample counts every allocation) to name.
func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	err = pprof.Lookup("allocs").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func percentilesOf(ds []time.Duration) benchPercentiles {
	if len(ds) == 0 {
		return benchPercentiles{}
	}
	slices.Sort(ds)
	rank := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(ds)))) - 1
		return ds[max(0, min(i, len(ds)-1))]
	}
	return benchPercentiles{rank(0.50), rank(0.95), rank(0.99), ds[len(ds)-1]}
}

func micros(d time.Duration) float64 { return roundTo(float64(d)/float64(time.Microsecond), 1) }
func millis(d time.Duration) float64 { return roundTo(float64(d)/float64(time.Millisecond), 3) }

func roundTo(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// diskBytes returns the bytes of the files under dir. Badger truncates its
// preallocated files when it closes, so this is the database's size once
// the store is closed.
func diskBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		return nil
	})
	return n, err
}

// procStatus returns the memory figures of /proc/self/status in bytes
// ("VmHWM" is the peak RSS, "RssAnon" the heap and other private memory,
// "RssFile" the mapped file pages), or nil where it does not exist (not
// Linux).
func procStatus() map[string]int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil
	}
	m := map[string]int64{}
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		if kb, ok := strings.CutSuffix(strings.TrimSpace(v), " kB"); ok {
			if n, err := strconv.ParseInt(kb, 10, 64); err == nil {
				m[k] = n << 10
			}
		}
	}
	return m
}

// memPeaks samples the resident memory by kind until stop is closed: the
// kernel keeps the peak of the total (VmHWM) but not of its parts. Anon is
// private memory, the Go heap and so Badger's memtables and caches (built
// without jemalloc, Badger allocates from the Go heap); file is mapped
// files, Badger's tables, which the kernel can reclaim; live is the Go
// heap that the last GC found reachable, the rest of anon being garbage
// not yet collected and GOGC's headroom.
func memPeaks(stop <-chan struct{}) (anon, file, live int64) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for {
		st := procStatus()
		anon, file = max(anon, st["RssAnon"]), max(file, st["RssFile"]+st["RssShmem"])
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live = max(live, int64(sample[0].Value.Uint64()))
		}
		select {
		case <-t.C:
		case <-stop:
			return anon, file, live
		}
	}
}

func benchMachineInfo() benchMachine {
	m := benchMachine{CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Go: runtime.Version()}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				m.MemBytes = kb << 10
			}
		}
	}
	return m
}

// writeTable prints r for people.
func (r *benchResult) writeTable(w io.Writer) error {
	mb := func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
	m := r.Machine
	fmt.Fprintf(w, "papergraph bench: %d papers (%s); %s, %d CPUs, %.0f GiB, %s\n\n",
		r.Papers, r.Corpus, m.CPU, m.CPUs, float64(m.MemBytes)/(1<<30), m.Go)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "corpus\t%s, %d bytes per abstract on average\n", mb(r.CorpusBytes), r.CorpusBytes/int64(max(r.Papers, 1)))
	fmt.Fprintf(tw, "extract\t%.2f MB/s, %.0f papers/s (%d workers); one core: %.2f MB/s, %.0f papers/s\n",
		r.ExtractMBs, r.ExtractPapersS, r.ExtractWorkers, r.ExtractSingleMBs, r.ExtractSinglePapersS)
	fmt.Fprintf(tw, "ingest\t%s: %.0f papers/s end to end (%.1f s); the store's part alone %.0f papers/s\n",
		r.IngestMode, r.IngestPapersS, r.IngestSeconds, r.PutPapersS)
	fmt.Fprintf(tw, "store\t%d papers, %d entities, %d edges, %s on disk\n", r.StoredPapers, r.Entities, r.Edges, mb(r.DBBytes))
	fmt.Fprintf(tw, "peak RSS\t%s; after the queries %s; during ingest %s: anonymous at most %s (live Go heap %s), mapped files at most %s\n",
		mb(r.PeakRSSBytes), mb(r.QueriesPeakRSSBytes), mb(r.IngestPeakRSSBytes), mb(r.IngestPeakAnonBytes), mb(r.IngestPeakHeapLiveBytes), mb(r.IngestPeakFileBytes))
	tw.Flush()

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query\tn\tp50 ms\tp95 ms\tp99 ms\tmax ms\t")
	for _, name := range slices.Sorted(maps.Keys(r.Queries)) {
		l := r.Queries[name]
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", name, l.N, l.P50/1000, l.P95/1000, l.P99/1000, l.Max/1000)
	}
	tw.Flush()
	fmt.Fprintf(w, "path found for %.0f%% of the random pairs within 4 hops\n", 100*r.PathFound)
	if h := r.HTTP; h != nil {
		fmt.Fprintf(w, "\nhttp %s: %d clients for %.1f s: %d requests, %.0f req/s, p50 %.2f ms, p99 %.2f ms, %d errors\n",
			h.Query, h.Concurrency, h.Seconds, h.Requests, h.RPS, h.P50ms, h.P99ms, h.Errors)
	}
	return nil
}

// benchProgress shows a phase's progress: a bar on a terminal, else a log
// line every five seconds.
type benchProgress struct {
	bar   *progressbar.ProgressBar
	log   *slog.Logger
	phase string
	total int64
	done  atomic.Int64
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
}

func (b *bench) progress(phase, unit string, total int64) *benchProgress {
	p := &benchProgress{log: b.log, phase: phase, total: total, start: time.Now(), stop: make(chan struct{})}
	if f, ok := b.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription(phase),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
		return p
	}
	p.wg.Go(func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				n := p.done.Load()
				p.log.Info(phase, "done", n, "of", total, "per_s", roundTo(float64(n)/time.Since(p.start).Seconds(), 0))
			case <-p.stop:
				return
			}
		}
	})
	return p
}

func (p *benchProgress) add(n int) {
	p.done.Add(int64(n))
	if p.bar != nil {
		p.bar.Add(n)
	}
}

func (p *benchProgress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		return
	}
	close(p.stop)
	p.wg.Wait()
}
