package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/server"
)

// queries times each traversal on Q random picks (fixed by the seed),
// after Q/10 untimed ones that warm Badger's caches.
func (b *bench) queries(ctx context.Context, st server.Store) error {
	if len(b.papers) == 0 {
		return errors.New("bench: no papers stored")
	}
	rng := rand.New(rand.NewPCG(b.cfg.Seed, 2))
	paper := func() string { return b.papers[rng.IntN(len(b.papers))] }
	entity := func() string {
		if len(b.entities) == 0 {
			return paper()
		}
		return b.entities[rng.IntN(len(b.entities))]
	}
	found := 0
	var answers []sharingAnswer
	kinds := []struct {
		name string
		run  func() error
	}{
		{"papersSharing", func() error {
			id := paper()
			ms, err := st.Sharing(ctx, id, graph.SharingQuery{})
			if len(answers) < sharingChecked {
				a := sharingAnswer{paper: id}
				for _, m := range ms {
					a.got = append(a.got, m.Paper.ID)
				}
				answers = append(answers, a)
			}
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
	q := b.cfg.Queries
	warm := q / 10
	p := b.newProgress("queries", "queries", int64(len(kinds)*(q+warm)))
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
		b.res.Queries[k.name] = &Latency{N: len(durs), P50: micros(l.p50), P95: micros(l.p95), P99: micros(l.p99), Max: micros(l.max)}
		if k.name == "path" {
			b.res.PathFound = float64(found) / float64(q)
		}
	}
	// The check walks every paper: the Badger store's Walk. Dgraph's
	// answers are computed exactly in DQL and are not checked here.
	if w, ok := st.(walker); ok {
		n, err := checkSharing(ctx, w, answers)
		if err != nil {
			return fmt.Errorf("bench: check papersSharing: %w", err)
		}
		b.res.SharingChecked, b.res.SharingMismatches = len(answers), n
	}
	return nil
}
