package corpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// PaperID returns a valid paper id for n, distinct for distinct n: the
// ids of Papers.
func PaperID(n uint64) string { return fmt.Sprintf("%016x", n*0x9e3779b97f4a7c15) }

// Words returns n pronounceable made-up words, the vocabulary of the
// abstracts of Papers; the first n of a larger call are the same.
func Words(n int) []string {
	cons, vows := "bcdfghklmnprstvz", "aeiou"
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		x := i + 1
		for x > 0 || b.Len() < 4 {
			b.WriteByte(cons[x%len(cons)])
			x /= len(cons)
			b.WriteByte(vows[x%len(vows)])
			x /= len(vows)
		}
		words[i] = b.String()
	}
	return words
}

// Papers returns n deterministic papers drawn from seed, as the extractor
// would have made them, for the store's tests and benchmarks, which need
// no extractor. Abstracts are words terms, Zipf over Words(30000). Entity
// popularity is Zipf (P(rank k) ~ 1/(k+1)^s) over pools of 400 tasks, 12
// modalities, 20,000 datasets and 5,000 techniques: the top dataset is
// linked to about a third of the papers, most datasets to a handful. Every
// tenth dataset is "-G", with a broader parent and an alias.
func Papers(seed uint64, n, words int) []graph.Paper {
	rng := rand.New(rand.NewPCG(seed, 1))
	vocab := Words(30000)
	word := rand.NewZipf(rng, 1.07, 2, uint64(len(vocab)-1))
	pools := []struct {
		kind    graph.Kind
		zipf    *rand.Zipf
		min, nr int // entities per paper: min + rand(nr)
	}{
		{graph.Task, rand.NewZipf(rng, 1.2, 1, 400), 1, 2},
		{graph.Modality, rand.NewZipf(rng, 1.5, 1, 12), 1, 1},
		{graph.Dataset, rand.NewZipf(rng, 1.15, 1, 20000), 1, 3},
		{graph.Technique, rand.NewZipf(rng, 1.1, 2, 5000), 1, 4},
	}
	papers := make([]graph.Paper, n)
	for i := range papers {
		p := &papers[i]
		p.ID = PaperID(uint64(i) + seed<<32)
		p.Source, p.Index = "gen.jsonl", i+1
		var b strings.Builder
		for j := range words {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[word.Uint64()])
		}
		p.Abstract = b.String()
		p.Title = fmt.Sprintf("Generated paper %d", i)
		p.Label = p.Title
		seen := map[string]bool{}
		for _, pool := range pools {
			for range pool.min + rng.IntN(pool.nr) {
				j := pool.zipf.Uint64()
				e := graph.Entity{Kind: pool.kind, Name: fmt.Sprintf("%s %d", pool.kind, j)}
				if pool.kind == graph.Dataset && j%10 == 1 {
					e.Name += "-G"
					e.Broader = []string{fmt.Sprintf("%s %d", pool.kind, j)}
					e.Aliases = []string{fmt.Sprintf("DS%dG", j)}
				}
				if !seen[e.ID()] {
					seen[e.ID()] = true
					p.Entities = append(p.Entities, e)
				}
			}
		}
		slices.SortFunc(p.Entities, func(a, b graph.Entity) int {
			if a.Kind != b.Kind {
				return int(a.Kind) - int(b.Kind)
			}
			return strings.Compare(a.Name, b.Name)
		})
	}
	return papers
}
