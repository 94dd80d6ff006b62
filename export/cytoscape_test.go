package export

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/graph"
)

// cytoNode and cytoEdge are the data of a Cytoscape.js element as
// CytoscapeWriter documents it.
type cytoNode struct {
	ID         string   `json:"id"`
	Label      string   `json:"label"`
	Kind       string   `json:"kind"`
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Year       int      `json:"year"`
	Venue      string   `json:"venue"`
	URL        string   `json:"url"`
	Authors    []string `json:"authors"`
	Source     string   `json:"source"`
	Aliases    []string `json:"aliases"`
	PaperCount int      `json:"paperCount"`
	Broader    []string `json:"broader"`
}

type cytoEdge struct {
	ID       string `json:"id"`
	Source   string `json:"source"`
	Target   string `json:"target"`
	Kind     string `json:"kind"`
	Evidence []struct {
		Text    string `json:"text"`
		Start   int    `json:"start"`
		End     int    `json:"end"`
		InTitle bool   `json:"inTitle"`
	} `json:"evidence"`
}

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

// TestCytoscapeAttributes checks that every attribute of richGraph, all
// the evidence included, comes back from the Cytoscape JSON.
func TestCytoscapeAttributes(t *testing.T) {
	g := richGraph()
	var buf bytes.Buffer
	if err := WriteCytoscape(&buf, g); err != nil {
		t.Fatal(err)
	}
	var doc cytoDoc
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("Cytoscape JSON does not decode: %v", err)
	}
	p, ds := g.Nodes[0].Paper, g.Nodes[1].Entity
	var got []cytoNode
	for _, n := range doc.Elements.Nodes {
		got = append(got, n.Data)
	}
	want := []cytoNode{
		{ID: p.ID, Label: p.Label, Kind: "paper", Name: p.Name, Title: p.Title, Year: p.Year, Venue: p.Venue, URL: p.URL, Authors: p.Authors, Source: p.Source},
		{ID: "dataset:gsm8k", Label: "GSM8K", Kind: "dataset", PaperCount: 40},
		{ID: ds.ID(), Label: ds.Name, Kind: "dataset", Aliases: ds.Aliases, PaperCount: ds.PaperCount, Broader: ds.Broader},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Cytoscape nodes (-want +got):\n%s", diff)
	}
	edge := doc.Elements.Edges[0].Data
	if len(edge.Evidence) != 2 || edge.Evidence[0].Text != "GSM8K-G" || edge.Evidence[0].Start != 10 || edge.Evidence[0].End != 17 ||
		edge.Evidence[1].Text != `quoted"` || !edge.Evidence[1].InTitle {
		t.Errorf("Cytoscape edge %s evidence = %+v; want both mentions of %+v", edge.ID, edge.Evidence, p.Mentions)
	}
	if broader := doc.Elements.Edges[1].Data; broader.Kind != graph.BroaderEdge || broader.Evidence != nil {
		t.Errorf("Cytoscape taxonomy edge = %+v; want kind broader, no evidence", broader)
	}
}
