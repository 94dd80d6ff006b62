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
//
// A document in queries has passed every limit before and is not counted
// again: counting a frontend's query costs about 10 µs.
type fieldLimit struct {
	max     int
	queries *queryCache
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = fieldLimit{}

func (fieldLimit) ExtensionName() string { return "FieldLimit" }

func (fieldLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (l fieldLimit) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if _, ok := l.queries.Get(ctx, p.Query); ok {
		return nil
	}
	c := countFields(p.Query, l.max)
	var err *gqlerror.Error
	switch {
	case c.fields > l.max:
		err = gqlerror.Errorf("document selects more than %d fields, the limit", l.max)
	case c.repeated != "":
		err = gqlerror.Errorf("document selects %q more than %d times in one selection set, the limit", clip(c.repeated), maxSameName)
	}
	if err != nil {
		errcode.Set(err, "COMPLEXITY_LIMIT_EXCEEDED")
	}
	return err
}

// maxSameName bounds the fields of one response name in one selection
// set: validation compares them in pairs, and pairs that differ (other
// arguments) are an error each; 1,000 searches of distinct queries under
// one name took validation past 10 s.
const maxSameName = 20

// fieldCount is what countFields finds.
type fieldCount struct {
	fields int
	// repeated is a response name that comes more than maxSameName times
	// in one selection set, "" when none does.
	repeated string
}

// countFields counts the selections (fields, fragment spreads and inline
// fragments) in the GraphQL document query, up to just over limit, and
// the fields of each response name in each selection set. It reads tokens
// only: in a selection set and outside arguments, a spread (...) starts a
// selection, and so does a name that is not an alias (followed by a
// colon), a directive's, a spread fragment's or an inline fragment's type
// condition. A document that does not lex is counted up to its error and
// left to the parser to reject.
func countFields(query string, limit int) fieldCount {
	lx := lexer.New(&ast.Source{Input: query})
	var c fieldCount
	braces, parens := 0, 0
	// names counts the response names of each open selection set.
	var names []map[string]int
	// pending: the previous token was a name that starts a selection
	// unless a colon follows; alias: the alias before it, if any; skip:
	// names to pass over (after a spread, its fragment name or "on" and
	// the type).
	pending, skip := false, 0
	var name, alias string
	prev := lexer.Invalid
	count := func() {
		c.fields++
		resp := name
		if alias != "" {
			resp = alias
		}
		alias = ""
		if len(names) == 0 {
			return
		}
		set := names[len(names)-1]
		if set[resp]++; set[resp] > maxSameName && c.repeated == "" {
			c.repeated = resp
		}
	}
	for {
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		if tok.Kind == lexer.Comment {
			continue
		}
		if pending {
			if tok.Kind == lexer.Colon {
				alias = name
			} else {
				count()
			}
		}
		pending = false
		inSet := braces > 0 && parens == 0
		switch tok.Kind {
		case lexer.BraceL:
			if parens == 0 {
				braces++
				names = append(names, map[string]int{})
			}
		case lexer.BraceR:
			if parens == 0 && braces > 0 {
				braces--
				names = names[:len(names)-1]
			}
		case lexer.ParenL:
			parens++
		case lexer.ParenR:
			if parens > 0 {
				parens--
			}
		case lexer.Spread:
			if inSet {
				c.fields++
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
				pending, name = true, tok.Value
			}
		}
		if tok.Kind != lexer.Name && tok.Kind != lexer.Spread {
			skip = 0
		}
		prev = tok.Kind
		if c.fields > limit || c.repeated != "" {
			return c
		}
	}
	if pending {
		count()
	}
	return c
}
