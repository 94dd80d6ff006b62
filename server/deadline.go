package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// deadline keeps an operation's root fields from outliving its request's
// context. gqlgen starts every root field of an operation at once, each
// on its goroutine, whatever the context, and introspection fields never
// look at it: 10,000 aliases of __schema went on for 25 s of CPU after the
// client had its TIMEOUT. Here at most rootSlots root fields of one
// operation run at a time, and one that has not started when the context
// ends never does: it resolves to null with no error of its own, as the
// client has had its TIMEOUT (or went away) and nobody reads the rest.
// Fields already running end on their own: the store checks the context
// in its loops and the extractor at each step, and introspection is
// bounded per field by the cost limit.
type deadline struct{}

// rootSlots is how many root fields of one operation run at once: enough
// to overlap a few store reads, few enough that one request's aliases do
// not crowd out the others' requests.
const rootSlots = 8

type rootSlotsKey struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.RootFieldInterceptor
} = deadline{}

func (deadline) ExtensionName() string { return "Deadline" }

func (deadline) Validate(graphql.ExecutableSchema) error { return nil }

func (deadline) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	return next(context.WithValue(ctx, rootSlotsKey{}, make(chan struct{}, rootSlots)))
}

func (deadline) InterceptRootField(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	slots, _ := ctx.Value(rootSlotsKey{}).(chan struct{})
	if slots == nil {
		return next(ctx)
	}
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return graphql.Null
	}
	defer func() { <-slots }()
	if ctx.Err() != nil {
		return graphql.Null
	}
	return next(ctx)
}
