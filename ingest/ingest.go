package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// DefaultBatch is the default number of papers per batch: a few of
// Badger's transactions (about 1000 papers each), which PutPapers
// pipelines, and small enough that an interrupted ingest loses little
// work.
const DefaultBatch = 4000

// Options configures Run. The zero Options is what the ingest command
// runs without flags.
type Options struct {
	// Batch is the number of papers extracted and written together; < 1
	// means DefaultBatch.
	Batch int
	// SkipBad makes a paper that graph.ValidatePaper rejects a warning,
	// passed to Warn, rather than the end of the ingest. It does not
	// change the Source, whose own bad records follow its options.
	SkipBad bool
	// Warn receives each bad paper skipped; nil drops them.
	Warn func(error)
	// Incremental writes with PutPapers even into an empty store, instead
	// of bulk loading it: what an ingest into a store with data costs.
	Incremental bool
	// Progress, when not nil, is called after each batch is written, on
	// Run's goroutine.
	Progress func(Summary)
	// Extracted, when not nil, is called as each document is extracted,
	// with the input's bytes up to the end of that document, from the
	// extraction goroutines, concurrently and not quite in order: what a
	// progress bar moves by, paper by paper, rather than by batch.
	Extracted func(read int64)
	// Phase, when not nil, is called on Run's goroutine as the ingest
	// enters a final step after the last batch: PhaseMerge or PhaseGC.
	Phase func(Phase)
	// Written, when not nil, is called with each batch of papers after it
	// is written, before Progress, on Run's goroutine; papers is only
	// valid during the call.
	Written func(papers []graph.Paper)
}

// Phase names a final step of an ingest, which can take a while with no
// paper to count.
type Phase string

// The final steps.
const (
	// PhaseMerge is a bulk load's final write: the sorted runs merged
	// into the store (store.Loader.Finish).
	PhaseMerge Phase = "merge"
	// PhaseGC is the value-log collection after updates.
	PhaseGC Phase = "gc"
)

// Summary is what an ingest did, or has done so far.
type Summary struct {
	graph.PutResult
	// Skipped counts the bad records skipped: by the Source, and papers
	// that failed validation with SkipBad.
	Skipped int
	// Read is the Source's bytes read.
	Read int64
	// Bulk reports whether the papers were bulk loaded into an empty store.
	Bulk bool
	// Elapsed is the time since Run started; at the end it includes the
	// bulk load's final write and the value-log collection.
	Elapsed time.Duration
	// Writing is the part of Elapsed spent in the store's calls; the rest
	// of them overlaps with extraction.
	Writing time.Duration
}

// Papers returns the papers written: added, updated or unchanged.
func (s Summary) Papers() int { return s.Added + s.Updated + s.Unchanged }

// Sink is where Run writes: graph/store's Badger Store, or graph/dgraph's
// Store, whose upserts are idempotent batches already.
type Sink interface {
	PutPapers(ctx context.Context, papers []graph.Paper) (graph.PutResult, error)
}

// bulkSink is a Sink that also loads an empty store in bulk and collects
// the garbage that updates leave: the Badger store.
type bulkSink interface {
	Sink
	NewLoader() (*store.Loader, error)
	CollectGarbage(ctx context.Context) error
}

// Run reads src, extracts its documents with x and writes the papers to
// st, until src ends, an error or ctx's end. Reading and extraction of the
// next batch overlap with the writing of the current one; extraction runs
// on every core and keeps the input order. A bad record (a Source error or,
// without SkipBad, a paper ValidatePaper rejects, named as file:line) ends
// the ingest after the papers before it are written.
//
// Into an empty Badger store (unless Incremental), Run writes through a
// store.Loader: a bulk load, which the store gets whole at the end; an
// error or ctx's end still writes the papers read so far, as PutPapers
// would have. Into a store with data it writes PutPapers batches and,
// after updating papers, collects the value-log garbage they leave.
//
// The Summary counts what was written, also when Run returns an error.
func Run(ctx context.Context, st Sink, x *extract.Extractor, src Source, opts Options) (sum Summary, err error) {
	if opts.Batch < 1 {
		opts.Batch = DefaultBatch
	}
	if opts.Warn == nil {
		opts.Warn = func(error) {}
	}
	start := time.Now()
	var load *store.Loader
	bulk, _ := st.(bulkSink)
	if !opts.Incremental && bulk != nil {
		load, err = bulk.NewLoader()
		switch {
		case errors.Is(err, graph.ErrNotEmpty):
			load = nil
		case err != nil:
			return sum, err
		}
	}
	sum.Bulk = load != nil
	defer func() {
		if load != nil {
			if opts.Phase != nil {
				opts.Phase(PhaseMerge)
			}
			t := time.Now()
			r, ferr := load.Finish(context.WithoutCancel(ctx))
			sum.Writing += time.Since(t)
			sum.PutResult = r
			err = cmp.Or(err, ferr)
		} else if err == nil && sum.Updated > 0 && bulk != nil {
			// Updated papers left their old records in the value log.
			if opts.Phase != nil {
				opts.Phase(PhaseGC)
			}
			err = bulk.CollectGarbage(ctx)
		}
		sum.Elapsed = time.Since(start)
	}()
	// The producer's context: it ends with Run, while the store's calls
	// after it (Finish, CollectGarbage) still use ctx.
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan batch, 1)
	p := producer{x: x, src: src, opts: opts}
	go p.produce(pctx, batches)
	defer func() {
		// Wait for the producer, so that it never outlives Run and its
		// Source.
		cancel()
		for range batches {
		}
	}()
	for b := range batches {
		t := time.Now()
		if len(b.papers) > 0 && load != nil {
			// Papers given twice are counted at Finish.
			if err := load.Add(ctx, b.papers); err != nil {
				return sum, err
			}
			sum.Added += len(b.papers)
		} else if len(b.papers) > 0 {
			r, err := st.PutPapers(ctx, b.papers)
			sum.Added += r.Added
			sum.Updated += r.Updated
			sum.Unchanged += r.Unchanged
			if err != nil {
				return sum, err
			}
		}
		sum.Writing += time.Since(t)
		if opts.Written != nil && len(b.papers) > 0 {
			opts.Written(b.papers)
		}
		sum.Skipped, sum.Read = b.skipped, b.read
		sum.Elapsed = time.Since(start)
		if opts.Progress != nil {
			opts.Progress(sum)
		}
		if b.err != nil {
			return sum, b.err
		}
	}
	return sum, ctx.Err()
}

// batch is a batch of extracted, valid papers and how far into the input
// it reaches.
type batch struct {
	papers  []graph.Paper
	read    int64 // bytes of input read when the batch was cut
	skipped int   // records skipped so far
	err     error // the error that ended the input, after papers
}

// producer reads and extracts batches for Run.
type producer struct {
	x       *extract.Extractor
	src     Source
	opts    Options
	invalid int // papers skipped for failing validation
}

// produce reads the source, extracts batches in parallel and sends them
// in input order; it closes out when done, after an error, or when ctx
// ends.
func (p *producer) produce(ctx context.Context, out chan<- batch) {
	defer close(out)
	docs := make([]extract.Document, 0, p.opts.Batch)
	reads := make([]int64, 0, p.opts.Batch) // input bytes read with each document
	send := func(err error) bool {
		papers, xerr := p.extractAll(ctx, docs, reads)
		if xerr != nil {
			return false // ctx ended, which Run reports
		}
		b := batch{papers: p.valid(papers, docs, &err), err: err}
		b.read, b.skipped = p.src.Read(), p.src.Skipped()+p.invalid
		docs, reads = docs[:0], reads[:0]
		select {
		case out <- b:
			return b.err == nil
		case <-ctx.Done():
			return false
		}
	}
	for {
		if ctx.Err() != nil {
			return
		}
		d, err := p.src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			send(err)
			return
		}
		docs = append(docs, d)
		reads = append(reads, p.src.Read())
		if len(docs) == p.opts.Batch && !send(nil) {
			return
		}
	}
	if len(docs) > 0 {
		send(nil)
	}
}

// valid returns the papers that graph.ValidatePaper accepts, stopping at
// the first it rejects unless SkipBad (then *errp is that error, which
// names the document's file and line).
func (p *producer) valid(papers []graph.Paper, docs []extract.Document, errp *error) []graph.Paper {
	kept := papers[:0]
	for i := range papers {
		verr := graph.ValidatePaper(&papers[i])
		if verr == nil {
			kept = append(kept, papers[i])
			continue
		}
		// The extractor made something unstorable of this record: a bad
		// record like any other. Everything before it is kept.
		bad := fmt.Errorf("%s:%d: %w", docs[i].Source, docs[i].Line, verr)
		if !p.opts.SkipBad {
			*errp = bad
			break
		}
		p.opts.Warn(bad)
		p.invalid++
	}
	return kept
}

// extractAll extracts docs on every core, keeping their order, and tells
// Extracted of each with its entry of reads. Its only error is ctx's:
// once ctx ends, the workers stop within a step of the extractor.
func (p *producer) extractAll(ctx context.Context, docs []extract.Document, reads []int64) ([]graph.Paper, error) {
	papers := make([]graph.Paper, len(docs))
	workers := min(runtime.GOMAXPROCS(0), len(docs))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(docs); i += workers {
				var err error
				if papers[i], err = p.x.Extract(ctx, docs[i]); err != nil {
					return // the extractor's only error is ctx's
				}
				if p.opts.Extracted != nil {
					p.opts.Extracted(reads[i])
				}
			}
		})
	}
	wg.Wait()
	return papers, ctx.Err()
}
