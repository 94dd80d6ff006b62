// Package server serves the graph over GraphQL: the /query endpoint with
// its limits (depth, complexity, page size, body size, timeout), the
// GraphiQL playground, health, Prometheus metrics and the /export/ files.
//
//	st, _ := store.Open(dir, store.Options{})
//	srv, err := server.New(server.Options{Store: st, Extract: extractor})
//	if err != nil { ... }
//	http.ListenAndServe("127.0.0.1:8080", srv)
//
// The schema is ../schema.graphqls; generated.go and models_gen.go are
// generated from it by `go generate ./...` (configuration in ../gqlgen.yml)
// and never edited by hand or rewritten. The resolvers in resolver.go are
// thin: they convert arguments, make one graph call and return.
package server

//go:generate go tool gqlgen generate
