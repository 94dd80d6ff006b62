package corpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
)

// generator writes synthetic abstracts shaped like real ones: a problem
// statement, a contribution with the paper's own name in markup, method
// sentences with LaTeX, experiments on named datasets, fillers up to a
// drawn length (800 to 2,000 bytes). Tasks, datasets and techniques are
// drawn from the extractor's vocabulary with Zipf-like popularity
// (P(rank k) ~ 1/(k+1)^1.1), so a few entities are hubs linked to a third
// of the papers, as "ImageNet" or "large language model" are in real
// corpora, and most entities are rare. The same seed gives the same bytes.
type generator struct {
	rng    *rand.Rand
	kinds  map[graph.Kind]*zipfPool
	source string // Document.Source of every paper: "bench-seed-S"
	i      int    // documents made
	buf    []byte // the abstract being made, reused
}

// zipfPool draws entity spellings with Zipf-distributed popularity.
type zipfPool struct {
	ents []graph.Entity // in popularity order
	zipf *rand.Zipf
}

// Zipf exponent of entity popularity: 1.1 makes the most popular dataset
// appear in about a third of the papers with this vocabulary's size.
const zipfExponent = 1.1

func newGenerator(vocab []graph.Entity, seed uint64) *generator {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	g := &generator{rng: rng, kinds: map[graph.Kind]*zipfPool{}, source: fmt.Sprintf("bench-seed-%d", seed)}
	byKind := map[graph.Kind][]graph.Entity{}
	for _, e := range vocab {
		byKind[e.Kind] = append(byKind[e.Kind], e)
	}
	for _, k := range graph.Kinds {
		ents := byKind[k]
		if len(ents) == 0 {
			continue
		}
		// The files group entries by area; shuffling spreads popularity
		// across areas instead of making one area the hub.
		rng.Shuffle(len(ents), func(i, j int) { ents[i], ents[j] = ents[j], ents[i] })
		g.kinds[k] = &zipfPool{ents: ents, zipf: rand.NewZipf(rng, zipfExponent, 1, uint64(len(ents)-1))}
	}
	return g
}

func (g *generator) Close() error { return nil }

// pick returns one spelling of a popular-weighted entity of kind k: its
// canonical name, or one of its aliases one time in five. Modality
// entries are cues matched by their aliases only.
func (g *generator) pick(k graph.Kind) string {
	p := g.kinds[k]
	if p == nil {
		return "the proposed model"
	}
	e := p.ents[p.zipf.Uint64()]
	if len(e.Aliases) > 0 && (k == graph.Modality || g.rng.IntN(5) == 0) {
		return e.Aliases[g.rng.IntN(len(e.Aliases))]
	}
	return e.Name
}

func (g *generator) one(xs []string) string { return xs[g.rng.IntN(len(xs))] }

// syllables spell the generated paper names; a name encodes the paper's
// index in base 16 (from 17, so every name has two syllables or more), so
// no two papers of a corpus share one.
var syllables = [16]string{"ka", "lo", "mi", "nu", "ra", "se", "ti", "vo", "ze", "qua", "bri", "dal", "fen", "gor", "hel", "jin"}

var nameSuffixes = []string{"", "", "", "Net", "Former", "GPT", "Diff", "-2", "-X", "Agent", "RL", "Flow", "++"}

func (g *generator) paperName(i int) string {
	var b strings.Builder
	for n := i + 17; n > 0; n /= 16 {
		b.WriteString(syllables[n%16])
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:] + g.one(nameSuffixes)
}

// Sentence templates. Slots: {T} task, {D} dataset, {X} technique, {M}
// modality cue, {N} the paper's name, {L} a limitation, {A} an adjective,
// {P} a percentage, {K} a small number.
var (
	openers = []string{
		"{T} is a central problem in machine learning, with applications ranging from {T} to {T}.",
		"Recent advances in {X} have transformed {T}, yet existing systems {L}.",
		"Despite rapid progress, current approaches to {T} {L}.",
		"{X} has emerged as a powerful paradigm for {T}, but in practice it {L}.",
		"Learning from {M} and {M} remains challenging for {T}, as standard {X} pipelines {L}.",
		"A growing body of work applies {X} to {T}; however, these methods {L}.",
	}
	proposals = []string{
		"In this paper, we propose {N}, a {A} framework that combines {X} and {X} for {T}.",
		"We introduce **{N}**, a {A} approach to {T} built on {X}.",
		"To address this, we present \\textbf{{N}}: a {A} {X} model for {T}.",
		"This work proposes {N}, which casts {T} as {X} and solves it with {X}.",
		"We present {N}, a {A} method for {T} that leverages {X}.",
	}
	methods = []string{
		"{N} first encodes the input with {X}, then refines the representation with {X}.",
		"Our key insight is that {X} can be reformulated as {X} at a cost of $\\mathcal{O}(n \\log n)$ instead of $O(n^2)$.",
		"The resulting model uses {K}$\\times$ fewer parameters than prior {X} baselines.",
		"We further introduce a \\textit{{A} regulariser} that stabilises training under {X}.",
		"Unlike previous work, {N} requires no labels for {T} and relies on {X} alone.",
		"We prove that the estimator is unbiased with variance $\\sigma^2/n$ and converges at rate $O(1/\\sqrt{T})$.",
		"A lightweight adapter aligns {M} features with {M} features through {X}.",
	}
	experiments = []string{
		"Experiments on {D}, {D} and {D} show that {N} outperforms strong baselines by {P}\\% on average.",
		"Extensive evaluations on the {D} and {D} benchmarks demonstrate state-of-the-art results for {T}.",
		"On {D}, {N} reaches {P}\\% accuracy, a {K}-point improvement over {X}.",
		"We evaluate {N} on {D} and {D}, where it improves over {X} and {X} in both accuracy and efficiency.",
		"Results on {D} confirm that {N} transfers to {T} without retraining.",
	}
	fillers = []string{
		"Ablation studies confirm that each component contributes to the final performance.",
		"Our analysis reveals a trade-off between accuracy and efficiency that prior work on {T} overlooked.",
		"Moreover, {N} generalises to unseen {T} settings with only {K} labelled examples per class.",
		"The approach is simple to implement and adds less than {P}\\% overhead at inference time.",
		"We also find that {X} alone {L}, which motivates the design of {N}.",
		"Qualitative examples show that the model attends to the relevant regions of the {M}.",
		"Human evaluation with {K}0 annotators agrees with the automatic metrics &amp; reveals fewer failures.",
		"Scaling the model from {K}B to {K}0B parameters yields consistent gains on {T}.",
		"We discuss limitations of {X} for {T} and outline directions for future work.",
		"Training takes {K} GPU-hours, about a third of the budget of comparable {X} systems.",
		"The benchmark covers {K} domains and over {K}0,000 examples annotated by experts.",
		"Error analysis on {D} attributes most remaining mistakes to ambiguous inputs.",
	}
	closers = []string{
		"Code and models are available at https://github.com/{n}/{n}.",
		"We release our code, data and checkpoints to facilitate future research on {T}.",
		"",
	}
	limitations = []string{
		"remain brittle under distribution shift",
		"require expensive manual annotation",
		"scale poorly to long sequences",
		"ignore the structure of the input",
		"suffer from high inference cost",
		"fail to generalise beyond their training domain",
		"rely on hand-crafted heuristics",
	}
	adjectives = []string{"simple", "scalable", "unified", "lightweight", "principled", "data-efficient", "general", "modular", "robust"}
	venues     = []string{"ICLR", "NeurIPS", "ICML", "CVPR", "ACL", "EMNLP", "AAAI", "arXiv"}
)

// Next returns the next generated abstract. It never fails.
func (g *generator) Next() (extract.Document, error) {
	name := g.paperName(g.i)
	g.i++
	b := g.buf[:0]
	sentence := func(tmpl string) {
		if tmpl == "" {
			return
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = g.fill(b, tmpl, name)
	}
	target := 800 + g.rng.IntN(1001)
	sentence(g.one(openers))
	sentence(g.one(proposals))
	for range 1 + g.rng.IntN(2) {
		sentence(g.one(methods))
	}
	sentence(g.one(experiments))
	// Fillers in a random order, each at most once, up to the drawn
	// length; the last filler and the closer may take it a little past.
	for _, i := range g.rng.Perm(len(fillers)) {
		if len(b) >= target {
			break
		}
		sentence(fillers[i])
	}
	sentence(g.one(closers))
	g.buf = b
	year := 2018 + g.rng.IntN(9)
	return extract.Document{
		Source:   g.source,
		Index:    g.i,
		Title:    fmt.Sprintf("%s: %s %s for %s", name, titleCase(g.one(adjectives)), g.pick(graph.Technique), g.pick(graph.Task)),
		Abstract: string(b),
		Year:     year,
		Venue:    fmt.Sprintf("%s %d", g.one(venues), year),
	}, nil
}

// fill appends tmpl with its slots filled to b. The datasets of one
// sentence are distinct, as in "on ImageNet, COCO and ADE20K".
func (g *generator) fill(b []byte, tmpl, name string) []byte {
	first := len(b)
	var datasets []string
	for len(tmpl) > 0 {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 || i+2 >= len(tmpl) || tmpl[i+2] != '}' {
			b = append(b, tmpl...)
			break
		}
		b = append(b, tmpl[:i]...)
		switch tmpl[i+1] {
		case 'T':
			b = append(b, g.pick(graph.Task)...)
		case 'D':
			d := g.pick(graph.Dataset)
			for try := 0; try < 8 && slices.Contains(datasets, d); try++ {
				d = g.pick(graph.Dataset)
			}
			datasets = append(datasets, d)
			b = append(b, d...)
		case 'X':
			b = append(b, g.pick(graph.Technique)...)
		case 'M':
			b = append(b, g.pick(graph.Modality)...)
		case 'N':
			b = append(b, name...)
		case 'n':
			b = append(b, strings.ToLower(strings.Trim(name, "+-"))...)
		case 'L':
			b = append(b, g.one(limitations)...)
		case 'A':
			b = append(b, g.one(adjectives)...)
		case 'P':
			b = fmt.Appendf(b, "%d.%d", 1+g.rng.IntN(40), g.rng.IntN(10))
		case 'K':
			b = strconv.AppendInt(b, int64(2+g.rng.IntN(9)), 10)
		default:
			b = append(b, tmpl[i:i+3]...)
		}
		tmpl = tmpl[i+3:]
	}
	// A sentence that starts with a lower-case entity name gets a capital.
	if c := b[first]; c >= 'a' && c <= 'z' {
		b[first] = c - 'a' + 'A'
	}
	return b
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
