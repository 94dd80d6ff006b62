package store_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

func Example() {
	dir, err := os.MkdirTemp("", "papergraph-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s, err := store.Open(dir, store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	papers := []graph.Paper{{
		ID:       "0123456789abcdef",
		Label:    "Dolphin",
		Abstract: "We fine-tune Dolphin with LoRA and evaluate it on GSM8K.",
		Entities: []graph.Entity{
			{Kind: graph.Dataset, Name: "GSM8K"},
			{Kind: graph.Technique, Name: "LoRA", Aliases: []string{"low-rank adaptation"}},
		},
	}}
	res, err := s.PutPapers(ctx, papers)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("added %d\n", res.Added)

	// Ingesting the same papers again changes nothing.
	res, _ = s.PutPapers(ctx, papers)
	fmt.Printf("unchanged %d\n", res.Unchanged)

	st, err := s.Stats(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d papers, %d datasets, %d techniques, %d edges\n",
		st.Papers, st.Entities[graph.Dataset], st.Entities[graph.Technique], st.Edges)

	e, err := s.Lookup(ctx, graph.Technique, "Low-Rank Adaptation")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d paper\n", e.ID(), e.PaperCount)
	// Output:
	// added 1
	// unchanged 1
	// 1 papers, 1 datasets, 1 techniques, 2 edges
	// technique:lora: 1 paper
}

// A first ingest into an empty store goes faster through a Loader; later
// ones use PutPapers.
func ExampleStore_NewLoader() {
	dir, err := os.MkdirTemp("", "papergraph-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := store.Open(dir, store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	l, err := s.NewLoader()
	if err != nil {
		log.Fatal(err) // graph.ErrNotEmpty: use PutPapers
	}
	defer l.Close() // without Finish, the store stays empty
	batches := [][]graph.Paper{
		{{ID: "0123456789abcdef", Label: "Dolphin", Entities: []graph.Entity{{Kind: graph.Dataset, Name: "GSM8K"}}}},
		{{ID: "fedcba9876543210", Label: "Orca", Entities: []graph.Entity{{Kind: graph.Dataset, Name: "GSM8K"}}}},
	}
	for _, b := range batches {
		if err := l.Add(ctx, b); err != nil {
			log.Fatal(err)
		}
	}
	res, err := l.Finish(ctx)
	if err != nil {
		log.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("added %d; %d papers, %d edges\n", res.Added, st.Papers, st.Edges)
	// Output:
	// added 2; 2 papers, 2 edges
}
