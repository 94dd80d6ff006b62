package bench

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/extract"
)

// extractSample measures extraction alone on the first documents of the
// corpus, held in memory: with every core (one worker per GOMAXPROCS),
// then with one.
func (b *bench) extractSample(ctx context.Context) error {
	c, err := corpus.Open(b.x.Vocabulary(), b.cfg.Seed, b.cfg.Corpus)
	if err != nil {
		return err
	}
	defer c.Close()
	docs := make([]extract.Document, min(b.cfg.Papers, sampleDocs))
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
	p := b.newProgress("extract", "papers", int64(len(docs)))
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(docs) {
					return
				}
				if _, err := b.x.Extract(ctx, docs[i]); err != nil {
					return // ctx ended, which the caller reports
				}
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

	one := docs[:min(len(docs), sampleOneCore)]
	start = time.Now()
	for _, d := range one {
		if _, err := b.x.Extract(ctx, d); err != nil {
			return err
		}
	}
	secs = time.Since(start).Seconds()
	b.res.ExtractSingleMBs = roundTo(float64(size(one))/1e6/secs, 3)
	b.res.ExtractSinglePapersS = roundTo(float64(len(one))/secs, 1)
	b.log.Info("extraction measured", "papers", len(docs), "mb_s", b.res.ExtractMBs,
		"papers_s", b.res.ExtractPapersS, "single_core_papers_s", b.res.ExtractSinglePapersS)
	return ctx.Err()
}
