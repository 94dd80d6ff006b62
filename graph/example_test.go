package graph_test

import (
	"fmt"

	"github.com/papergraph/papergraph/graph"
)

func ExampleDuplicates() {
	es := []graph.Entity{
		{Kind: graph.Technique, Name: "PEFT", PaperCount: 2},
		{Kind: graph.Technique, Name: "parameter-efficient fine-tuning", PaperCount: 40},
		{Kind: graph.Task, Name: "watermarking", PaperCount: 8},
		{Kind: graph.Technique, Name: "watermarking", PaperCount: 25},
		{Kind: graph.Task, Name: "sequence modelling", PaperCount: 1},
		{Kind: graph.Task, Name: "sequence modeling", PaperCount: 13},
		{Kind: graph.Technique, Name: "GPT-3", PaperCount: 5},
		{Kind: graph.Technique, Name: "GPT-4", PaperCount: 9},
	}
	for _, d := range graph.Duplicates(es) {
		fmt.Printf("%s: %s -> %s (%s)\n", d.Reason, d.A.ID(), d.B.ID(), d.Detail)
	}
	// Output:
	// acronym: technique:peft -> technique:parameter-efficient-fine-tuning (PEFT is an acronym of parameter-efficient fine-tuning)
	// spelling: task:sequence-modelling -> task:sequence-modeling (the same words but for endings and separators)
	// across-kinds: task:watermarking -> technique:watermarking (watermarking is a task and a technique)
}
