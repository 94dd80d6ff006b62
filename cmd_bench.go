package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"time"

	"github.com/papergraph/papergraph/bench"
	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/extract"
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
--db as an earlier bench --db run left it, or against the Dgraph cluster of
--dgraph as an earlier bench --dgraph (or export --format rdf and dgraph
bulk) left it: give the --papers, --seed and --corpus of that run, whose
paper ids bench generates again rather than list the cluster's.

Example:
  papergraph bench --papers 100000 --http --json > bench.json

flags:
`

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("bench", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var cfg bench.Config
	flags.IntVar(&cfg.Papers, "papers", 10000, "number of papers `N` to generate and ingest")
	flags.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generated corpus and of the query picks")
	flags.StringVar(&cfg.Corpus, "corpus", "", "read abstracts from `FILE` (any format extract reads) instead of generating them")
	flags.BoolVar(&cfg.HTTP, "http", false, "also load the real HTTP server with papersSharing queries")
	flags.IntVar(&cfg.Concurrency, "concurrency", 64, "concurrent HTTP clients `C`")
	flags.IntVar(&cfg.HTTPPapers, "http-papers", 0, "draw the HTTP load's papers from `K` of them (default all)")
	flags.DurationVar(&cfg.Duration, "duration", 10*time.Second, "length `D` of the HTTP load")
	flags.IntVar(&cfg.ResponseCache, "response-cache", 0, "the server's response cache size `n` during the HTTP load (0: off, so that every request is executed)")
	flags.IntVar(&cfg.Queries, "queries", 2000, "in-process queries `Q` of each kind")
	flags.BoolVar(&cfg.NoExport, "no-export", false, "skip the whole-graph export phase")
	asJSON := flags.Bool("json", false, "print the results as one JSON object")
	flags.StringVar(&cfg.DB, "db", "", "database `DIR`, absent or empty, kept afterwards (default: a temporary directory, removed)")
	writeCorpus := flags.String("write-corpus", "", "only write the corpus of --papers documents to `FILE` as JSON Lines, and exit")
	cpuProfile := flags.String("cpuprofile", "", "write a CPU profile of the run to `FILE`")
	memProfile := flags.String("memprofile", "", "write a profile of the run's allocations to `FILE`")
	flags.BoolVar(&cfg.Incremental, "incremental", false, "ingest with PutPapers, as into a database that holds data, rather than with a bulk load")
	flags.StringVar(&cfg.Dgraph, "dgraph", "", "ingest into and query the Dgraph cluster whose alpha listens at `HOST:9080`, empty (with --reuse: query what it holds), instead of a Badger database")
	flags.BoolVar(&cfg.Reuse, "reuse", false, "skip extraction and ingest: query the database in --db, left by an earlier bench --db")
	flags.Usage = func() { fmt.Fprint(flags.Output(), benchUsage); flags.PrintDefaults() }
	if err := parseFlags(flags, args, stdout); err != nil {
		return err
	}
	switch {
	case flags.NArg() > 0:
		flags.Usage()
		return fmt.Errorf("%w: bench takes no arguments, got %q", errUsage, flags.Args())
	case cfg.Papers < 1:
		return fmt.Errorf("%w: --papers must be at least 1", errUsage)
	case cfg.Queries < 1:
		return fmt.Errorf("%w: --queries must be at least 1", errUsage)
	case cfg.Reuse && cfg.DB == "" && cfg.Dgraph == "":
		return fmt.Errorf("%w: --reuse needs --db or --dgraph", errUsage)
	case cfg.Dgraph != "" && cfg.DB != "":
		return fmt.Errorf("%w: --db and --dgraph are two backends: give one", errUsage)
	case cfg.HTTP && (cfg.Concurrency < 1 || cfg.Duration <= 0):
		return fmt.Errorf("%w: --concurrency and --duration must be positive", errUsage)
	case cfg.HTTPPapers < 0:
		return fmt.Errorf("%w: --http-papers must not be negative", errUsage)
	case cfg.ResponseCache < 0:
		return fmt.Errorf("%w: --response-cache must not be negative", errUsage)
	}
	if cfg.DB != "" && !cfg.Reuse {
		if err := checkEmptyDir(cfg.DB); err != nil {
			return err
		}
	}
	cfg.Log = slog.New(slog.NewTextHandler(stderr, nil))
	cfg.Progress = stderr

	x, err := extract.New(extract.Options{})
	if err != nil {
		return err
	}
	if *writeCorpus != "" {
		return writeCorpusFile(x, cfg, *writeCorpus)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *memProfile != "" {
		defer func() {
			if err := writeHeapProfile(*memProfile); err != nil {
				cfg.Log.Error("memory profile", "err", err)
			}
		}()
	}
	res, err := bench.Run(ctx, x, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return res.WriteTable(stdout)
}

// writeCorpusFile writes the first --papers documents of the corpus to
// name as JSON Lines.
func writeCorpusFile(x *extract.Extractor, cfg bench.Config, name string) error {
	c, err := corpus.Open(x.Vocabulary(), cfg.Seed, cfg.Corpus)
	if err != nil {
		return err
	}
	defer c.Close()
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := corpus.WriteJSONL(w, c, cfg.Papers); err != nil {
		f.Close()
		return fmt.Errorf("write corpus %s: %w", name, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write corpus %s: %w", name, err)
	}
	return f.Close()
}

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
