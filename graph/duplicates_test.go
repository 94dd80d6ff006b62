package graph

import (
	"fmt"
	"slices"
	"testing"
)

func TestDuplicates(t *testing.T) {
	task := func(name string, papers int, aliases ...string) Entity {
		return Entity{Kind: Task, Name: name, PaperCount: papers, Aliases: aliases}
	}
	tech := func(name string, papers int, aliases ...string) Entity {
		return Entity{Kind: Technique, Name: name, PaperCount: papers, Aliases: aliases}
	}
	tests := []struct {
		name string
		es   []Entity
		want []string // "reason A B"
	}{
		{"none", []Entity{tech("LoRA", 3), task("question answering", 2)}, nil},
		{"acronym", []Entity{tech("PEFT", 2), tech("parameter-efficient fine-tuning", 5)},
			[]string{"acronym technique:peft technique:parameter-efficient-fine-tuning"}},
		{"acronym with prefixes and a plural", []Entity{tech("low-rank adaptation", 1), tech("LoRA", 9), tech("LLMs", 1), tech("large language model", 4)},
			[]string{"acronym technique:low-rank-adaptation technique:lora", "acronym technique:llms technique:large-language-model"}},
		{"acronym through a stop word", []Entity{tech("chain of thought", 3), tech("CoT", 1)},
			[]string{"acronym technique:cot technique:chain-of-thought"}},
		{"acronym of another kind is not one", []Entity{task("PEFT", 2), tech("parameter-efficient fine-tuning", 5)}, nil},
		{"not an acronym: letters left over", []Entity{tech("PEFTX", 2), tech("parameter-efficient fine-tuning", 5)}, nil},
		{"not acronyms", []Entity{Entity{Kind: Dataset, Name: "COCO"}, Entity{Kind: Dataset, Name: "COCO-Object"}, Entity{Kind: Dataset, Name: "ImageNet"}, Entity{Kind: Dataset, Name: "ImageNet-A"}, tech("OPT", 1), tech("optimal transport", 1)}, nil},
		{"alias", []Entity{tech("digital watermarking", 1), tech("watermarking", 4, "digital watermarking")},
			[]string{"alias technique:digital-watermarking technique:watermarking"}},
		{"plural", []Entity{task("benchmark", 2), task("benchmarks", 1)},
			[]string{"spelling task:benchmarks task:benchmark"}},
		{"separator", []Entity{tech("fine-tuning", 7), tech("finetuning", 2)},
			[]string{"spelling technique:finetuning technique:fine-tuning"}},
		{"ending and separator", []Entity{tech("large language models", 1), tech("large-language model", 2)},
			[]string{"spelling technique:large-language-models technique:large-language-model"}},
		{"one letter", []Entity{task("anomaly detection", 3), task("anomali detection", 1)},
			[]string{"spelling task:anomali-detection task:anomaly-detection"}},
		{"digits differ", []Entity{tech("GPT-3", 3), tech("GPT-4", 5), tech("stage 1 training", 1), tech("stage 2 training", 1)}, nil},
		{"proper names a letter apart", []Entity{tech("LLaMA", 3), tech("LLaVA", 5)}, nil},
		{"short words", []Entity{task("ocr", 3), task("asr", 5)}, nil},
		{"across kinds", []Entity{task("watermarking", 8), tech("watermarking", 25), Entity{Kind: Dataset, Name: "Watermarking", PaperCount: 1}},
			[]string{"across-kinds task:watermarking technique:watermarking", "across-kinds dataset:watermarking technique:watermarking", "across-kinds dataset:watermarking task:watermarking"}},
	}
	for _, tt := range tests {
		var got []string
		for _, d := range Duplicates(tt.es) {
			got = append(got, fmt.Sprintf("%s %s %s", d.Reason, d.A.ID(), d.B.ID()))
			if d.Detail == "" {
				t.Errorf("%s: %s %s has no detail", tt.name, d.A.ID(), d.B.ID())
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Duplicates = %q; want %q", tt.name, got, tt.want)
		}
	}
}

func TestMatchAcronym(t *testing.T) {
	tests := []struct {
		acr   string
		words []string
		want  bool
	}{
		{"PEFT", []string{"parameter", "efficient", "fine", "tuning"}, true},
		{"LoRA", []string{"low", "rank", "adaptation"}, true},
		{"CoT", []string{"chain", "of", "thought"}, true},
		{"MMDiT", []string{"multi", "modal", "diffusion", "transformer"}, true},
		{"RLHF", []string{"reinforcement", "learning", "from", "human", "feedback"}, true},
		{"RLHF", []string{"reinforcement", "learning", "human"}, false},
		// Capitals start words: DPO is not "diffusion policy".
		{"DPO", []string{"diffusion", "policy"}, false},
		{"DPO", []string{"direct", "preference", "optimization"}, true},
		{"PEFT", []string{"parameter", "efficient", "fine", "tuning", "methods"}, false},
		{"TOA", []string{"the", "state", "of", "art"}, false},
		{"SOTA", []string{"state", "of", "the", "art"}, true},
	}
	for _, tt := range tests {
		if got := matchAcronym([]rune(tt.acr), tt.words); got != tt.want {
			t.Errorf("matchAcronym(%q, %q) = %v; want %v", tt.acr, tt.words, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"über", "uber", 1}, {"benchmark", "benchmarks", 1}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
