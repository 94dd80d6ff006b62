package extract

import (
	"github.com/papergraph/papergraph/graph"
)

// Options configures New.
type Options struct {
	// VocabFiles are extra vocabulary files in the format of vocab/*.tsv,
	// read after the embedded ones.
	VocabFiles []string
}

// Extractor finds papers' names and entities in abstracts. An Extractor is
// safe for concurrent use by multiple goroutines.
type Extractor struct{}

// New returns an Extractor with the embedded vocabulary and opts.VocabFiles.
func New(opts Options) (*Extractor, error) { return &Extractor{}, nil }

// Extract returns the paper described by doc with its name, label,
// entities and mentions.
func (x *Extractor) Extract(doc Document) graph.Paper {
	return graph.Paper{Abstract: doc.Abstract, Title: doc.Title, Source: doc.Source, Index: doc.Index}
}
