package export

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	if doc.Graph.EdgeDefault != "directed" {
		t.Errorf("GraphML edgedefault %q; want directed", doc.Graph.EdgeDefault)
	}
	checkGraphMLKeys(t, doc)
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

// checkGraphMLKeys fails the test when a data element of doc uses a key
// that is not declared for its element.
func checkGraphMLKeys(tb testing.TB, doc graphMLDoc) {
	tb.Helper()
	declared := map[string]bool{}
	for _, k := range doc.Keys {
		declared[k.For+" "+k.ID] = true
	}
	for what, elems := range map[string][]graphMLElem{"node": doc.Graph.Nodes, "edge": doc.Graph.Edges} {
		for _, e := range elems {
			for _, d := range e.Data {
				if !declared[what+" "+d.Key] {
					tb.Errorf("GraphML %s %s has data of undeclared key %q", what, e.ID, d.Key)
				}
			}
		}
	}
}

// TestGraphMLAttributes checks that every attribute of richGraph comes
// back from the GraphML, typed as its key declares.
func TestGraphMLAttributes(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteGraphML(&buf, richGraph()); err != nil {
		t.Fatal(err)
	}
	doc := parseGraphML(t, buf.Bytes())
	checkGraphMLKeys(t, doc)
	got := map[string]map[string]string{}
	for _, elems := range [][]graphMLElem{doc.Graph.Nodes, doc.Graph.Edges} {
		for _, e := range elems {
			m := map[string]string{}
			for _, d := range e.Data {
				m[d.Key] = d.Value
			}
			got[e.ID] = m
		}
	}
	want := map[string]map[string]string{
		richPaperID: {"label": "Attention, \"quoted\" & <tagged>", "kind": "paper", "name": "Dolphin",
			"title": "Attention, \"quoted\" & <tagged>", "year": "2025", "venue": "ICLR 2025",
			"url": "https://openreview.net/forum?id=x&y=1", "authors": "Ada Lovelace; O'Brien, Pat", "source": "iclr.jsonl"},
		"dataset:gsm8k-g": {"label": "GSM8K-G", "kind": "dataset", "name": "GSM8K-G", "aliases": "GSM8KG; gsm8k, grounded",
			"paperCount": "12", "broader": "GSM8K"},
		"dataset:gsm8k": {"label": "GSM8K", "kind": "dataset", "name": "GSM8K", "paperCount": "40"},
		richPaperID + "->dataset:gsm8k-g": {"edgekind": "dataset", "evidence": "GSM8K-G", "start": "10", "end": "17",
			"inTitle": "false", "mentions": "2"},
		"dataset:gsm8k-g->dataset:gsm8k": {"edgekind": "broader"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GraphML attributes (-want +got):\n%s", diff)
	}
}
