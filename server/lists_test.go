package server

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestResolversClassified checks that every resolver is known to wait or
// known not to: one missing from both would run in series in a list and
// lose its batching without anything else failing.
func TestResolversClassified(t *testing.T) {
	root := reflect.TypeFor[ResolverRoot]()
	for i := range root.NumMethod() {
		typ := root.Method(i)
		resolvers := typ.Type.Out(0)
		for j := range resolvers.NumMethod() {
			field := resolvers.Method(j).Name
			w, p := listed(waitingResolvers, typ.Name, field), listed(pureResolvers, typ.Name, field)
			if w == p {
				t.Errorf("%s.%s: in waitingResolvers %v, in pureResolvers %v; want it in one of them", typ.Name, field, w, p)
			}
		}
	}
}

func TestWaits(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{`{ papersSharing(paper: "x") { score paper { id title year datasets { name } } shared { id kind name } } }`, false},
		{`{ papersSharing(paper: "x") { shared { paperCount } } }`, true},
		{`{ papersSharing(paper: "x") { paper { datasets { papers { totalCount } } } } }`, true},
		{`{ search(query: "x") { node { id ... on Paper { title } } } }`, false},
		{`{ search(query: "x") { node { ... on Entity { aliases } } } }`, true},
		{`{ search(query: "x") { node { ...E } } } fragment E on Entity { broader { id } }`, true},
	}
	for _, tt := range tests {
		doc, errs := gqlparser.LoadQuery(parsedSchema, tt.query)
		if errs != nil {
			t.Fatalf("%s: %v", tt.query, errs)
		}
		list := doc.Operations[0].SelectionSet[0].(*ast.Field)
		if got := waits(list.SelectionSet); got != tt.want {
			t.Errorf("waits(%s) = %v; want %v", tt.query, got, tt.want)
		}
	}
}

// TestGeneratedListsUseMarshalList checks that the go:generate rewrite in
// doc.go still matches what gqlgen writes: were gqlgen's template to change
// the call, gofmt -r would leave it alone without a word, and every list of
// objects would quietly go back to a goroutine per element.
func TestGeneratedListsUseMarshalList(t *testing.T) {
	src, err := os.ReadFile("generated.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(src, []byte("graphql.MarshalSliceConcurrently(")); n > 0 {
		t.Errorf("generated.go calls graphql.MarshalSliceConcurrently %d times; the rewrite in doc.go no longer matches gqlgen's output", n)
	}
	if n := bytes.Count(src, []byte("marshalList(ctx, sel, ")); n == 0 {
		t.Error("generated.go never calls marshalList; the rewrite in doc.go no longer matches gqlgen's output")
	}
}
