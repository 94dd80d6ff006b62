package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// Paper ids of selectFixture.
const (
	dolphinID = "00000000000000d1"
	mathID    = "00000000000000a2"
	agentsID  = "00000000000000e3"
)

// selectFixture stores three papers: two share GUI grounding, two share
// LoRA, and OSWorld-G is narrower than OSWorld. It has 3 papers, 7
// entities, 9 paper-entity edges and 1 taxonomy edge.
func selectFixture(tb testing.TB) *Store {
	tb.Helper()
	s := openTest(tb)
	osworld := graph.Entity{Kind: graph.Dataset, Name: "OSWorld"}
	put(tb, s,
		graph.Paper{
			ID: dolphinID, Name: "Dolphin", Label: `Dolphin: a "VLM" for GUI grounding`,
			Abstract: "We present Dolphin, a vision-language model for GUI grounding evaluated on OSWorld-G.",
			Entities: []graph.Entity{
				{Kind: graph.Task, Name: "GUI grounding"},
				{Kind: graph.Modality, Name: "image"},
				{Kind: graph.Dataset, Name: "OSWorld-G", Broader: []string{"OSWorld"}, Aliases: []string{"OSWorld G"}},
				{Kind: graph.Technique, Name: "LoRA"},
			},
			Ancestors: []graph.Entity{osworld},
		},
		graph.Paper{
			ID: mathID, Label: "Math reasoning with small models",
			Abstract: "We fine-tune small models with LoRA for math reasoning on GSM8K.",
			Entities: []graph.Entity{
				{Kind: graph.Task, Name: "math reasoning"},
				{Kind: graph.Dataset, Name: "GSM8K", Aliases: []string{"GSM-8K"}},
				{Kind: graph.Technique, Name: "LoRA"},
			},
		},
		graph.Paper{
			ID: agentsID, Label: "Agents for OSWorld",
			Abstract: "Agents that click: GUI grounding on OSWorld.",
			Entities: []graph.Entity{
				{Kind: graph.Task, Name: "GUI grounding"},
				osworld,
			},
		},
	)
	return s
}

func nodeIDs(g graph.Subgraph) []string {
	ids := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		ids[i] = n.ID()
	}
	return ids
}

func TestSelect(t *testing.T) {
	s := selectFixture(t)
	ctx := context.Background()
	tests := []struct {
		name  string
		sel   graph.Selection
		nodes []string
		edges int
	}{
		{"paper", graph.Selection{Paper: dolphinID, Hops: 1},
			[]string{dolphinID, "dataset:osworld-g", "modality:image", "task:gui-grounding", "technique:lora"}, 4},
		{"paper no hops", graph.Selection{Paper: dolphinID}, []string{dolphinID}, 0},
		{"paper datasets", graph.Selection{Paper: dolphinID, Hops: 1, Kinds: []graph.Kind{graph.Dataset}},
			[]string{dolphinID, "dataset:osworld-g"}, 1},
		{"paper limit", graph.Selection{Paper: dolphinID, Hops: 1, Limit: 2}, nil, -1},
		{"entity alias", graph.Selection{Entity: "dataset:GSM-8K", Hops: 1}, []string{mathID, "dataset:gsm8k"}, 1},
		{"entity name", graph.Selection{Entity: "Dataset:gsm8k", Hops: 1}, []string{mathID, "dataset:gsm8k"}, 1},
		{"entity id", graph.Selection{Entity: "dataset:osworld-g"}, []string{"dataset:osworld-g"}, 0},
		{"taxonomy", graph.Selection{Entity: "dataset:OSWorld", Hops: 1},
			[]string{agentsID, "dataset:osworld", "dataset:osworld-g"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := s.Select(ctx, tt.sel)
			if err != nil {
				t.Fatalf("Select(%+v): %v", tt.sel, err)
			}
			got := nodeIDs(g)
			if !slices.IsSorted(got) {
				t.Errorf("Select(%+v) nodes not sorted: %v", tt.sel, got)
			}
			if tt.nodes == nil {
				if len(got) != tt.sel.Limit || !slices.Contains(got, dolphinID) {
					t.Errorf("Select(%+v) = %v; want %d nodes with the root", tt.sel, got, tt.sel.Limit)
				}
				return
			}
			if !slices.Equal(got, tt.nodes) {
				t.Errorf("Select(%+v) nodes = %v; want %v", tt.sel, got, tt.nodes)
			}
			if len(g.Edges) != tt.edges {
				t.Errorf("Select(%+v) edges = %v; want %d", tt.sel, g.Edges, tt.edges)
			}
		})
	}
}

func TestSelectSearch(t *testing.T) {
	s := selectFixture(t)
	g, err := s.Select(context.Background(), graph.Selection{Search: "Dolphin", Hops: 1})
	if err != nil {
		t.Fatalf("Select(search Dolphin): %v", err)
	}
	if !slices.Contains(nodeIDs(g), dolphinID) || !slices.Contains(nodeIDs(g), "dataset:osworld-g") {
		t.Errorf("Select(search Dolphin) = %v; want the Dolphin paper and its dataset", nodeIDs(g))
	}
}

func TestSelectErrors(t *testing.T) {
	s := selectFixture(t)
	tests := []struct {
		name string
		sel  graph.Selection
		want error
	}{
		{"unknown paper", graph.Selection{Paper: "00000000000000ff"}, graph.ErrNotFound},
		{"malformed paper", graph.Selection{Paper: "dolphin"}, graph.ErrBadID},
		{"unknown entity", graph.Selection{Entity: "dataset:imagenet-42"}, graph.ErrNotFound},
		{"unknown kind", graph.Selection{Entity: "colour:red"}, graph.ErrBadKind},
		{"entity without kind", graph.Selection{Entity: "gsm8k"}, graph.ErrBadID},
		{"hops too many", graph.Selection{Paper: dolphinID, Hops: graph.MaxHops + 1}, graph.ErrBadArgument},
		{"hops negative", graph.Selection{Paper: dolphinID, Hops: -1}, graph.ErrBadArgument},
		{"bad kind filter", graph.Selection{Paper: dolphinID, Kinds: []graph.Kind{9}}, graph.ErrBadKind},
		{"two roots", graph.Selection{Paper: dolphinID, Entity: "dataset:gsm8k"}, graph.ErrBadArgument},
		{"limit whole graph", graph.Selection{Limit: 10}, graph.ErrBadArgument},
		{"negative limit", graph.Selection{Paper: dolphinID, Limit: -1}, graph.ErrBadArgument},
		{"search no hits", graph.Selection{Search: "zyxwvut"}, graph.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Select(context.Background(), tt.sel)
			if !errors.Is(err, tt.want) {
				t.Errorf("Select(%+v) = %v; want %v", tt.sel, err, tt.want)
			}
			if err := s.Export(context.Background(), tt.sel, &collector{}); !errors.Is(err, tt.want) {
				t.Errorf("Export(%+v) = %v; want %v", tt.sel, err, tt.want)
			}
		})
	}
}

// TestExportWhole checks that the streamed whole graph has the nodes and
// edges Stats counts, in the order of the in-memory path.
func TestExportWhole(t *testing.T) {
	s := selectFixture(t)
	ctx := context.Background()
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var c collector
	if err := s.Export(ctx, graph.Selection{}, &c); err != nil {
		t.Fatalf("Export(whole): %v", err)
	}
	entities := 0
	for _, n := range st.Entities {
		entities += n
	}
	var paperEdges, broader int
	for _, e := range c.g.Edges {
		if e.Kind == graph.BroaderEdge {
			broader++
		} else {
			paperEdges++
		}
	}
	if len(c.g.Nodes) != st.Papers+entities || paperEdges != st.Edges || broader != 1 {
		t.Errorf("Export(whole) = %d nodes, %d paper edges, %d broader; want %d+%d, %d, 1",
			len(c.g.Nodes), paperEdges, broader, st.Papers, entities, st.Edges)
	}

	g, err := s.Select(ctx, graph.Selection{})
	if err != nil {
		t.Fatalf("Select(whole): %v", err)
	}
	// The stream comes in the order WriteSubgraph writes a subgraph in,
	// so that a writer's output is the same either way.
	var inMemory collector
	if err := graph.WriteSubgraph(&inMemory, g); err != nil {
		t.Fatal(err)
	}
	nodeIDs := func(ns []graph.Node) []string {
		var ids []string
		for _, n := range ns {
			ids = append(ids, n.ID())
		}
		return ids
	}
	if !slices.Equal(nodeIDs(c.g.Nodes), nodeIDs(inMemory.g.Nodes)) || !reflect.DeepEqual(c.g.Edges, inMemory.g.Edges) {
		t.Errorf("Export(whole) streams in another order than WriteSubgraph(Select(whole))")
	}

	var datasets collector
	if err := s.Export(ctx, graph.Selection{Kinds: []graph.Kind{graph.Dataset}}, &datasets); err != nil {
		t.Fatal(err)
	}
	if want := st.Papers + st.Entities[graph.Dataset]; len(datasets.g.Nodes) != want {
		t.Errorf("Export(kinds dataset) = %d nodes; want %d", len(datasets.g.Nodes), want)
	}
}

// heapWatcher is a GraphWriter that discards the graph and samples the
// live heap every 500 elements: the memory Export itself holds.
type heapWatcher struct {
	n    int
	peak uint64
}

func (h *heapWatcher) sample() {
	if h.n++; h.n%500 == 0 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		h.peak = max(h.peak, m.HeapAlloc)
	}
}

func (h *heapWatcher) WriteNode(graph.Node) error { h.sample(); return nil }
func (h *heapWatcher) WriteEdge(graph.Edge) error { h.sample(); return nil }
func (h *heapWatcher) Close() error               { return nil }

// discard is a GraphWriter that drops the graph.
type discard struct{}

func (discard) WriteNode(graph.Node) error { return nil }
func (discard) WriteEdge(graph.Edge) error { return nil }
func (discard) Close() error               { return nil }

// BenchmarkExportWhole streams the whole graph to a writer that discards
// it and reports the peak live heap during a streaming pass, which should
// not grow with the number of papers. (export's BenchmarkWriteWholeDOT
// adds the DOT writer.)
func BenchmarkExportWhole(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("papers=%d", n), func(b *testing.B) {
			s := openTest(b)
			papers := corpus.Papers(7, n, 40)
			for i := 0; i < len(papers); i += 1000 {
				put(b, s, papers[i:min(i+1000, len(papers))]...)
			}
			papers = nil
			ctx := context.Background()
			var h heapWatcher
			if err := s.Export(ctx, graph.Selection{}, &h); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if err := s.Export(ctx, graph.Selection{}, discard{}); err != nil {
					b.Fatal(err)
				}
			}
			// After the loop: ResetTimer clears reported metrics.
			b.ReportMetric(float64(h.peak)/(1<<20), "peak-heap-MB")
		})
	}
}
