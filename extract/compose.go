package extract

import (
	"context"
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// families are the model families whose name a task takes when a paper
// does the task to one of them: the quantization of an LLM is LLM
// quantization, the reasoning of a multimodal model multimodal reasoning.
// Each technique lists the
// prefixes that tasks in the vocabulary take for it, most specific first.
var families = []struct {
	technique string
	prefixes  []string
}{
	{"LLM agent", []string{"agent"}},
	{"multimodal large language model", []string{"MLLM", "multimodal"}},
	{"vision-language model", []string{"VLM", "multimodal"}},
	{"large reasoning model", []string{"LLM"}},
	{"large language model", []string{"LLM"}},
	{"language model", []string{"LLM"}},
	{"diffusion model", []string{"diffusion model", "diffusion"}},
}

// doneToModels are the heads of tasks done to a model rather than by it,
// whose modifiers say how: "ternary quantization" of an LLM is LLM
// quantization, while "opinion alignment" of one is not LLM alignment.
var doneToModels = setOf("quantization pruning compression distillation unlearning acceleration merging")

// compose names the paper's general tasks after the model family it
// works on: a role, a one-word task ("quantization", "reasoning") or a
// task phrase whose head is one ("ternary quantization") becomes the
// vocabulary's task for that family ("LLM quantization", "LLM
// reasoning") where there is one. It stops early once ctx is done.
func (w *work) compose(ctx context.Context) {
	var prefixes []string
	for _, fam := range families {
		if _, ok := w.found[graph.EntityID(graph.Technique, fam.technique)]; ok {
			prefixes = append(prefixes, fam.prefixes...)
		}
	}
	if len(prefixes) == 0 {
		return
	}
	v := w.x.v
	w.benchmarkTask(prefixes)
	for _, f := range slices.Clone(w.order) {
		general := f.entry < 0 || v.entries[f.entry].role
		if f.kind != graph.Task || !general {
			continue
		}
		// unlink scans every entity found.
		if ctx.Err() != nil {
			return
		}
		names := []string{f.name}
		if i := strings.LastIndexByte(f.name, ' '); f.entry < 0 && i > 0 && doneToModels[f.name[i+1:]] {
			// "ternary quantization" of an LLM is LLM quantization.
			names = append(names, f.name[i+1:])
		}
		for _, p := range prefixes {
			e, ok := v.tasks[normPhrase(p+" "+names[0])]
			if !ok && len(names) > 1 {
				e, ok = v.tasks[normPhrase(p+" "+names[1])]
			}
			if !ok {
				continue
			}
			for _, m := range f.mentions {
				w.addMention(graph.Task, v.entries[e].name, e, m)
			}
			w.unlink(f)
			break
		}
	}
}

// benchmarkTask links "<family> evaluation" ("MLLM evaluation") to a
// paper that contributes a benchmark and evaluates a model family on it,
// unless a task of the paper already names the family ("LLM safety"):
// evaluating the family is what such a paper works on, whatever its
// domain. prefixes are the task prefixes of the families it links,
// most specific first. The evidence is the word that says benchmark.
func (w *work) benchmarkTask(prefixes []string) {
	at := w.benchmarkWord()
	if at < 0 {
		return
	}
	for _, p := range prefixes {
		e, ok := w.x.v.tasks[normPhrase(p+" evaluation")]
		if !ok {
			continue
		}
		if slices.ContainsFunc(w.order, func(f *found) bool {
			return f.kind == graph.Task && strings.HasPrefix(f.name, p+" ")
		}) {
			return
		}
		wd := w.words[at]
		w.add(graph.Task, w.x.v.entries[e].name, e, wd.start, wd.end)
		return
	}
}

// benchmarkWord returns the title's word that says the paper's
// contribution is a benchmark ("MedLesionVQA: A Multimodal Benchmark
// ...", "M3CoTBench: ..."), or -1. A benchmark introduced on the way to
// a method ("we first introduce EditReward-Bench ... we then develop")
// evaluates the method's parts, not a model family.
func (w *work) benchmarkWord() int {
	for i := 0; i < w.bodyWord; i++ {
		if isBenchmarkWord(w.words[i].lower) {
			return i
		}
	}
	return -1
}

// isBenchmarkWord reports whether a lower-case word names a benchmark:
// "benchmark", "benchmarks" or a name such as "m3cotbench".
func isBenchmarkWord(s string) bool {
	return strings.Contains(s, "bench") && !strings.HasPrefix(s, "benchmarking")
}
