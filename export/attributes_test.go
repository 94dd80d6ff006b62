package export

import "github.com/papergraph/papergraph/graph"

// richPaperID is the paper of richGraph.
const richPaperID = "00000000000000d4"

// richGraph is a paper with every attribute set, text that needs escaping
// in every format (commas, quotes, ampersands, a newline), and evidence:
// two mentions of one entity, one of them in the title.
func richGraph() graph.Subgraph {
	ds := graph.Entity{Kind: graph.Dataset, Name: "GSM8K-G", Aliases: []string{"GSM8KG", "gsm8k, grounded"}, Broader: []string{"GSM8K"}, PaperCount: 12}
	parent := graph.Entity{Kind: graph.Dataset, Name: "GSM8K", PaperCount: 40}
	title := `Attention, "quoted" & <tagged>`
	p := graph.Paper{
		ID: richPaperID, Name: "Dolphin", Label: title, Title: title,
		Abstract: "We evaluate GSM8K-G,\nthen \"more\".", Source: "iclr.jsonl", Index: 3,
		URL: "https://openreview.net/forum?id=x&y=1", Venue: "ICLR 2025", Year: 2025,
		Authors:  []string{"Ada Lovelace", "O'Brien, Pat"},
		Entities: []graph.Entity{ds},
		Mentions: []graph.Mention{
			{Kind: graph.Dataset, Entity: "GSM8K-G", Text: "GSM8K-G", Start: 10, End: 17},
			{Kind: graph.Dataset, Entity: "GSM8K-G", Text: "quoted\"", Start: 12, End: 19, InTitle: true},
		},
	}
	return graph.Subgraph{
		Nodes: []graph.Node{{Paper: &p}, {Entity: &ds}, {Entity: &parent}},
		Edges: []graph.Edge{
			{From: richPaperID, To: ds.ID(), Kind: "dataset"},
			{From: ds.ID(), To: parent.ID(), Kind: graph.BroaderEdge},
		},
	}
}
