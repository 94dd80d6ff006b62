package bench

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// sharingChecked is how many of the timed papersSharing queries are
// compared with brute force.
const sharingChecked = 200

// sharingAnswer is a papersSharing query and the papers it returned.
type sharingAnswer struct {
	paper string
	got   []string
}

// walker is a store that streams every paper: the Badger store.
type walker interface {
	Walk(ctx context.Context, paper func(graph.Paper) error, entity func(graph.Entity) error) error
}

// checkSharing counts the answers that differ from the exact top 20 by
// Adamic-Adar score (datasets, ties by id), computed by brute force from
// every paper's datasets, read with Walk: the answer papersSharing
// documents, checked against an implementation that shares nothing with
// the store's.
func checkSharing(ctx context.Context, st walker, answers []sharingAnswer) (int, error) {
	papersOf := map[string][]string{} // dataset -> papers
	datasets := map[string][]string{} // paper -> datasets
	err := st.Walk(ctx, func(p graph.Paper) error {
		for _, e := range p.Entities {
			if e.Kind == graph.Dataset {
				papersOf[e.ID()] = append(papersOf[e.ID()], p.ID)
				datasets[p.ID] = append(datasets[p.ID], e.ID())
			}
		}
		return nil
	}, nil)
	if err != nil {
		return 0, err
	}
	mismatches := 0
	for _, a := range answers {
		own := slices.Clone(datasets[a.paper])
		// Summed rarest first, ties by id, as the store sums, so that equal
		// scores are equal floats.
		slices.SortFunc(own, func(x, y string) int {
			return cmp.Or(cmp.Compare(len(papersOf[x]), len(papersOf[y])), strings.Compare(x, y))
		})
		score := map[string]float64{}
		for _, d := range own {
			w := 1 / math.Log(float64(max(len(papersOf[d]), 2)))
			for _, p := range papersOf[d] {
				if p != a.paper {
					score[p] += w
				}
			}
		}
		better := func(x, y string) int { return cmp.Or(cmp.Compare(score[y], score[x]), strings.Compare(x, y)) }
		var top []string // the best DefaultLimit so far, best first
		for p := range score {
			if len(top) == graph.DefaultLimit && better(p, top[len(top)-1]) > 0 {
				continue
			}
			at, _ := slices.BinarySearchFunc(top, p, better)
			top = slices.Insert(top, at, p)
			top = top[:min(len(top), graph.DefaultLimit)]
		}
		if !slices.Equal(top, a.got) {
			mismatches++
		}
	}
	return mismatches, nil
}
