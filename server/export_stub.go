package server

// STUB: the export helper replaces this file with export.go and render.go,
// keeping these names (it may add to them).

import (
	"net/http"

	"github.com/papergraph/papergraph/graph"
)

// NewExportHandler serves GET /export/{id}.{dot,svg,graphml,json}.
func NewExportHandler(st *graph.Store) http.Handler {
	return http.NotFoundHandler()
}
