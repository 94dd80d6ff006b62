package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/papergraph/papergraph/graph"
)

// allPages collects every page of a listing, failing on a duplicate.
func allPages(t *testing.T, page func(after string) (ids []string, end string, next bool, err error)) []string {
	t.Helper()
	var all []string
	seen := make(map[string]bool)
	after := ""
	for range 1000 {
		ids, end, next, err := page(after)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("%s listed twice", id)
			}
			seen[id] = true
		}
		all = append(all, ids...)
		if !next {
			return all
		}
		after = end
	}
	t.Fatal("listing does not end")
	return nil
}

func TestPapersOf(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	want := fxIDs(1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
	for _, first := range []int{1, 4, 5, 13, 100} {
		got := allPages(t, func(after string) ([]string, string, bool, error) {
			p, err := s.PapersOf(ctx, graph.PageOf{Entity: "dataset:hub", First: first, After: after})
			if err == nil && p.Total != 13 {
				t.Errorf("PapersOf(hub).Total = %d; want 13", p.Total)
			}
			if err == nil && len(p.Papers) > 0 && p.Cursors[len(p.Cursors)-1] != p.EndCursor {
				t.Errorf("PapersOf(hub): last cursor %q != end cursor %q", p.Cursors[len(p.Cursors)-1], p.EndCursor)
			}
			return idsOf(p.Papers), p.EndCursor, p.HasNext, err
		})
		if !slices.Equal(got, want) {
			t.Errorf("PapersOf(hub, first %d) = %v; want %v", first, got, want)
		}
	}
	// A cursor resumes right after its paper.
	p, err := s.PapersOf(ctx, graph.PageOf{Entity: "dataset:hub", First: 3})
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.PapersOf(ctx, graph.PageOf{Entity: "dataset:hub", First: 2, After: p.Cursors[1]})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(q.Papers); !slices.Equal(got, fxIDs(4, 5)) {
		t.Errorf("PapersOf(hub, after 2nd) = %v; want %v", got, fxIDs(4, 5))
	}

	other, err := s.ListPapers(ctx, graph.PaperQuery{First: 1})
	if err != nil {
		t.Fatal(err)
	}
	rare, err := s.PapersOf(ctx, graph.PageOf{Entity: "dataset:rare", First: 1})
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		entity string
		first  int
		after  string
		want   error
	}{
		{"dataset:hub", -1, "", graph.ErrBadArgument},
		{"dataset:hub", 101, "", graph.ErrBadArgument},
		{"dataset:hub", 5, "%%%", graph.ErrBadCursor},
		{"dataset:hub", 5, other.EndCursor, graph.ErrBadCursor},
		{"dataset:hub", 5, rare.EndCursor, graph.ErrBadCursor},
		{"dataset:none", 5, "", graph.ErrNotFound},
		{"hub", 5, "", graph.ErrBadID},
	}
	for _, tt := range bad {
		if _, err := s.PapersOf(ctx, graph.PageOf{Entity: tt.entity, First: tt.first, After: tt.after}); !errors.Is(err, tt.want) {
			t.Errorf("PapersOf(%q, %d, %q) error = %v; want %v", tt.entity, tt.first, tt.after, err, tt.want)
		}
	}
}

func TestListPapers(t *testing.T) {
	papers := fixture()
	s := openFixture(t, papers)
	ctx := context.Background()
	var all, source []string
	for _, p := range papers {
		all = append(all, p.ID)
		source = append(source, p.ID)
	}
	slices.Sort(all)
	tests := []struct {
		name      string
		f         graph.PaperFilter
		want      []string
		wantTotal int
		anyOrder  bool
	}{
		{"all", graph.PaperFilter{}, all, len(all), false},
		{"kind", graph.PaperFilter{Kind: graph.Technique}, fxIDs(1, 6), 2, false},
		{"task", graph.PaperFilter{Kind: graph.Task}, fxIDs(1), 1, false},
		{"entity", graph.PaperFilter{Entity: "dataset:rare"}, fxIDs(1, 2, 4), 3, false},
		{"entity and kind", graph.PaperFilter{Entity: "dataset:hub", Kind: graph.Technique}, fxIDs(1, 6), 2, false},
		{"source", graph.PaperFilter{Source: "fixture.jsonl"}, source, len(source), false},
		{"source and kind", graph.PaperFilter{Source: "fixture.jsonl", Kind: graph.Technique}, fxIDs(1, 6), 2, false},
		{"other source", graph.PaperFilter{Source: "other.jsonl"}, nil, 0, false},
		{"text", graph.PaperFilter{Text: "zebra"}, fxIDs(40, 41), 2, false},
		{"text and entity", graph.PaperFilter{Text: "zebra", Entity: "dataset:rare"}, nil, 0, false},
		{"text paging", graph.PaperFilter{Text: "fixture"}, all, len(all), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := allPages(t, func(after string) ([]string, string, bool, error) {
				p, err := s.ListPapers(ctx, graph.PaperQuery{Filter: tt.f, First: 3, After: after})
				if err == nil && p.Total != tt.wantTotal {
					t.Errorf("ListPapers(%+v).Total = %d; want %d", tt.f, p.Total, tt.wantTotal)
				}
				return idsOf(p.Papers), p.EndCursor, p.HasNext, err
			})
			if tt.anyOrder {
				slices.Sort(got)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ListPapers(%+v) = %v; want %v", tt.f, got, tt.want)
			}
		})
	}
	text, err := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Text: "fixture"}, First: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Text: "zebra"}, First: 2, After: text.EndCursor}); !errors.Is(err, graph.ErrBadCursor) {
		t.Errorf("ListPapers(zebra, cursor of another query) error = %v; want ErrBadCursor", err)
	}
	if _, err := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Text: "fixture", Kind: graph.Dataset}, First: 2, After: text.EndCursor}); !errors.Is(err, graph.ErrBadCursor) {
		t.Errorf("ListPapers(fixture, kind, cursor without kind) error = %v; want ErrBadCursor", err)
	}
	if _, err := s.ListPapers(ctx, graph.PaperQuery{Filter: graph.PaperFilter{Kind: 7}, First: 2}); !errors.Is(err, graph.ErrBadKind) {
		t.Errorf("ListPapers(kind 7) error = %v; want ErrBadKind", err)
	}
}

func entityIDList(es []graph.Entity) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID())
	}
	return out
}

func TestListEntities(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		kind   graph.Kind
		search string
		order  graph.EntityOrder
		want   []string
	}{
		{graph.Dataset, "", graph.ByDegree, []string{"dataset:hub", "dataset:rare", "dataset:osworld-g", "dataset:osworld", "dataset:osworld-verified"}},
		{0, "", graph.ByDegree, []string{"dataset:hub", "dataset:rare", "dataset:osworld-g", "technique:lora",
			"dataset:osworld", "dataset:osworld-verified", "task:question-answering"}},
		{0, "", graph.ByName, []string{"dataset:hub", "dataset:osworld", "dataset:osworld-g", "dataset:osworld-verified",
			"dataset:rare", "task:question-answering", "technique:lora"}},
		{graph.Technique, "", graph.ByName, []string{"technique:lora"}},
		{0, "osw", graph.ByName, []string{"dataset:osworld", "dataset:osworld-g", "dataset:osworld-verified"}},
		{0, "OSWORLD-V", graph.ByDegree, []string{"dataset:osworld-verified"}},
		// As a slug "OSWorld-" is "osworld": the punctuation is ignored.
		{graph.Dataset, "OSWorld-", graph.ByDegree, []string{"dataset:osworld-g", "dataset:osworld", "dataset:osworld-verified"}},
		{graph.Technique, "low", graph.ByName, []string{"technique:lora"}},
		{graph.Dataset, "low", graph.ByName, nil},
		{0, "Lo", graph.ByDegree, []string{"technique:lora"}},
	}
	for _, tt := range tests {
		for _, first := range []int{1, 2, 100} {
			got := allPages(t, func(after string) ([]string, string, bool, error) {
				p, err := s.ListEntities(ctx, graph.EntityQuery{Kind: tt.kind, Search: tt.search, Order: tt.order, First: first, After: after})
				if err == nil && p.Total != len(tt.want) {
					t.Errorf("ListEntities(%v, %q, %v).Total = %d; want %d", tt.kind, tt.search, tt.order, p.Total, len(tt.want))
				}
				return entityIDList(p.Entities), p.EndCursor, p.HasNext, err
			})
			if !slices.Equal(got, tt.want) {
				t.Errorf("ListEntities(%v, %q, %v, first %d) = %v; want %v", tt.kind, tt.search, tt.order, first, got, tt.want)
			}
		}
	}
	byName, err := s.ListEntities(ctx, graph.EntityQuery{Order: graph.ByName, First: 1})
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		kind  graph.Kind
		order graph.EntityOrder
		first int
		after string
		want  error
	}{
		{0, graph.ByDegree, 1, byName.EndCursor, graph.ErrBadCursor},
		{0, graph.ByDegree, 1, "AAAA", graph.ErrBadCursor},
		{0, graph.ByDegree, -1, "", graph.ErrBadArgument},
		{0, graph.ByDegree, 101, "", graph.ErrBadArgument},
		{0, 7, 1, "", graph.ErrBadArgument},
		{9, graph.ByName, 1, "", graph.ErrBadKind},
	}
	for _, tt := range bad {
		if _, err := s.ListEntities(ctx, graph.EntityQuery{Kind: tt.kind, Order: tt.order, First: tt.first, After: tt.after}); !errors.Is(err, tt.want) {
			t.Errorf("ListEntities(%v, %v, %d, %q) error = %v; want %v", tt.kind, tt.order, tt.first, tt.after, err, tt.want)
		}
	}
}

// TestListEntitiesByDegree checks the first page by degree: the top
// entities, PaperCount filled.
func TestListEntitiesByDegree(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	tests := []struct {
		kind  graph.Kind
		limit int
		want  []string
	}{
		{graph.Dataset, 2, []string{"dataset:hub", "dataset:rare"}},
		{0, 4, []string{"dataset:hub", "dataset:rare", "dataset:osworld-g", "technique:lora"}},
		{graph.Task, 0, []string{"task:question-answering"}},
		{graph.Modality, 5, nil},
	}
	for _, tt := range tests {
		page, err := s.ListEntities(ctx, graph.EntityQuery{Kind: tt.kind, Order: graph.ByDegree, First: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		got := page.Entities
		if ids := entityIDList(got); !slices.Equal(ids, tt.want) {
			t.Errorf("ListEntities(%v, ByDegree, %d) = %v; want %v", tt.kind, tt.limit, ids, tt.want)
		}
		for _, e := range got {
			if e.PaperCount == 0 {
				t.Errorf("ListEntities(%v, ByDegree): %s has PaperCount 0", tt.kind, e.ID())
			}
		}
	}
}

func TestPapersOfEach(t *testing.T) {
	s := openFixture(t, fixture())
	ctx := context.Background()
	first, err := s.PapersOf(ctx, graph.PageOf{Entity: "dataset:hub", First: 2})
	if err != nil {
		t.Fatal(err)
	}
	reqs := []graph.PageOf{
		{Entity: "dataset:hub", First: 2},
		{Entity: "dataset:hub", First: 3, After: first.EndCursor},
		{Entity: "dataset:rare", First: 5},
		{Entity: "dataset:none", First: 5},
		{Entity: "hub", First: 5},
		{Entity: "dataset:rare", First: -1},
		{Entity: "dataset:rare", First: 5, After: first.EndCursor},
	}
	wantErr := []error{nil, nil, nil, graph.ErrNotFound, graph.ErrBadID, graph.ErrBadArgument, graph.ErrBadCursor}
	pages, errs, err := s.PapersOfEach(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range reqs {
		if !errors.Is(errs[i], wantErr[i]) || (wantErr[i] == nil) != (errs[i] == nil) {
			t.Errorf("PapersOfEach(%+v) error = %v; want %v", r, errs[i], wantErr[i])
			continue
		}
		if errs[i] != nil {
			continue
		}
		want, err := s.PapersOf(ctx, graph.PageOf{Entity: r.Entity, First: r.First, After: r.After})
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want, pages[i]); diff != "" {
			t.Errorf("PapersOfEach(%+v) differs from PapersOf (-want +got):\n%s", r, diff)
		}
	}
}
