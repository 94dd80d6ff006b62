package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// defaultDB returns the database directory used when --db is omitted:
// $PAPERGRAPH_DB when set, else papergraph/db under the user's cache
// directory (for example ~/.cache/papergraph/db).
func defaultDB() string {
	if dir := os.Getenv("PAPERGRAPH_DB"); dir != "" {
		return dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		// No home directory (a bare container): fall back to a directory
		// that always exists rather than fail every command.
		cache = os.TempDir()
	}
	return filepath.Join(cache, "papergraph", "db")
}

// openStore opens the database in dir (defaultDB when dir is empty),
// creating the directory unless opts.ReadOnly. Every command that reads or
// writes a database opens it here, so they agree on the default location.
func openStore(dir string, opts store.Options) (*store.Store, error) {
	if dir == "" {
		dir = defaultDB()
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	return store.Open(dir, opts)
}

// parseFlags parses args with fs, marking errors in the command line
// with errUsage (exit status 2).
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
}

const ingestUsage = `usage: papergraph ingest [flags] FILE...

Extracts the papers of each FILE (seed text, JSON Lines, OpenReview notes
or arXiv metadata, detected from the content) and stores them, with their
entities and edges, in the database. Ingesting the same input again adds
nothing; a paper whose extraction changed (new vocabulary) gets its edges
replaced. Flags come before the files.

flags:
`

// ingestMemoryLimit is the Go heap's soft limit during ingest unless
// GOMEMLIMIT sets one. Badger's memtables and caches live on the Go heap
// and its tables are mapped files that count in RSS too; without a limit
// the collector lets the heap grow to twice what is live. Measured on 100k
// papers: peak RSS 2.2 GiB without it, 1.3-1.4 GiB with it (0.8 GiB heap, 0.5
// GiB mapped tables), for a few percent more CPU.
const ingestMemoryLimit = 900 << 20

// limitIngestMemory sets the collector for an ingest, unless GOGC or
// GOMEMLIMIT set it, and returns what restores it: the heap's soft limit
// is ingestMemoryLimit, and nothing else starts a collection. With GOGC
// at 100 as well, the collector also ran each time the heap doubled, most
// often early in a load, when little is live: a bulk load of 100k papers
// is 10-15% faster with the limit alone, at the same peak RSS (bench, 30
// Nov 2026).
func limitIngestMemory() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		return func() {}
	}
	limit := debug.SetMemoryLimit(ingestMemoryLimit)
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// ingestDefaultBatch is the default number of papers per PutPapers call:
// a few of Badger's transactions (about 1000 papers each), which PutPapers
// pipelines, and small enough that an interrupted ingest loses little
// work.
const ingestDefaultBatch = 4000

func runIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	inputFormat := fs.String("input-format", "", "force the input format: text, jsonl, openreview or arxiv (default: detect)")
	skipBad := fs.Bool("skip-bad", false, "warn about bad records and go on, instead of stopping at the first")
	batch := fs.Int("batch", ingestDefaultBatch, "papers written per batch")
	var vocab stringList
	fs.Var(&vocab, "vocab", "extra vocabulary `FILE` (kind<TAB>name<TAB>aliases<TAB>broader); repeatable")
	fs.Usage = func() { fmt.Fprint(stderr, ingestUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("%w: ingest needs at least one FILE", errUsage)
	}
	if *batch < 1 {
		return fmt.Errorf("%w: ingest: --batch %d: want at least 1", errUsage, *batch)
	}
	format := extract.Format(*inputFormat)
	switch format {
	case extract.Auto, extract.SeedText, extract.JSONLines, extract.OpenReview, extract.ArXiv:
	default:
		return fmt.Errorf("%w: ingest: --input-format %q: want text, jsonl, openreview or arxiv", errUsage, *inputFormat)
	}
	x, err := extract.New(extract.Options{VocabFiles: vocab})
	if err != nil {
		return err
	}
	var total int64
	for _, name := range fs.Args() {
		fi, err := os.Stat(name)
		if err != nil {
			return err
		}
		total += fi.Size()
	}
	defer limitIngestMemory()()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s, err := openStore(*db, store.Options{Logger: log})
	if err != nil {
		return err
	}
	in := &ingester{
		store: s, x: x, files: fs.Args(), batch: *batch, total: total,
		ropts: extract.ReaderOptions{Format: format, SkipBad: *skipBad},
		log:   slog.New(slog.NewTextHandler(stderr, nil)),
	}
	in.ropts.Warn = func(err error) { in.log.Warn("skipped bad record", "err", err) }
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		in.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("ingest"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	sum, err := in.run(ctx)
	if in.bar != nil {
		in.bar.Finish()
	}
	if err == nil && sum.Updated > 0 {
		// Updated papers left their old records in the value log.
		err = s.CollectGarbage(ctx)
	}
	// The summary is printed even after an error or an interrupt: what was
	// written stays written, and the user should know how much that was.
	st, serr := s.Stats(context.WithoutCancel(ctx))
	fmt.Fprint(stdout, sum.String(st, serr))
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// ingester streams files through the extractor into a store.
type ingester struct {
	store *store.Store
	x     *extract.Extractor
	files []string
	batch int
	total int64 // bytes of all files, for the progress bar's ETA
	ropts extract.ReaderOptions
	log   *slog.Logger
	bar   *progressbar.ProgressBar // nil when stderr is not a terminal
}

// ingestSummary is what an ingest did.
type ingestSummary struct {
	graph.PutResult
	Skipped int
	Elapsed time.Duration
}

func (s ingestSummary) papers() int { return s.Added + s.Updated + s.Unchanged }

// String formats the summary with the database's counts st (or the error
// reading them).
func (s ingestSummary) String(st graph.Stats, err error) string {
	out := fmt.Sprintf("papers: %d added, %d updated, %d unchanged, %d skipped in %v (%.0f papers/s)\n",
		s.Added, s.Updated, s.Unchanged, s.Skipped, s.Elapsed.Round(time.Millisecond), float64(s.papers())/max(s.Elapsed.Seconds(), 1e-9))
	if err != nil {
		return out + fmt.Sprintf("database: %v\n", err)
	}
	out += fmt.Sprintf("database: %d papers, %d edges; entities:", st.Papers, st.Edges)
	for _, k := range graph.Kinds {
		out += fmt.Sprintf(" %d %s", st.Entities[k], k.Plural())
	}
	return out + "\n"
}

// chunk is a batch of extracted papers and how far into the input it
// reaches.
type chunk struct {
	papers []graph.Paper
	read   int64 // bytes of input read when the chunk was cut
	skip   int   // records skipped so far
	err    error // the error that ended the input, after papers
}

// run reads, extracts and writes. Reading and extraction of the next
// batch overlap with the writing of the current one; extraction runs on
// every core. A bad record (without --skip-bad) ends the ingest after the
// papers before it are written.
//
// Into an empty database, it writes through a store.Loader: a bulk load,
// which the database gets whole at the end; an error or an interrupt
// still writes the papers read so far, as PutPapers would have.
func (in *ingester) run(ctx context.Context) (sum ingestSummary, err error) {
	start := time.Now()
	load, err := in.store.NewLoader()
	switch {
	case errors.Is(err, graph.ErrNotEmpty):
		load = nil
	case err != nil:
		return sum, err
	default:
		in.log.Info("bulk load into an empty database")
		defer func() {
			if in.bar != nil {
				in.bar.Describe("ingest: writing the database")
			}
			r, ferr := load.Finish(context.WithoutCancel(ctx))
			sum.PutResult = r
			sum.Elapsed = time.Since(start)
			err = cmp.Or(err, ferr)
		}()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks := make(chan chunk, 1)
	go in.produce(ctx, chunks)
	lastLog := start
	for c := range chunks {
		if len(c.papers) > 0 && load != nil {
			// Papers given twice are counted at Finish.
			if err := load.Add(ctx, c.papers); err != nil {
				return sum, err
			}
			sum.Added += len(c.papers)
		} else if len(c.papers) > 0 {
			r, err := in.store.PutPapers(ctx, c.papers)
			sum.Added += r.Added
			sum.Updated += r.Updated
			sum.Unchanged += r.Unchanged
			if err != nil {
				sum.Elapsed = time.Since(start)
				return sum, err
			}
		}
		sum.Skipped = c.skip
		sum.Elapsed = time.Since(start)
		if in.bar != nil {
			in.bar.Describe(fmt.Sprintf("ingest: %d papers, %.0f/s", sum.papers(), float64(sum.papers())/sum.Elapsed.Seconds()))
			in.bar.Set64(c.read)
		} else if time.Since(lastLog) >= 5*time.Second {
			lastLog = time.Now()
			in.log.Info("ingest", "papers", sum.papers(), "added", sum.Added, "updated", sum.Updated,
				"unchanged", sum.Unchanged, "skipped", sum.Skipped, "papers_per_s", int(float64(sum.papers())/sum.Elapsed.Seconds()),
				"read_pct", int(100*float64(c.read)/float64(max(in.total, 1))))
		}
		if c.err != nil {
			return sum, c.err
		}
	}
	sum.Elapsed = time.Since(start)
	return sum, ctx.Err()
}

// produce reads every file, extracts batches in parallel and sends them in
// input order; it closes out when done, after an error, or when ctx ends.
func (in *ingester) produce(ctx context.Context, out chan<- chunk) {
	defer close(out)
	var read, skipped int64
	docs := make([]extract.Document, 0, in.batch)
	send := func(err error) bool {
		c := chunk{papers: in.extractAll(docs), read: read, err: err}
		kept := c.papers[:0]
		for i := range c.papers {
			verr := graph.ValidatePaper(&c.papers[i])
			if verr == nil {
				kept = append(kept, c.papers[i])
				continue
			}
			// The extractor made something unstorable of this record: a
			// bad record like any other. Everything before it is kept.
			bad := fmt.Errorf("%s:%d: %w", docs[i].Source, docs[i].Line, verr)
			if !in.ropts.SkipBad {
				c.err = bad
				break
			}
			in.ropts.Warn(bad)
			skipped++
		}
		c.papers, c.skip = kept, int(skipped)
		docs = docs[:0]
		select {
		case out <- c:
			return c.err == nil
		case <-ctx.Done():
			return false
		}
	}
	for _, name := range in.files {
		f, err := os.Open(name)
		if err != nil {
			send(err)
			return
		}
		cr := &countingReader{r: f, n: &read}
		r := extract.NewReader(cr, name, in.ropts)
		base := skipped
		for {
			d, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				skipped = base + int64(r.Skipped())
				send(err)
				return
			}
			skipped = base + int64(r.Skipped())
			docs = append(docs, d)
			if len(docs) == in.batch && !send(nil) {
				f.Close()
				return
			}
		}
		f.Close()
	}
	if len(docs) > 0 {
		send(nil)
	}
}

// extractAll extracts docs on every core, keeping their order.
func (in *ingester) extractAll(docs []extract.Document) []graph.Paper {
	papers := make([]graph.Paper, len(docs))
	workers := min(runtime.GOMAXPROCS(0), len(docs))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(docs); i += workers {
				papers[i] = in.x.Extract(docs[i])
			}
		}()
	}
	wg.Wait()
	return papers
}

// countingReader counts the bytes read through it, for progress.
type countingReader struct {
	r io.Reader
	n *int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}

const statsUsage = `usage: papergraph stats [flags]

Prints the database's counts of papers, entities per kind and edges.

flags:
`

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	asJSON := fs.Bool("json", false, `print {"papers": N, "entities": {"task": N, ...}, "edges": N}`)
	fs.Usage = func() { fmt.Fprint(stderr, statsUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: stats takes no arguments", errUsage)
	}
	s, err := openStore(*db, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := s.Stats(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(st)
	}
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "papers\t%d\t\n", st.Papers)
	for _, k := range graph.Kinds {
		fmt.Fprintf(tw, "%s\t%d\t\n", k.Plural(), st.Entities[k])
	}
	fmt.Fprintf(tw, "edges\t%d\t\n", st.Edges)
	return tw.Flush()
}

const checkUsage = `usage: papergraph check [flags]

Verifies the database's invariants (every edge in both directions,
counters equal to what they count, no edge to a missing node, consistent
taxonomy and full-text index) and prints each violation. It exits non-zero
when there is any.

flags:
`

// errViolations is returned by check when the database is inconsistent.
var errViolations = errors.New("database has violations")

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	fs.Usage = func() { fmt.Fprint(stderr, checkUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: check takes no arguments", errUsage)
	}
	s, err := openStore(*db, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	v, err := s.Check(ctx)
	if err != nil {
		return err
	}
	for _, line := range v {
		fmt.Fprintln(stdout, line)
	}
	if len(v) > 0 {
		return fmt.Errorf("%w: %d found", errViolations, len(v))
	}
	st, err := s.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ok: %d papers, %d edges\n", st.Papers, st.Edges)
	return nil
}
