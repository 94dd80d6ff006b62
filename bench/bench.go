package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/server"
)

// Config is what Run measures, and how. The zero value of a field other
// than Papers and Queries turns its option off.
type Config struct {
	Papers int    // documents to ingest, at least 1
	Seed   uint64 // of the generated corpus and of the query picks
	// Corpus is a file of abstracts (any format extract reads), repeated
	// to Papers documents with new ids; empty generates the corpus.
	Corpus string
	// DB is the database directory, absent or empty, kept afterwards;
	// empty means a temporary directory, removed.
	DB string
	// Reuse skips extraction and ingest and queries the database that an
	// earlier run left in DB.
	Reuse bool
	// Incremental ingests with PutPapers, as into a database that holds
	// data, rather than with a bulk load.
	Incremental bool
	Queries     int // in-process queries of each kind, at least 1
	// NoExport skips the whole-graph export phase (about ten minutes over
	// a single-node Dgraph at 100k papers).
	NoExport bool
	// Dgraph is the address of a Dgraph alpha (HOST:9080): ingest into
	// its cluster, which must be empty (or, with Reuse, query what it
	// holds), instead of a Badger database in DB.
	Dgraph string

	// HTTP also loads the real server with papersSharing queries from
	// Concurrency clients for Duration, each asking for a paper drawn from
	// all, or from HTTPPapers of them when not 0.
	HTTP        bool
	Concurrency int
	Duration    time.Duration
	HTTPPapers  int
	// ResponseCache is the server's response cache size during the HTTP
	// load; 0 turns it off, so that every distinct request is executed.
	ResponseCache int

	Log *slog.Logger // progress and phase results; nil discards them
	// Progress is where progress bars go when it is a terminal; otherwise
	// progress is logged to Log every five seconds.
	Progress io.Writer
}

// Sizes of bench's phases.
const (
	// sampleDocs bounds the documents of the extraction measurement, kept
	// in memory so that generating them is not timed; throughput does not
	// depend on the corpus size.
	sampleDocs = 5000
	// sampleOneCore bounds the documents of the one-core measurement.
	sampleOneCore = 1000
)

// Result is the outcome of a run; its JSON form is `bench --json`.
type Result struct {
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

	// The whole graph streamed as ExportFormat (see exportWhole), after
	// the queries.
	ExportFormat  string  `json:"export_format"`
	ExportSeconds float64 `json:"export_s"`
	ExportBytes   int64   `json:"export_bytes"`
	ExportEdgesS  float64 `json:"export_edges_s"`

	Queries   map[string]*Latency `json:"queries"`
	PathFound float64             `json:"path_found"`
	// SharingMismatches counts, of the first SharingChecked papersSharing
	// queries, the answers that differ from brute force's (see
	// checkSharing).
	SharingChecked    int         `json:"sharing_checked"`
	SharingMismatches int         `json:"sharing_mismatches"`
	HTTP              *HTTPResult `json:"http"`
	Machine           Machine     `json:"machine"`
}

// Latency summarises the durations of one query, in microseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_us"`
	P95 float64 `json:"p95_us"`
	P99 float64 `json:"p99_us"`
	Max float64 `json:"max_us"`
}

// HTTPResult is the outcome of the HTTP load phase.
type HTTPResult struct {
	Query       string  `json:"query"`
	Concurrency int     `json:"concurrency"`
	Papers      int     `json:"papers"`
	Seconds     float64 `json:"duration_s"`
	Requests    int     `json:"requests"`
	RPS         float64 `json:"rps"`
	P50ms       float64 `json:"p50_ms"`
	P99ms       float64 `json:"p99_ms"`
	Errors      int     `json:"errors"`
	// ServerCPUms is the server's CPU time per request, in milliseconds
	// (see loadHTTP); ResponseCache the server's response cache size, 0
	// when off.
	ServerCPUms   float64 `json:"server_cpu_ms_per_request"`
	ResponseCache int     `json:"response_cache"`
}

// Machine describes where the figures were measured.
type Machine struct {
	CPU        string `json:"cpu"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	MemBytes   int64  `json:"mem_bytes"`
	Go         string `json:"go"`
}

// Run measures papergraph as cfg says, with the extractor x, and returns
// the figures. It runs the phases in order: extraction of a sample, ingest
// of the corpus through the ingest pipeline, in-process queries on the
// reopened store, a whole-graph export and, with cfg.HTTP, the HTTP load.
func Run(ctx context.Context, x *extract.Extractor, cfg Config) (Result, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	b := &bench{cfg: cfg, x: x, log: cfg.Log, res: Result{
		Papers: cfg.Papers, Corpus: "generated, seed " + strconv.FormatUint(cfg.Seed, 10),
		Queries: map[string]*Latency{}, Machine: machineInfo(),
	}}
	if cfg.Corpus != "" {
		b.res.Corpus = cfg.Corpus
	}
	err := b.run(ctx)
	return b.res, err
}

// bench is one Run.
type bench struct {
	cfg Config
	x   *extract.Extractor
	log *slog.Logger
	res Result

	// Filled by ingest, read by the query phases.
	papers   []string          // stored paper ids, sorted
	entities []string          // linked entity ids, sorted
	names    map[string]string // entity id -> canonical name
}

func (b *bench) run(ctx context.Context) error {
	if b.cfg.Dgraph != "" {
		return b.runDgraph(ctx)
	}
	dir := b.cfg.DB
	if b.cfg.Reuse {
		return b.queryPhases(ctx, dir, func(ctx context.Context, st *store.Store) error {
			if err := b.readPaperIDs(ctx, st); err != nil {
				return err
			}
			if err := b.readEntityIDs(ctx, st); err != nil {
				return err
			}
			b.res.StoredPapers = len(b.papers)
			b.res.Papers = len(b.papers)
			b.res.Corpus = "database " + b.cfg.DB
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
	}
	if err := b.ingest(ctx, dir); err != nil {
		return err
	}
	// Reopen, as a server would: the queries run against the store as it
	// is on disk, not against memtables left by the ingest.
	return b.queryPhases(ctx, dir, nil)
}

// runDgraph is run on the Dgraph cluster of cfg.Dgraph.
func (b *bench) runDgraph(ctx context.Context) error {
	st, err := dgraph.Open(ctx, b.cfg.Dgraph, dgraph.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	b.res.IngestMode = "dgraph"
	if b.cfg.Reuse {
		if err := b.corpusIDs(ctx, st); err != nil {
			return err
		}
		if err := b.readEntityIDs(ctx, st); err != nil {
			return err
		}
		b.res.StoredPapers = len(b.papers)
		b.res.Corpus = "dgraph " + b.cfg.Dgraph + ", " + b.res.Corpus
		return b.measureQueries(ctx, st)
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	if stats.Papers > 0 {
		return fmt.Errorf("bench: the Dgraph cluster at %s holds %d papers: bench ingests into an empty one (or queries it with --reuse)", b.cfg.Dgraph, stats.Papers)
	}
	if err := b.extractSample(ctx); err != nil {
		return err
	}
	if err := b.ingestInto(ctx, st); err != nil {
		return err
	}
	b.log.Info("ingest done", "papers", b.cfg.Papers, "seconds", b.res.IngestSeconds, "papers_s", b.res.IngestPapersS)
	return b.measureQueries(ctx, st)
}

// queryPhases opens the database in dir, calls prepare if not nil, then
// runs the query phases.
func (b *bench) queryPhases(ctx context.Context, dir string, prepare func(context.Context, *store.Store) error) error {
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if prepare != nil {
		if err := prepare(ctx, st); err != nil {
			return err
		}
	}
	return b.measureQueries(ctx, st)
}

// measureQueries runs the in-process queries and, with cfg.HTTP, the HTTP
// load on st.
func (b *bench) measureQueries(ctx context.Context, st server.Store) error {
	if err := b.queries(ctx, st); err != nil {
		return err
	}
	b.res.QueriesPeakRSSBytes = procStatus()["VmHWM"]
	if !b.cfg.NoExport {
		if err := b.exportWhole(ctx, st); err != nil {
			return err
		}
	}
	if b.cfg.HTTP {
		if err := b.loadHTTP(ctx, st); err != nil {
			return err
		}
	}
	b.res.PeakRSSBytes = procStatus()["VmHWM"]
	return nil
}

// readPaperIDs lists the stored papers, which the query phases pick
// from, in id order: what ingest collects, from the database of an
// earlier run.
func (b *bench) readPaperIDs(ctx context.Context, st server.Store) error {
	after := ""
	for {
		page, err := st.ListPapers(ctx, graph.PaperQuery{First: graph.MaxLimit, After: after})
		if err != nil {
			return err
		}
		for _, p := range page.Papers {
			b.papers = append(b.papers, p.ID)
		}
		if !page.HasNext {
			return nil
		}
		after = page.EndCursor
	}
}

// corpusIDs sets the papers the query phases pick from to the ids of the
// first cfg.Papers documents of the corpus, generated again from the seed
// (or read again from cfg.Corpus), in id order: what an earlier bench
// --dgraph with the same --papers, --seed and --corpus ingested, without
// reading the cluster's whole listing. It fails when the cluster's paper
// count differs or a sample of the ids is not stored.
func (b *bench) corpusIDs(ctx context.Context, st server.Store) error {
	c, err := corpus.Open(b.x.Vocabulary(), b.cfg.Seed, b.cfg.Corpus)
	if err != nil {
		return err
	}
	defer c.Close()
	src := corpus.Take(c, b.cfg.Papers)
	for {
		d, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		b.papers = append(b.papers, extract.ID(d.Abstract))
	}
	slices.Sort(b.papers)
	b.papers = slices.Compact(b.papers)
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	from := ""
	if b.cfg.Corpus != "" {
		from = " --corpus " + b.cfg.Corpus
	}
	mismatch := fmt.Errorf("bench: the cluster holds %d papers, not the %d of --papers %d --seed %d%s: give the flags of the run that ingested it",
		stats.Papers, len(b.papers), b.cfg.Papers, b.cfg.Seed, from)
	if stats.Papers != len(b.papers) {
		return mismatch
	}
	rng := rand.New(rand.NewPCG(b.cfg.Seed, 3))
	sample := make([]string, min(len(b.papers), corpusIDSample))
	for i := range sample {
		sample[i] = b.papers[rng.IntN(len(b.papers))]
	}
	ps, err := st.Papers(ctx, sample)
	if err != nil {
		return err
	}
	for i, p := range ps {
		if p == nil {
			return fmt.Errorf("%w (paper %s is not stored)", mismatch, sample[i])
		}
	}
	return nil
}

// corpusIDSample is how many of corpusIDs' ids are checked in the store.
const corpusIDSample = 200

// readEntityIDs lists the entities linked to a paper, which the query
// phases pick from, in id order, with their names.
func (b *bench) readEntityIDs(ctx context.Context, st server.Store) error {
	b.names = map[string]string{}
	after := ""
	for {
		page, err := st.ListEntities(ctx, graph.EntityQuery{Order: graph.ByName, First: graph.MaxLimit, After: after})
		if err != nil {
			return err
		}
		for _, e := range page.Entities {
			if e.PaperCount > 0 {
				b.entities = append(b.entities, e.ID())
				b.names[e.ID()] = e.Name
			}
		}
		if !page.HasNext {
			return nil
		}
		after = page.EndCursor
	}
}
