package export

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// graphMLDoc is the part of a GraphML document the tests read back.
type graphMLDoc struct {
	XMLName xml.Name `xml:"http://graphml.graphdrawing.org/xmlns graphml"`
	Keys    []struct {
		ID   string `xml:"id,attr"`
		For  string `xml:"for,attr"`
		Name string `xml:"attr.name,attr"`
	} `xml:"key"`
	Graph struct {
		EdgeDefault string        `xml:"edgedefault,attr"`
		Nodes       []graphMLElem `xml:"node"`
		Edges       []graphMLElem `xml:"edge"`
	} `xml:"graph"`
}

type graphMLElem struct {
	ID     string `xml:"id,attr"`
	Source string `xml:"source,attr"`
	Target string `xml:"target,attr"`
	Data   []struct {
		Key   string `xml:"key,attr"`
		Value string `xml:",chardata"`
	} `xml:"data"`
}

func (e graphMLElem) data(key string) string {
	for _, d := range e.Data {
		if d.Key == key {
			return d.Value
		}
	}
	return ""
}

// parseGraphML decodes a GraphML document with a strict encoding/xml
// decoder and fails the test if it is not well-formed.
func parseGraphML(tb testing.TB, b []byte) graphMLDoc {
	tb.Helper()
	var doc graphMLDoc
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		tb.Fatalf("GraphML does not parse: %v\n%s", err, b)
	}
	return doc
}

func TestWriteGraphML(t *testing.T) {
	g := nastyGraph()
	var buf bytes.Buffer
	if err := WriteGraphML(&buf, g); err != nil {
		t.Fatalf("WriteGraphML: %v", err)
	}
	doc := parseGraphML(t, buf.Bytes())
	if len(doc.Keys) != 4 || doc.Graph.EdgeDefault != "directed" {
		t.Errorf("GraphML keys = %+v, edgedefault %q; want 4 keys, directed", doc.Keys, doc.Graph.EdgeDefault)
	}
	if len(doc.Graph.Nodes) != len(g.Nodes) || len(doc.Graph.Edges) != len(g.Edges) {
		t.Fatalf("GraphML has %d nodes, %d edges; want %d, %d", len(doc.Graph.Nodes), len(doc.Graph.Edges), len(g.Nodes), len(g.Edges))
	}
	want := map[string]graph.Node{}
	for _, n := range g.Nodes {
		want[n.ID()] = n
	}
	for _, e := range doc.Graph.Nodes {
		n, ok := want[e.ID]
		if !ok {
			t.Errorf("GraphML node %q is not in the graph", e.ID)
			continue
		}
		if e.data("label") != cleanText(n.Label()) || e.data("kind") != n.Kind().String() {
			t.Errorf("GraphML node %s = label %q kind %q; want %q %q", e.ID, e.data("label"), e.data("kind"), cleanText(n.Label()), n.Kind())
		}
	}
	for _, e := range doc.Graph.Edges {
		if _, ok := want[e.Source]; !ok {
			t.Errorf("GraphML edge %s has unknown source", e.ID)
		}
		if _, ok := want[e.Target]; !ok {
			t.Errorf("GraphML edge %s has unknown target", e.ID)
		}
		if e.data("edgekind") == "" {
			t.Errorf("GraphML edge %s has no kind", e.ID)
		}
	}

	var again bytes.Buffer
	if err := WriteGraphML(&again, g); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two GraphML exports of one graph differ")
	}
}
