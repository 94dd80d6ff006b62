package extract

import (
	"slices"
	"strings"
)

// negators are the words before a mention that deny the link: "without
// MCMC", "no retraining", "beyond black-box retrieval", "avoiding
// explicit intermediate text generation". "not only X" still uses X, and
// "unlike LoRA" still builds on LoRA as the method it improves on.
var negators = setOf(`without no not beyond w/o nor neither avoid avoids avoiding eliminate eliminates eliminating
	bypass bypasses bypassing remove removes removing obviate obviates obviating forgo forgoes forgoing
	dispense dispenses dispensing`)

// negatedPairs are two-word negators: "instead of X", "rather than X",
// "free of X".
var negatedPairs = setOf("instead-of rather-than free-of")

// negated reports whether cleaned bytes [start, end) are a mention the
// text denies: after a negator in the same clause ("does not require
// retraining", "without a tokenizer"), with "-free" after it
// ("MCMC-free", "verifier-free"), or with "non-" before it: a
// "non-linear transformer" is not a linear transformer, "non-causal
// masking" not causal masking.
func (w *work) negated(start, end int) bool {
	c := w.text.Clean
	if strings.HasPrefix(c[end:], "-free") {
		return true
	}
	if start >= 4 && strings.EqualFold(c[start-4:start], "non-") && (start == 4 || !isLetter(c[start-5])) {
		return true
	}
	i, _ := slices.BinarySearchFunc(w.words, start, func(wd word, at int) int { return wd.end - at })
	if i >= len(w.words) || w.words[i].start > start {
		return false
	}
	// Up to four words back, in the clause: "without any explicit X",
	// "does not require X", "eliminating the need for X"; six across a
	// "need".
	// The clause is in the title or in the abstract, never both.
	from := 0
	if i >= w.bodyWord {
		from = w.bodyWord
	}
	limit := 4
	// "does not require any supervised data, additional training, or
	// reinforcement learning": a denial holds over the list it opens.
	list := i > from && (w.words[i-1].lower == "or" || w.words[i-1].lower == "nor")
	if list {
		limit = 12
	}
	for j := i - 1; j >= from && j >= i-limit; j-- {
		p := w.words[j]
		// "without the need for extensive X", "reducing the need for
		// costly manual X": the need is what is denied.
		if p.lower == "need" {
			limit = max(limit, 6)
		}
		// What a mention comes from is not what is removed: "removing
		// concepts from pretrained models" keeps the models.
		if p.stop || p.comma && !list || p.lower == "from" {
			return false
		}
		if p.class&negator != 0 && !(p.lower == "not" && w.words[j+1].lower == "only") {
			return true
		}
		// "requires very little hyperparameter tuning", not "a little"
		// nor "little is known about X".
		if p.lower == "little" && j == i-1 && (j == 0 || w.words[j-1].lower != "a") {
			return true
		}
		if j > 0 && negatedPairs[w.words[j-1].lower+"-"+p.lower] {
			return true
		}
	}
	return false
}
