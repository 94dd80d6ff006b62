package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
)

// exportFormats are the formats /export/ serves, by extension; PNG is
// left to the command (go-graphviz's PNG draws no outlines).
var exportFormats = []export.Format{export.DOT, export.SVG, export.GraphML, export.Cytoscape}

// exportStatus maps the selection errors to HTTP statuses, the first
// match winning; every other error is a 500 whose cause is logged only.
var exportStatus = []struct {
	err    error
	status int
}{
	{graph.ErrNotFound, http.StatusNotFound},
	{graph.ErrBadID, http.StatusBadRequest},
	{graph.ErrBadKind, http.StatusBadRequest},
	{graph.ErrBadArgument, http.StatusBadRequest},
	{context.DeadlineExceeded, http.StatusServiceUnavailable},
}

// exportStatusOf returns the HTTP status of an export's error.
func exportStatusOf(err error) int {
	for _, s := range exportStatus {
		if errors.Is(err, s.err) {
			return s.status
		}
	}
	return http.StatusInternalServerError
}

// NewExportHandler serves GET /export/{id}.{dot,svg,graphml,json}: the
// neighbourhood of the paper or entity {id} (URL-escaped; an entity as its
// id "dataset:gsm8k" or KIND:NAME with an alias) as Graphviz DOT, SVG
// drawn by Graphviz, GraphML or Cytoscape.js JSON, written by export.Write
// as the export command writes them. Query parameters:
//
//	hops=N        edges to follow, 0..4 (default 1)
//	kinds=a,b     entity kinds to follow (default all)
//	limit=N       cap on nodes (default and most: the store's, 200 and 1000)
//	cluster=1     DOT and SVG: group entities by kind
//	legend=1      DOT and SVG: add a legend
//
// An unknown id or format is a 404 and a bad parameter a 400, each with a
// plain-text message saying what was wrong.
func NewExportHandler(st export.Source) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: use GET", http.StatusMethodNotAllowed)
			return
		}
		body, ctype, err := exportFile(r, st)
		if err != nil {
			status := exportStatusOf(err)
			msg := err.Error()
			if status == http.StatusInternalServerError {
				slog.ErrorContext(r.Context(), "export", "path", r.URL.Path, "err", err)
				msg = "internal error"
			}
			http.Error(w, msg, status)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
}

// exportFile builds the file r asks for, whole, so that an error is still a
// clean error response; subgraphs are bounded by the store's node cap.
func exportFile(r *http.Request, st export.Source) (body []byte, ctype string, err error) {
	// The last segment of the escaped path, so an id with an escaped
	// slash stays one id.
	file := r.URL.EscapedPath()
	file = file[strings.LastIndexByte(file, '/')+1:]
	dot := strings.LastIndexByte(file, '.')
	if dot < 0 {
		return nil, "", fmt.Errorf("%w: /export/%s: want /export/{id}.dot, .svg, .graphml or .json", graph.ErrNotFound, file)
	}
	name, ext := file[:dot], file[dot+1:]
	format, ok := export.FormatOfExt(ext, exportFormats)
	if !ok {
		return nil, "", fmt.Errorf("%w: format %q (want dot, svg, graphml or json)", graph.ErrNotFound, ext)
	}
	id, err := url.PathUnescape(name)
	if err != nil || id == "" {
		return nil, "", fmt.Errorf("%w: %q is not an escaped paper or entity id", graph.ErrBadID, name)
	}
	sel, opts, err := parseExportQuery(r.URL.Query())
	if err != nil {
		return nil, "", err
	}
	if graph.IsPaperID(id) {
		sel.Paper = id
	} else {
		sel.Entity = id
	}
	var b bytes.Buffer
	if err := export.Write(r.Context(), &b, st, sel, format, export.Options{DOT: opts}); err != nil {
		return nil, "", err
	}
	return b.Bytes(), format.ContentType(), nil
}

// parseExportQuery reads the selection options of an export URL.
func parseExportQuery(q url.Values) (graph.Selection, export.DOTOptions, error) {
	sel := graph.Selection{Hops: graph.DefaultHops}
	var opts export.DOTOptions
	var err error
	if v := q.Get("hops"); v != "" {
		if sel.Hops, err = strconv.Atoi(v); err != nil {
			return sel, opts, fmt.Errorf("%w: hops=%q is not a number", graph.ErrBadArgument, v)
		}
	}
	if v := q.Get("limit"); v != "" {
		if sel.Limit, err = strconv.Atoi(v); err != nil {
			return sel, opts, fmt.Errorf("%w: limit=%q is not a number", graph.ErrBadArgument, v)
		}
	}
	if sel.Kinds, err = graph.ParseKinds(q.Get("kinds")); err != nil {
		return sel, opts, err
	}
	for name, dst := range map[string]*bool{"cluster": &opts.Cluster, "legend": &opts.Legend} {
		if v := q.Get(name); v != "" {
			if *dst, err = strconv.ParseBool(v); err != nil {
				return sel, opts, fmt.Errorf("%w: %s=%q is not a boolean", graph.ErrBadArgument, name, v)
			}
		}
	}
	return sel, opts, nil
}
