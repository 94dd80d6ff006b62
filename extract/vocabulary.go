package extract

import (
	"slices"

	"github.com/papergraph/papergraph/graph"
)

// Vocabulary returns a copy of the extractor's vocabulary: every entity
// with its canonical name, aliases and broader names, in the order the
// vocabulary files list them (embedded files by name, then
// Options.VocabFiles), taxonomy parents that no file lists last. Modality
// entries are cues: their aliases are matched, their names are not. The
// benchmark corpus generator writes abstracts from it.
func (x *Extractor) Vocabulary() []graph.Entity {
	out := make([]graph.Entity, len(x.v.entries))
	for i, e := range x.v.entries {
		out[i] = graph.Entity{Kind: e.kind, Name: e.name, Aliases: slices.Clone(e.aliases), Broader: slices.Clone(e.broader)}
	}
	return out
}
