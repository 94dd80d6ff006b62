package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/ingest"
)

const ingestUsage = `usage: papergraph ingest [flags] FILE...

Extracts the papers of each FILE (seed text, JSON Lines, OpenReview notes
or arXiv metadata, detected from the content) and stores them, with their
entities and edges, in the database. Ingesting the same input again adds
nothing; a paper whose extraction changed (new vocabulary) gets its edges
replaced. Flags come before the files.

flags:
`

func runIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	inputFormat := fs.String("input-format", "", "force the input format: text, jsonl, openreview or arxiv (default: detect)")
	skipBad := fs.Bool("skip-bad", false, "warn about bad records and go on, instead of stopping at the first")
	dg := fs.String("dgraph", "", dgraphUsage)
	batch := fs.Int("batch", ingest.DefaultBatch, "papers written per batch")
	var vocab stringList
	fs.Var(&vocab, "vocab", "extra vocabulary `FILE` (kind<TAB>name<TAB>aliases<TAB>broader); repeatable")
	fs.Usage = func() { fmt.Fprint(fs.Output(), ingestUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
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
	defer ingest.LimitMemory()()
	s, err := openBackend(ctx, *db, *dg, store.Options{Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	warn := func(err error) { log.Warn("skipped bad record", "err", err) }
	src := ingest.Files(ctx, fs.Args(), extract.ReaderOptions{Format: format, SkipBad: *skipBad, Warn: warn})
	defer src.Close()
	progress := newIngestProgress(stderr, log, total)
	sum, err := ingest.Run(ctx, s, x, src, ingest.Options{Batch: *batch, SkipBad: *skipBad, Warn: warn,
		Progress: progress.update, Extracted: progress.extracted, Phase: progress.phase})
	progress.finish(err)
	// The summary is printed even after an error or an interrupt: what was
	// written stays written, and the user should know how much that was.
	st, serr := s.Stats(context.WithoutCancel(ctx))
	fmt.Fprint(stdout, ingestSummary(sum, st, serr))
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// ingestSummary formats the summary with the database's counts st (or the
// error reading them).
func ingestSummary(s ingest.Summary, st graph.Stats, err error) string {
	out := fmt.Sprintf("papers: %d added, %d updated, %d unchanged, %d skipped in %v (%.0f papers/s)\n",
		s.Added, s.Updated, s.Unchanged, s.Skipped, s.Elapsed.Round(time.Millisecond), float64(s.Papers())/max(s.Elapsed.Seconds(), 1e-9))
	if err != nil {
		return out + fmt.Sprintf("database: %v\n", err)
	}
	out += fmt.Sprintf("database: %d papers, %d edges; entities:", st.Papers, st.Edges)
	for _, k := range graph.Kinds {
		out += fmt.Sprintf(" %d %s", st.Entities[k], k.Plural())
	}
	return out + "\n"
}

// ingestProgress shows an ingest's progress: a bar of the input's bytes
// extracted on a terminal, moved paper by paper, with the time left at the
// rate so far; a line for the final step (a bulk load's merge); 100% at
// the end. Elsewhere a log line every five seconds and one per final step.
type ingestProgress struct {
	bar     *progressbar.ProgressBar // nil when stderr is not a terminal
	w       io.Writer                // the bar's terminal
	log     *slog.Logger
	total   int64        // bytes of all files, for the bar's ETA
	done    atomic.Int64 // bytes extracted, the most any document reached
	lastLog time.Time
	// saidBulk reports whether the log says the ingest is a bulk load.
	saidBulk bool
}

func newIngestProgress(stderr io.Writer, log *slog.Logger, total int64) *ingestProgress {
	p := &ingestProgress{log: log, w: stderr, total: total, lastLog: time.Now()}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("ingest"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(stderr) }),
		)
	}
	return p
}

// extracted moves the bar to read bytes, unless a document further on was
// extracted first (the extraction goroutines run out of order).
func (p *ingestProgress) extracted(read int64) {
	for {
		cur := p.done.Load()
		if read <= cur {
			return
		}
		if p.done.CompareAndSwap(cur, read) {
			break
		}
	}
	// One byte short of the end at most: a full bar no longer draws, and
	// the final step has no bytes to count; finish fills it.
	if p.bar != nil && read < p.total {
		p.bar.Set64(read)
	}
}

// update shows sum, the ingest so far, after a batch is written.
func (p *ingestProgress) update(sum ingest.Summary) {
	if sum.Bulk && !p.saidBulk {
		p.saidBulk = true
		p.log.Info("bulk load into an empty database")
	}
	rate := float64(sum.Papers()) / sum.Elapsed.Seconds()
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("ingest: %d papers written, %.0f/s", sum.Papers(), rate))
		return
	}
	if time.Since(p.lastLog) >= 5*time.Second {
		p.lastLog = time.Now()
		p.log.Info("ingest", "papers", sum.Papers(), "added", sum.Added, "updated", sum.Updated,
			"unchanged", sum.Unchanged, "skipped", sum.Skipped, "papers_per_s", int(rate),
			"read_pct", int(100*float64(p.done.Load())/float64(max(p.total, 1))))
	}
}

// phase shows the final step the ingest entered.
func (p *ingestProgress) phase(ph ingest.Phase) {
	msg := map[ingest.Phase]string{
		ingest.PhaseMerge: "ingest: every paper extracted; merging the bulk load into the store",
		ingest.PhaseGC:    "ingest: every paper written; collecting the value log's garbage",
	}[ph]
	if p.bar != nil {
		// A line of its own, now: the bar draws at most every 200 ms,
		// and nothing moves it again until the end.
		p.bar.Clear()
		fmt.Fprintln(p.w, msg+"...")
		p.bar.Describe("ingest")
		return
	}
	p.log.Info(msg)
}

// finish ends the bar at 100% after a whole ingest, or where it stood
// after an error.
func (p *ingestProgress) finish(err error) {
	if p.bar == nil {
		return
	}
	if err == nil {
		p.bar.Describe("ingest: done")
		p.bar.Finish()
		return
	}
	p.bar.Exit()
}
