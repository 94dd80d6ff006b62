package server

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// exportTypes maps the extensions of /export/ to their Content-Type.
var exportTypes = map[string]string{
	"dot":     "text/vnd.graphviz; charset=utf-8",
	"svg":     "image/svg+xml",
	"graphml": "application/graphml+xml; charset=utf-8",
	"json":    "application/json",
}

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
}

// NewExportHandler serves GET /export/{id}.{dot,svg,graphml,json}: the
// neighbourhood of the paper or entity {id} (URL-escaped; an entity as its
// id "dataset:gsm8k" or KIND:NAME with an alias) as Graphviz DOT, SVG
// drawn by Render, GraphML or Cytoscape.js JSON, built like the export
// command's. Query parameters:
//
//	hops=N        edges to follow, 0..4 (default 1)
//	kinds=a,b     entity kinds to follow (default all)
//	limit=N       cap on nodes (default and most: the store's, 200 and 1000)
//	cluster=1     DOT and SVG: group entities by kind
//	legend=1      DOT and SVG: add a legend
//
// An unknown id or format is a 404 and a bad parameter a 400, each with a
// plain-text message saying what was wrong.
func NewExportHandler(st *store.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: use GET", http.StatusMethodNotAllowed)
			return
		}
		body, ctype, err := export(r, st)
		if err != nil {
			status := http.StatusInternalServerError
			for _, s := range exportStatus {
				if errors.Is(err, s.err) {
					status = s.status
					break
				}
			}
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

// export builds the file r asks for, whole, so that an error is still a
// clean error response; subgraphs are bounded by the store's node cap.
func export(r *http.Request, st *store.Store) (body []byte, ctype string, err error) {
	// The last segment of the escaped path, so an id with an escaped
	// slash stays one id.
	file := r.URL.EscapedPath()
	file = file[strings.LastIndexByte(file, '/')+1:]
	dot := strings.LastIndexByte(file, '.')
	if dot < 0 {
		return nil, "", fmt.Errorf("%w: /export/%s: want /export/{id}.dot, .svg, .graphml or .json", graph.ErrNotFound, file)
	}
	name, ext := file[:dot], file[dot+1:]
	ctype, ok := exportTypes[ext]
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
	g, err := st.Select(r.Context(), sel)
	if err != nil {
		return nil, "", err
	}
	var b bytes.Buffer
	switch ext {
	case "dot":
		err = graph.WriteDOT(&b, g, opts)
	case "svg":
		if len(g.Nodes) > MaxRenderNodes {
			return nil, "", fmt.Errorf("%w: %d nodes are too many to draw (at most %d): lower hops or limit, or fetch .dot", graph.ErrBadArgument, len(g.Nodes), MaxRenderNodes)
		}
		var d bytes.Buffer
		if err = graph.WriteDOT(&d, g, opts); err == nil {
			err = Render(r.Context(), &b, d.Bytes(), "svg")
		}
	case "graphml":
		err = graph.WriteGraphML(&b, g)
	case "json":
		err = graph.WriteCytoscape(&b, g)
	}
	if err != nil {
		return nil, "", err
	}
	return b.Bytes(), ctype, nil
}

// parseExportQuery reads the selection options of an export URL.
func parseExportQuery(q url.Values) (graph.Selection, graph.DOTOptions, error) {
	sel := graph.Selection{Hops: graph.DefaultHops}
	var opts graph.DOTOptions
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
