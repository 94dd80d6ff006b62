package graph

// STUB: errNotImplemented moved here from store_stub.go so that the stubs
// still in the tree compile; delete this file with the last *_stub.go.

import "errors"

var errNotImplemented = errors.New("not implemented")
