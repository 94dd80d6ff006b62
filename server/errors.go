package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/papergraph/papergraph/graph"
)

var (
	// errUnauthenticated: a write without the bearer token, or with a
	// wrong one.
	errUnauthenticated = errors.New("unauthenticated: addPapers needs the server's write token as \"Authorization: Bearer <token>\"")
	// errForbidden: a write to a server started without a write token.
	errForbidden = errors.New("forbidden: this server does not accept writes (start it with --write-token)")
	// errReadOnly: a write to a server over a store opened read-only.
	errReadOnly = errors.New("forbidden: this server opened its database read-only (serve --read-only): stop it and serve without --read-only to write")
	// errPanic: a resolver panicked; recoverPanic has logged it.
	errPanic = errors.New("panic")
)

// errorCodes maps the errors clients can act on to GraphQL's
// extensions.code, the first match winning. Their messages are shown;
// every other error is INTERNAL_SERVER_ERROR (Apollo's name), logged and shown as "internal error".
var errorCodes = []struct {
	err  error
	code string
}{
	{graph.ErrNotFound, "NOT_FOUND"},
	{graph.ErrBadID, "BAD_USER_INPUT"},
	{graph.ErrBadKind, "BAD_USER_INPUT"},
	{graph.ErrBadArgument, "BAD_USER_INPUT"},
	{graph.ErrBadCursor, "BAD_USER_INPUT"},
	{errUnauthenticated, "UNAUTHENTICATED"},
	{errForbidden, "FORBIDDEN"},
	{errReadOnly, "FORBIDDEN"},
	{context.DeadlineExceeded, "TIMEOUT"},
	// The client went away: nobody reads the answer, nothing to log.
	{context.Canceled, "CANCELED"},
}

// internalCode is the extensions.code of every error not in errorCodes,
// under Apollo's name for it, which client libraries recognise.
const internalCode = "INTERNAL_SERVER_ERROR"

// presentError is gqlgen's error presenter: every error a resolver returns
// passes here once.
func (s *Server) presentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)
	gqlErr.Message = clip(gqlErr.Message)
	for _, c := range errorCodes {
		if errors.Is(err, c.err) {
			setCode(gqlErr, c.code)
			return gqlErr
		}
	}
	// gqlgen's own errors (argument coercion, null in a non-null field)
	// are about the request and already say so.
	var own *gqlerror.Error
	if errors.As(err, &own) && own.Err == nil {
		return gqlErr
	}
	if !errors.Is(err, errPanic) {
		s.log.ErrorContext(ctx, "graphql request failed", "path", gqlErr.Path.String(), "err", err)
	}
	return &gqlerror.Error{
		Message:    "internal error",
		Path:       gqlErr.Path,
		Extensions: map[string]any{"code": internalCode},
	}
}

// maxMessage bounds an error's message: messages quote the argument they
// reject, and a 500 KB id came back whole.
const maxMessage = 512

// clip returns msg cut to maxMessage bytes, at a rune boundary, with an
// ellipsis when cut.
func clip(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

func setCode(e *gqlerror.Error, code string) {
	if e.Extensions == nil {
		e.Extensions = map[string]any{}
	}
	e.Extensions["code"] = code
}

// recoverPanic is gqlgen's recover function: a resolver's panic becomes an
// INTERNAL_SERVER_ERROR of that field, logged with its stack, and the server
// keeps serving.
func (s *Server) recoverPanic(ctx context.Context, v any) error {
	path := ""
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		path = fc.Path().String()
	}
	s.log.ErrorContext(ctx, "graphql resolver panicked", "path", path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	return fmt.Errorf("%w: %v", errPanic, v)
}

// bearerToken returns the bearer token of an Authorization header value,
// "" for none.
func bearerToken(authorization string) string {
	scheme, token, ok := strings.Cut(authorization, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// authorize returns nil when the request carries want as its bearer token,
// errForbidden when writes are disabled (want is empty), else
// errUnauthenticated.
// The comparison of the two hashes takes the same time whatever the token,
// so timing reveals nothing about want, not even its length.
func authorize(ctx context.Context, want string) error {
	var got string
	if rq := requestFrom(ctx); rq != nil {
		got = rq.bearer
	}
	return checkToken(got, want)
}

// checkToken is authorize for a bearer token got: nil when it is want.
func checkToken(got, want string) error {
	if want == "" {
		return errForbidden
	}
	if got == "" {
		return errUnauthenticated
	}
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	if subtle.ConstantTimeCompare(g[:], w[:]) != 1 {
		return errUnauthenticated
	}
	return nil
}
