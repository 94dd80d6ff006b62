package extract

import (
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
}

// verbBefore are the words after which a verb form is a verb: its
// subject, "to", a conjunction, a modal or, for a participle, an
// auxiliary. "the fine-tuned model" is an adjective, and says less.
var verbBefore = setOf("we to and then first further also can could will would is are was were be been being which that they it")

// techniqueVerbs links the techniques an abstract writes as verbs (see
// techniqueVerbs).
func (w *work) verbTechniques() {
	for i := w.bodyWord + 1; i < len(w.words); i++ {
		wd := w.words[i]
		name, ok := techniqueVerbs[verbBase(wd.lower)]
		if !ok || w.words[i-1].stop || !verbBefore[w.words[i-1].lower] {
			continue
		}
		e, ok := w.x.v.byKey[graph.EntityID(graph.Technique, name)]
		if !ok || w.doneAs(name) {
			continue
		}
		w.add(graph.Technique, w.x.v.entries[e].name, e, wd.start, wd.end)
	}
}

// verbBase returns the base form of a regular verb's -s, -es, -d or -ed
// form: "finetunes", "finetuned" and "distilled" are "finetune" and
// "distill".
func verbBase(w string) string {
	for _, end := range []string{"ed", "d", "es", "s"} {
		if b, ok := strings.CutSuffix(w, end); ok {
			if _, known := techniqueVerbs[b]; known {
				return b
			}
		}
	}
	return w
}

// doneAs reports whether the paper names another entity with the head of
// technique name, which a verb of it then stands for: "methods distill
// the dataset" in a paper on dataset distillation.
func (w *work) doneAs(name string) bool {
	head := name[strings.LastIndexByte(name, ' ')+1:]
	return slices.ContainsFunc(w.order, func(f *found) bool {
		return f.name != name && strings.HasSuffix(f.name, " "+head)
	})
}
