package extract

import (
	"slices"

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

// compose names the paper's general tasks after the model family it
// works on: a role or a one-word task ("quantization", "reasoning")
// becomes the vocabulary's task for that family ("LLM quantization",
// "LLM reasoning") where there is one.
func (w *doc) compose() {
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
	for _, f := range slices.Clone(w.order) {
		general := f.entry < 0 || v.entries[f.entry].role
		if f.kind != graph.Task || !general {
			continue
		}
		for _, p := range prefixes {
			e, ok := v.tasks[normPhrase(p+" "+f.name)]
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
