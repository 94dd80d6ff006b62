package extract

import (
	"context"
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// techniqueVerbs are the verbs that name a technique when a sentence
// does it: "we finetune the base model", "the model is instruction-tuned
// on part-centric data". Only verbs whose noun the vocabulary holds, and
// not "pre-train", whose participle mostly says where a model came from
// ("pre-trained encoders").
var techniqueVerbs = map[string]string{
	"fine-tune": "fine-tuning", "finetune": "fine-tuning",
	"instruction-tune": "instruction tuning",
	"distill":          "knowledge distillation",
	"prune":            "pruning",
	"quantize":         "quantization",
	"meta-train":       "meta-learning",
}

// verbBefore are the words after which a verb form is a verb: its
// subject, "to", a conjunction, a modal or, for a participle, an
// auxiliary. "the fine-tuned model" is an adjective, and says less.
var verbBefore = setOf("we to and then first further also can could will would is are was were be been being which that they it")

// verbTechniques links the techniques an abstract writes as verbs (see
// techniqueVerbs). It stops early once ctx is done.
func (w *work) verbTechniques(ctx context.Context) {
	for i := w.bodyWord + 1; i < len(w.words); i++ {
		wd := w.words[i]
		if wd.class&techniqueVerb == 0 || w.words[i-1].stop || !verbBefore[w.words[i-1].lower] {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		name := verbForms[wd.lower]
		e, ok := w.x.v.byKey[graph.EntityID(graph.Technique, name)]
		if !ok || w.doneAs(name) {
			continue
		}
		w.add(graph.Technique, w.x.v.entries[e].name, e, wd.start, wd.end)
	}
}

// verbForms map the -s, -es, -d and -ed forms of techniqueVerbs, and the
// verbs themselves, to the technique: "finetunes", "finetuned" and
// "distilled" are fine-tuning and knowledge distillation.
var verbForms = func() map[string]string {
	m := map[string]string{}
	for verb, name := range techniqueVerbs {
		for _, end := range []string{"", "s", "es", "d", "ed"} {
			m[verb+end] = name
		}
	}
	return m
}()

// doneAs reports whether the paper names another entity with the head of
// technique name, which a verb of it then stands for: "methods distill
// the dataset" in a paper on dataset distillation.
func (w *work) doneAs(name string) bool {
	head := name[strings.LastIndexByte(name, ' ')+1:]
	return slices.ContainsFunc(w.order, func(f *found) bool {
		return f.name != name && strings.HasSuffix(f.name, " "+head)
	})
}
