package bench

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/ingest"
)

// ingest runs the ingest pipeline, as the ingest command does (with its
// heap limit), on the first --papers documents of the corpus into a fresh
// store in dir, then closes the store and measures it on disk.
func (b *bench) ingest(ctx context.Context, dir string) error {
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		return err
	}
	if err := b.ingestInto(ctx, st); err != nil {
		st.Close()
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	if b.res.DBBytes, err = diskBytes(dir); err != nil {
		return err
	}
	b.log.Info("ingest done", "papers", b.cfg.Papers, "seconds", b.res.IngestSeconds, "papers_s", b.res.IngestPapersS,
		"put_papers_s", b.res.PutPapersS, "db_bytes", b.res.DBBytes)
	return nil
}

// sink is a store that ingest writes: Badger's, or a Dgraph cluster's.
type sink interface {
	ingest.Sink
	Stats(ctx context.Context) (graph.Stats, error)
}

// ingestInto is ingest into st, empty.
func (b *bench) ingestInto(ctx context.Context, st sink) error {
	defer ingest.LimitMemory()()
	c, err := corpus.Open(b.x.Vocabulary(), b.cfg.Seed, b.cfg.Corpus)
	if err != nil {
		return err
	}
	defer c.Close()
	rssStop, rssDone := make(chan struct{}), make(chan struct{})
	stopRSS := sync.OnceFunc(func() { close(rssStop) })
	defer stopRSS()
	go func() {
		b.res.IngestPeakAnonBytes, b.res.IngestPeakFileBytes, b.res.IngestPeakHeapLiveBytes = memPeaks(rssStop)
		close(rssDone)
	}()
	p := b.newProgress("ingest", "papers", int64(b.cfg.Papers))
	src := corpus.Take(c, b.cfg.Papers)
	ids := make([]string, 0, b.cfg.Papers)
	b.names = map[string]string{}
	// A fresh database is bulk loaded, as ingest does; --incremental
	// measures PutPapers, what ingest into a database with data costs.
	sum, err := ingest.Run(ctx, st, b.x, src, ingest.Options{
		Incremental: b.cfg.Incremental,
		// The ids and entities the queries pick from, as the papers go by:
		// reading them back from the store cost seconds at 100k papers.
		Written: func(papers []graph.Paper) {
			for i := range papers {
				ids = append(ids, papers[i].ID)
				for _, e := range papers[i].Entities {
					if id := e.ID(); b.names[id] == "" {
						b.names[id] = e.Name
					}
				}
			}
		},
		// The bar moves per paper extracted; the final merge is a phase.
		Extracted: func(int64) { p.add(1) },
		Phase:     func(ph ingest.Phase) { p.step("ingest: final step, " + string(ph)) },
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

	slices.Sort(ids)
	b.papers = slices.Compact(ids)
	for id := range b.names {
		b.entities = append(b.entities, id)
	}
	slices.Sort(b.entities)
	secs := sum.Elapsed.Seconds()
	b.res.IngestMode = "incremental"
	if sum.Bulk {
		b.res.IngestMode = "bulk"
	}
	b.res.CorpusBytes = src.Read()
	b.res.IngestSeconds = roundTo(secs, 3)
	b.res.IngestPapersS = roundTo(float64(b.cfg.Papers)/secs, 1)
	b.res.PutPapersS = roundTo(float64(b.cfg.Papers)/sum.Writing.Seconds(), 1)
	b.res.StoredPapers = stats.Papers
	for _, n := range stats.Entities {
		b.res.Entities += n
	}
	b.res.Edges = stats.Edges
	return nil
}
