package export

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// cytoDoc is the Cytoscape.js elements JSON.
type cytoDoc struct {
	Elements struct {
		Nodes []struct{ Data cytoNode } `json:"nodes"`
		Edges []struct{ Data cytoEdge } `json:"edges"`
	} `json:"elements"`
}

func TestWriteCytoscape(t *testing.T) {
	tests := []struct {
		name string
		g    graph.Subgraph
	}{
		{"nasty", nastyGraph()},
		{"empty", graph.Subgraph{}},
		{"no edges", graph.Subgraph{Nodes: nastyGraph().Nodes[:2]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteCytoscape(&buf, tt.g); err != nil {
				t.Fatalf("WriteCytoscape: %v", err)
			}
			var doc cytoDoc
			dec := json.NewDecoder(&buf)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("Cytoscape JSON does not decode: %v\n%s", err, buf.Bytes())
			}
			if len(doc.Elements.Nodes) != len(tt.g.Nodes) || len(doc.Elements.Edges) != len(tt.g.Edges) {
				t.Fatalf("Cytoscape JSON has %d nodes, %d edges; want %d, %d",
					len(doc.Elements.Nodes), len(doc.Elements.Edges), len(tt.g.Nodes), len(tt.g.Edges))
			}
			ids := map[string]bool{}
			for _, n := range doc.Elements.Nodes {
				if n.Data.ID == "" || n.Data.Kind == "" {
					t.Errorf("Cytoscape node %+v lacks id or kind", n.Data)
				}
				ids[n.Data.ID] = true
			}
			for _, e := range doc.Elements.Edges {
				if !ids[e.Data.Source] || !ids[e.Data.Target] || e.Data.ID != e.Data.Source+"->"+e.Data.Target {
					t.Errorf("Cytoscape edge %+v does not join two nodes", e.Data)
				}
			}
		})
	}
}
