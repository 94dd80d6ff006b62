package ingest_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/ingest"
)

func ExampleRun() {
	dir, _ := os.MkdirTemp("", "ingest-example-")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "papers.jsonl")
	os.WriteFile(file, []byte(`{"title": "Math LoRA", "abstract": "We fine-tune large language models with LoRA on GSM8K."}`+"\n"), 0o644)

	st, err := store.Open(filepath.Join(dir, "db"), store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	x, err := extract.New(extract.Options{})
	if err != nil {
		log.Fatal(err)
	}
	src := ingest.Files(context.Background(), []string{file}, extract.ReaderOptions{})
	defer src.Close()
	sum, err := ingest.Run(context.Background(), st, x, src, ingest.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("added %d, skipped %d, bulk load %v\n", sum.Added, sum.Skipped, sum.Bulk)
	// Output: added 1, skipped 0, bulk load true
}
