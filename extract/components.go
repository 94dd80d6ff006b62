package extract

import (
	"context"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// componentHeads are the nouns that make an enumerated contribution a
// technique: "(ii) the self-attention distilling ..., (iii) the generative
// style decoder", "(b) double quantization ... and (c) paged optimizers".
var componentHeads = setOf(`mechanism module decoder encoder network layer loss strategy scheme
	attention distilling distillation quantization optimizer regularization regularizer block
	pooling embedding normalization sampling objective masking augmentation aggregation fusion
	initialization pruning tokenizer adapter router gating`)

// componentSkip are the words before an enumerated component that only
// introduce or praise it.
var componentSkip = setOf("a an the our novel new simple lightweight efficient effective well-designed dedicated principled tailored")

// enumMarker reports whether wd marks an item of an enumeration: "(i)",
// "(b)", "(2)", "2)".
func enumMarker(wd word) bool {
	if !wd.close || len(wd.text) > 4 {
		return false
	}
	t := wd.text
	if len(t) == 1 && ('a' <= t[0] && t[0] <= 'e' || '1' <= t[0] && t[0] <= '9') {
		return true
	}
	return strings.Trim(t, "ivx") == ""
}

// components links the paper's own components an enumeration names as
// techniques: GUIDELINES.md counts the architectures and training schemes
// a paper builds on, and abstracts of every venue list theirs as "(i) a
// ProbSparse self-attention mechanism, ... (ii) ...". The item must end
// in a component noun (componentHeads) within five words, before any
// verb, preposition or parenthesis; a name the vocabulary knows is linked
// already. It stops early once ctx is done.
func (w *work) components(ctx context.Context, name string) {
	for i := w.bodyWord; i+2 < len(w.words); i++ {
		if !enumMarker(w.words[i]) || w.words[i].stop || w.words[i].comma {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		from := i + 1
		for from < len(w.words) && componentSkip[w.words[from].lower] && !w.words[from].stop && !w.words[from].comma {
			from++
		}
		// "(i) explicitly aligning model attention", "(1) applying a
		// linear layer": a clause, not a component.
		if from < len(w.words) && strings.HasSuffix(w.words[from].lower, "ing") {
			continue
		}
		to := from
		for to < len(w.words) && to < from+5 {
			wd := w.words[to]
			if wd.open || wd.class&(notModifier|participle) != 0 || enumMarker(wd) || name != "" && wd.text == name ||
				strings.HasSuffix(wd.lower, "ly") || strings.Contains(wd.text, "/") {
				break
			}
			to++
			if wd.stop || wd.comma || wd.close {
				break
			}
			// "(ii) SAM pays excessive attention": a verb after its
			// subject.
			if to > from+1 && strings.HasSuffix(wd.lower, "s") && !strings.HasSuffix(wd.lower, "ss") && !componentHeads[singularWord(wd.lower)] {
				to--
				break
			}
		}
		if to-from < 2 || !componentHeads[singularWord(w.words[to-1].lower)] {
			continue
		}
		// A coined word keeps its case: "ProbSparse self-attention
		// mechanism".
		parts := strings.Fields(w.phraseName(from, to, ""))
		for k := range parts {
			if wd := w.words[from+k]; wd.named && len(parts) == to-from {
				parts[k] = wd.text
			}
		}
		start, end := w.words[from].start, w.words[to-1].end
		w.add(graph.Technique, strings.Join(parts, " "), -1, start, end)
	}
}
