package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
)

// fieldLimit rejects documents selecting more than max fields, counted in
// the raw text before gqlgen parses and validates it. The depth and cost
// limits run after validation, too late for what validation itself costs:
// its rule that fields of one response name can merge compares them in
// pairs, so 2,000 copies of `search(query: "q") { score }` took 1.3 s and
// 20,000 of `stats { papers }` ran for minutes, after the client's timeout
// and out of reach of its context. A document passing this limit is
// validated in well under a second.
type fieldLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = fieldLimit{}

func (fieldLimit) ExtensionName() string { return "FieldLimit" }

func (fieldLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (l fieldLimit) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if n := countFields(p.Query, l.max); n > l.max {
		err := gqlerror.Errorf("document selects more than %d fields, the limit", l.max)
		errcode.Set(err, "COMPLEXITY_LIMIT_EXCEEDED")
		return err
	}
	return nil
}

// countFields returns the number of selections (fields, fragment spreads
// and inline fragments) in the GraphQL document query, counting up to
// just over limit. It reads tokens only: in a selection set and outside
// arguments, a spread (...) starts a selection, and so does a name that is
// not an alias (followed by a colon), a directive's, a spread fragment's
// or an inline fragment's type condition. A document that does not lex
// is counted up to its error and left to the parser to reject.
func countFields(query string, limit int) int {
	lx := lexer.New(&ast.Source{Input: query})
	n, braces, parens := 0, 0, 0
	// pending: the previous token was a name that starts a selection
	// unless a colon follows; skip: names to pass over (after a spread,
	// its fragment name or "on" and the type).
	pending, skip := false, 0
	prev := lexer.Invalid
	for {
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		if tok.Kind == lexer.Comment {
			continue
		}
		if pending && tok.Kind != lexer.Colon {
			n++
		}
		pending = false
		inSet := braces > 0 && parens == 0
		switch tok.Kind {
		case lexer.BraceL:
			if parens == 0 {
				braces++
			}
		case lexer.BraceR:
			if parens == 0 && braces > 0 {
				braces--
			}
		case lexer.ParenL:
			parens++
		case lexer.ParenR:
			if parens > 0 {
				parens--
			}
		case lexer.Spread:
			if inSet {
				n++
				skip = 1
			}
		case lexer.Name:
			switch {
			case skip > 0:
				skip--
				if prev == lexer.Spread && tok.Value == "on" {
					skip = 1
				}
			case inSet && prev != lexer.At:
				pending = true
			}
		}
		if tok.Kind != lexer.Name && tok.Kind != lexer.Spread {
			skip = 0
		}
		prev = tok.Kind
		if n > limit {
			return n
		}
	}
	if pending {
		n++
	}
	return n
}
