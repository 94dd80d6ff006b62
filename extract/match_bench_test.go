package extract

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkMatch times the vocabulary lookup alone, on the seed abstracts
// cleaned and tokenized beforehand: token ids, then both tries, as Extract
// does. Its cost should stay linear in the text whatever the vocabulary's
// size; BenchmarkExtract minus BenchmarkClean minus this is the cost of
// the context patterns.
func BenchmarkMatch(b *testing.B) {
	x := newExtractor(b)
	files, err := filepath.Glob("../seeds/*.txt")
	if err != nil || len(files) == 0 {
		b.Fatalf("no seed files: %v", err)
	}
	var size int64
	var texts [][]token
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(data))
		texts = append(texts, tokenize(Clean(string(data)).Clean))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, toks := range texts {
			ids := x.v.appendTokenIDs(nil, toks)
			x.v.entities.match(nil, toks, ids)
			x.v.modalities.match(nil, toks, ids)
		}
	}
}
