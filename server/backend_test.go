package server

import (
	"context"
	"testing"

	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/dgraph/dgraphtest"
)

// backend is a store the server's tests run against.
type backend struct {
	name string
	// serve is newTestServer over a new store of the backend.
	serve func(tb testing.TB, bulk int, opts Options) *testServer
	// skip names the query tests the backend does not answer, each with
	// the reason (documented on its Store method).
	skip map[string]string
}

// backends returns the embedded Badger store and, when a Dgraph binary is
// given (see dgraphtest), a Dgraph store on a cluster of the test's own,
// one database each call of serve.
func backends(t *testing.T) []backend {
	bs := []backend{{name: "badger", serve: newTestServer}}
	if dgraphtest.Binary() == "" {
		t.Log("no Dgraph binary: the queries run on Badger only (set PAPERGRAPH_DGRAPH)")
		return bs
	}
	var c *dgraphtest.Cluster
	return append(bs, backend{
		name: "dgraph",
		serve: func(tb testing.TB, bulk int, opts Options) *testServer {
			if c == nil {
				c = dgraphtest.Start(t)
			}
			st, err := dgraph.Open(context.Background(), c.Addr, dgraph.Options{})
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { st.Close() })
			if err := st.DropAll(context.Background()); err != nil {
				tb.Fatal(err)
			}
			return serveFixture(tb, st, bulk, opts)
		},
		skip: map[string]string{
			"path": "of two shortest paths, Dgraph picks its own",
		},
	})
}
