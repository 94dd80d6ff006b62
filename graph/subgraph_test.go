package graph

import (
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
