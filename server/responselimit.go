package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// responseLimit bounds what one response holds: at most maxErrors errors,
// the rest summed up in one TOO_MANY_ERRORS error (2,000 searches under one
// response name once answered with 1,999,000 errors in a 489 MB body),
// and data of at most maxBytes, else RESPONSE_TOO_LARGE in place of the
// data. The other limits keep responses far below that; this is the net
// under them.
type responseLimit struct {
	maxErrors int
	maxBytes  int
}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = responseLimit{}

func (responseLimit) ExtensionName() string { return "ResponseLimit" }

func (responseLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (l responseLimit) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil {
		return nil
	}
	if len(resp.Data) > l.maxBytes {
		// First, so that the error cap below keeps it.
		err := gqlerror.Errorf("response of over %d bytes, the limit: ask for fewer fields or smaller pages", l.maxBytes)
		errcode.Set(err, "RESPONSE_TOO_LARGE")
		resp.Data = nil
		resp.Errors = append(gqlerror.List{err}, resp.Errors...)
	}
	if n := len(resp.Errors); n > l.maxErrors {
		err := gqlerror.Errorf("%d more errors left out", n-l.maxErrors+1)
		errcode.Set(err, "TOO_MANY_ERRORS")
		resp.Errors = append(resp.Errors[:l.maxErrors-1], err)
	}
	return resp
}
