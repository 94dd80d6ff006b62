package server

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

func TestCountFields(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  int
	}{
		{"one field", `{ stats { papers } }`, 2},
		{"aliases", `{ a: stats { papers } b: stats { p: papers } }`, 4},
		{"arguments and object values", `query($t: String = "x") { search(query: $t, first: 3) { score } papers(filter: {entity: "a b"}) { totalCount } }`, 4},
		{"directives", `{ stats @include(if: true) { papers @skip(if: false) } }`, 2},
		{"fragments", `query { ...F ... on Query { stats { papers } } ... @include(if: true) { __typename } } fragment F on Query { stats { entities } }`, 8},
		{"comments", "{ a # comment\n : stats { papers } }", 2},
		{"not GraphQL", `{ stats { "unterminated`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := countFields(tt.query, 100).fields; got != tt.want {
				t.Errorf("countFields(%q) = %d; want %d", tt.query, got, tt.want)
			}
		})
	}
	if got := countFields(aliases(5000, "stats { papers }"), 1000).fields; got != 1001 {
		t.Errorf("countFields(5,000 aliases, 1000) = %d; want 1001, stopping just over the limit", got)
	}
	if got := countFields(searchesUnderOneName(30), 1000).repeated; got != "search" {
		t.Errorf("countFields(30 searches under one name).repeated = %q; want search", got)
	}
	if got := countFields(`{ a: stats { papers } b: stats { papers } papers { totalCount } }`, 1000).repeated; got != "" {
		t.Errorf("countFields(aliases).repeated = %q; want none", got)
	}
}

// selections counts the selections of a parsed document, as countFields
// should.
func selections(doc *ast.QueryDocument) int {
	var count func(ast.SelectionSet) int
	count = func(set ast.SelectionSet) int {
		n := len(set)
		for _, sel := range set {
			switch sel := sel.(type) {
			case *ast.Field:
				n += count(sel.SelectionSet)
			case *ast.InlineFragment:
				n += count(sel.SelectionSet)
			}
		}
		return n
	}
	n := 0
	for _, op := range doc.Operations {
		n += count(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		n += count(f.SelectionSet)
	}
	return n
}

// FuzzCountFields checks countFields against the parser on every document
// that parses.
func FuzzCountFields(f *testing.F) {
	for _, q := range []string{
		`{ stats { papers } }`,
		`query Q($t: String!) { a: extract(text: $t) { id } ...F } fragment F on Query { stats { papers } }`,
		`{ papers(first: 2, filter: {entity: "x"}) { edges { node { id } } } }`,
		`{ ... on Query @include(if: true) { __typename } __schema { types { name } } }`,
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		doc, err := parser.ParseQuery(&ast.Source{Input: q})
		if err != nil {
			return
		}
		if got, want := countFields(q, 1<<30), selections(doc); got.fields != want && got.repeated == "" {
			t.Errorf("countFields(%q) = %d; the parser finds %d selections", q, got.fields, want)
		}
	})
}

// BenchmarkCountFields measures the field limit's cost on a frontend's
// query, paid by every request that the response cache does not answer.
func BenchmarkCountFields(b *testing.B) {
	const q = `query PaperPage($p: ID!) {
		paper(id: $p) { id label title year source datasets { id name paperCount } tasks { id name } }
		papersSharing(paper: $p, first: 10) { score paper { id label title year } shared { id kind name } } }`
	b.ReportAllocs()
	for b.Loop() {
		countFields(q, 1000)
	}
}
