package server

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/goccy/go-graphviz"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

const (
	exportPaper = "00000000000000d1"
	exportLabel = `Dolphin: a "VLM" for GUI grounding & <clicks>`
)

// exportStore is a real store holding two papers that share LoRA.
func exportStore(tb testing.TB) *store.Store {
	tb.Helper()
	st, err := store.Open(tb.TempDir(), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	_, err = st.PutPapers(context.Background(), []graph.Paper{
		{
			ID: exportPaper, Name: "Dolphin", Label: exportLabel,
			Abstract: "We present Dolphin for GUI grounding, evaluated on OSWorld-G and ScreenSpot.",
			Entities: []graph.Entity{
				{Kind: graph.Task, Name: "GUI grounding"},
				{Kind: graph.Dataset, Name: "OSWorld-G"},
				{Kind: graph.Dataset, Name: "ScreenSpot"},
				{Kind: graph.Technique, Name: "LoRA"},
			},
		},
		{
			ID: "00000000000000a2", Label: "Math with small models",
			Abstract: "We fine-tune small models with LoRA on GSM8K.",
			Entities: []graph.Entity{
				{Kind: graph.Dataset, Name: "GSM8K", Aliases: []string{"GSM-8K"}},
				{Kind: graph.Technique, Name: "LoRA"},
			},
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// get fetches path from srv and returns the status, Content-Type and body.
func get(tb testing.TB, srv *httptest.Server, path string) (int, string, []byte) {
	tb.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

// svgStrings returns the character data and attribute values of an SVG
// document, which must be well-formed XML.
func svgStrings(tb testing.TB, b []byte) []string {
	tb.Helper()
	var out []string
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			tb.Fatalf("SVG is not XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			out = append(out, string(t))
		case xml.StartElement:
			for _, a := range t.Attr {
				out = append(out, a.Value)
			}
		}
	}
}

func TestExportFormats(t *testing.T) {
	st := exportStore(t)
	srv := httptest.NewServer(NewExportHandler(st))
	defer srv.Close()

	status, ctype, body := get(t, srv, "/export/"+exportPaper+".dot?legend=1&cluster=true")
	if status != http.StatusOK || ctype != export.DOT.ContentType() {
		t.Fatalf("GET .dot = %d %q; want 200 %q\n%s", status, ctype, export.DOT.ContentType(), body)
	}
	g, err := graphviz.ParseBytes(body)
	if err != nil || g == nil {
		t.Fatalf(".dot does not parse: %v\n%s", err, body)
	}
	n, _ := g.NodeNum()
	e, _ := g.EdgeNum()
	g.Close()
	// The paper, its four entities and five legend nodes.
	if n != 10 || e != 4 {
		t.Errorf(".dot has %d nodes, %d edges; want 10 (5 of them legend), 4", n, e)
	}

	// The same DOT as WriteDOT of the same selection, which the command
	// and the GraphQL field write.
	sub, err := st.Select(context.Background(), graph.Selection{Paper: exportPaper, Hops: 1})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := export.WriteDOT(&want, sub, export.DOTOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, got := get(t, srv, "/export/"+exportPaper+".dot"); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("GET .dot differs from WriteDOT of the selection:\n%s\n---\n%s", got, want.Bytes())
	}

	status, ctype, body = get(t, srv, "/export/"+exportPaper+".svg")
	if status != http.StatusOK || ctype != "image/svg+xml" {
		t.Fatalf("GET .svg = %d %q; want 200 image/svg+xml\n%s", status, ctype, body)
	}
	strs := svgStrings(t, body)
	for _, want := range []string{exportLabel, "OSWorld-G", "ScreenSpot", "GUI grounding", "LoRA"} {
		found := false
		for _, s := range strs {
			found = found || s == want
		}
		if !found {
			t.Errorf("SVG lacks %q", want)
		}
	}

	status, ctype, body = get(t, srv, "/export/dataset%3AGSM-8K.graphml?hops=3")
	if status != http.StatusOK || ctype != export.GraphML.ContentType() {
		t.Fatalf("GET .graphml = %d %q\n%s", status, ctype, body)
	}
	var doc struct {
		Nodes []struct {
			ID string `xml:"id,attr"`
		} `xml:"graph>node"`
		Edges []struct{} `xml:"graph>edge"`
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		t.Fatalf("GraphML does not parse: %v", err)
	}
	// gsm8k, its paper, LoRA, and LoRA's other paper.
	if len(doc.Nodes) != 4 || len(doc.Edges) != 3 {
		t.Errorf("GraphML of dataset:GSM-8K at 3 hops has %d nodes, %d edges; want 4, 3\n%s", len(doc.Nodes), len(doc.Edges), body)
	}

	status, ctype, body = get(t, srv, "/export/technique%3Alora.json?hops=0")
	var cy struct {
		Elements struct {
			Nodes []json.RawMessage `json:"nodes"`
			Edges []json.RawMessage `json:"edges"`
		} `json:"elements"`
	}
	if status != http.StatusOK || ctype != "application/json" || json.Unmarshal(body, &cy) != nil || len(cy.Elements.Nodes) != 1 {
		t.Errorf("GET technique:lora.json?hops=0 = %d %q %s; want one node", status, ctype, body)
	}
}

func TestExportErrors(t *testing.T) {
	srv := httptest.NewServer(NewExportHandler(exportStore(t)))
	defer srv.Close()
	tests := []struct {
		name, path string
		status     int
		msg        string
	}{
		{"unknown paper", "/export/00000000000000ff.dot", 404, "not found"},
		{"unknown entity", "/export/dataset%3Aimagenet-42.svg", 404, "not found"},
		{"unknown kind", "/export/colour%3Ared.dot", 400, "bad kind"},
		{"not an id", "/export/dolphin.dot", 400, "not an entity"},
		{"hops out of range", "/export/" + exportPaper + ".dot?hops=5", 400, "hops 5 out of range 0..4"},
		{"hops not a number", "/export/" + exportPaper + ".dot?hops=two", 400, "hops=\"two\""},
		{"kind filter", "/export/" + exportPaper + ".json?kinds=task,colour", 400, "colour"},
		{"bad boolean", "/export/" + exportPaper + ".dot?cluster=maybe", 400, "cluster"},
		{"unknown format", "/export/" + exportPaper + ".pdf", 404, "format \"pdf\""},
		{"no format", "/export/" + exportPaper, 404, "want /export/{id}.dot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, ctype, body := get(t, srv, tt.path)
			if status != tt.status || !strings.HasPrefix(ctype, "text/plain") || !strings.Contains(string(body), tt.msg) {
				t.Errorf("GET %s = %d %q %q; want %d text/plain containing %q", tt.path, status, ctype, body, tt.status, tt.msg)
			}
		})
	}
	resp, err := srv.Client().Post(srv.URL+"/export/"+exportPaper+".dot", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d; want 405", resp.StatusCode)
	}
}
