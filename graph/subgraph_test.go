package graph

import (
	"reflect"
	"slices"
	"testing"
)

// edgeList is a GraphWriter that keeps the edges written.
type edgeList struct{ nodes, edges []string }

func (l *edgeList) WriteNode(n Node) error { l.nodes = append(l.nodes, n.ID()); return nil }
func (l *edgeList) WriteEdge(e Edge) error {
	l.edges = append(l.edges, e.From+">"+e.To)
	return nil
}
func (l *edgeList) Close() error { return nil }

// TestWriteSubgraph checks the stream order: papers, entities, paper
// edges, taxonomy edges, also where an entity id sorts before a paper id
// ("dataset:..." before "f...").
func TestWriteSubgraph(t *testing.T) {
	child := Entity{Kind: Dataset, Name: "OSWorld-G", Broader: []string{"OSWorld"}}
	parent := Entity{Kind: Dataset, Name: "OSWorld"}
	p := Paper{ID: "f000000000000001", Entities: []Entity{child}}
	tests := []struct {
		name      string
		g         Subgraph
		wantNodes []string
		wantEdges []string
	}{
		{"empty", Subgraph{}, nil, nil},
		{"taxonomy after paper edges", Subgraph{
			Nodes: []Node{{Entity: &parent}, {Paper: &p}, {Entity: &child}},
			Edges: []Edge{
				{From: child.ID(), To: parent.ID(), Kind: BroaderEdge},
				{From: p.ID, To: child.ID(), Kind: "dataset"},
			},
		}, []string{p.ID, parent.ID(), child.ID()}, []string{p.ID + ">" + child.ID(), child.ID() + ">" + parent.ID()}},
	}
	for _, tt := range tests {
		var l edgeList
		if err := WriteSubgraph(&l, tt.g); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(l.nodes, tt.wantNodes) || !slices.Equal(l.edges, tt.wantEdges) {
			t.Errorf("WriteSubgraph(%s) = %q, %q; want %q, %q", tt.name, l.nodes, l.edges, tt.wantNodes, tt.wantEdges)
		}
	}
}

func TestFillEvidence(t *testing.T) {
	p := &Paper{ID: "00000000000000a1", Mentions: []Mention{
		{Kind: Dataset, Entity: "GSM8K", Text: "GSM8K", Start: 40, End: 45},
		{Kind: Technique, Entity: "LoRA", Text: "low-rank adapters", Start: 10, End: 27},
		{Kind: Dataset, Entity: "gsm8k", Text: "GSM-8K", Start: 2, End: 8, InTitle: true},
		{Kind: Task, Entity: "LoRA", Text: "LoRA", Start: 60, End: 64},
	}}
	edges := []Edge{
		{From: p.ID, To: "technique:lora", Kind: "technique"},
		{From: p.ID, To: "dataset:gsm8k", Kind: "dataset"},
		{From: p.ID, To: "dataset:math", Kind: "dataset"},
		{From: "dataset:gsm8k", To: "dataset:gsm", Kind: BroaderEdge},
		{From: "00000000000000b2", To: "dataset:gsm8k", Kind: "dataset"},
	}
	FillEvidence(edges, p)
	want := [][]Mention{
		{p.Mentions[1]},                // the technique, not the task of the same name
		{p.Mentions[0], p.Mentions[2]}, // one entity, both spellings, in the paper's order
		nil, nil, nil,                  // no mention; a taxonomy edge; another paper's edge
	}
	for i, e := range edges {
		if !reflect.DeepEqual(e.Evidence, want[i]) {
			t.Errorf("FillEvidence: edge %s->%s evidence = %+v; want %+v", e.From, e.To, e.Evidence, want[i])
		}
	}
}
