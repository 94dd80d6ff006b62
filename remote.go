package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
)

// Read-only commands on a database that `serve` holds (Badger lets one
// process open it) ask the server instead, with --server URL: stats and
// check through the GraphQL API, export of a neighbourhood through
// /export/ and of the whole graph through /graph.EXT.

// serverHint is said when a read-only command finds the database locked.
const serverHint = "is `papergraph serve` running on it? Ask it instead with --server URL " +
	"(stats and neighbourhood exports; with the write token, check and whole-graph exports: --server http://127.0.0.1:8080), " +
	"or stop it; a serve --read-only lets read-only commands open the database beside it"

// remoteStats asks the server at base for the counts stats prints.
func remoteStats(ctx context.Context, base string) (graph.Stats, error) {
	var data struct {
		Stats struct {
			Papers, Edges  int
			EntitiesByKind []struct {
				Kind  string
				Count int
			}
		}
	}
	if err := remoteQuery(ctx, base, "", "{ stats { papers edges entitiesByKind { kind count } } }", &data); err != nil {
		return graph.Stats{}, err
	}
	st := graph.Stats{Papers: data.Stats.Papers, Edges: data.Stats.Edges, Entities: map[graph.Kind]int{}}
	for _, kc := range data.Stats.EntitiesByKind {
		k, err := graph.ParseKind(kc.Kind)
		if err != nil {
			return graph.Stats{}, fmt.Errorf("--server %s: %w", base, err)
		}
		st.Entities[k] = kc.Count
	}
	return st, nil
}

// remoteCheck asks the server at base for the violations check prints
// and for its counts; the check query needs the server's write token.
func remoteCheck(ctx context.Context, base, token string) ([]string, graph.Stats, error) {
	var data struct {
		Check []string
		Stats struct{ Papers, Edges int }
	}
	if err := remoteQuery(ctx, base, token, "{ check stats { papers edges } }", &data); err != nil {
		return nil, graph.Stats{}, err
	}
	return data.Check, graph.Stats{Papers: data.Stats.Papers, Edges: data.Stats.Edges}, nil
}

// remoteQuery posts query to the GraphQL endpoint of the server at base,
// with token as its bearer token when not empty, and decodes the
// response's data into data; the first error of the response is the
// error.
func remoteQuery(ctx context.Context, base, token, query string, data any) error {
	body, _ := json.Marshal(map[string]string{"query": query})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(base, "/")+"/query", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("--server: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("--server: %w", err)
	}
	defer resp.Body.Close()
	out := struct {
		Data   any
		Errors []struct{ Message string }
	}{Data: data}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return fmt.Errorf("--server %s: %s: %w", base, resp.Status, err)
	}
	if len(out.Errors) > 0 {
		return fmt.Errorf("--server %s: %s", base, out.Errors[0].Message)
	}
	return nil
}

// remoteExport writes to w what the server at base exports for sel in
// format f: the neighbourhood of a paper or an entity through /export/,
// or the whole graph through /graph.EXT, which needs the server's write
// token.
func remoteExport(ctx context.Context, w io.Writer, base, token string, sel graph.Selection, f export.Format, opts export.DOTOptions) error {
	if sel.Search != "" {
		return fmt.Errorf("%w: export --server exports a paper's or an entity's neighbourhood (--paper, --entity) or the whole graph, not a search", errUsage)
	}
	q := url.Values{}
	var kinds []string
	for _, k := range sel.Kinds {
		kinds = append(kinds, k.String())
	}
	if len(kinds) > 0 {
		q.Set("kinds", strings.Join(kinds, ","))
	}
	path := "/graph." + f.Ext()
	if root := cmp.Or(sel.Paper, sel.Entity); root != "" {
		path = "/export/" + url.PathEscape(root) + "." + f.Ext()
		q.Set("hops", strconv.Itoa(sel.Hops))
		if sel.Limit > 0 {
			q.Set("limit", strconv.Itoa(sel.Limit))
		}
		if opts.Cluster {
			q.Set("cluster", "1")
		}
		if opts.Legend {
			q.Set("legend", "1")
		}
		token = "" // neighbourhoods are public
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+path+"?"+q.Encode(), nil)
	if err != nil {
		return fmt.Errorf("--server: %w", err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("--server: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("--server %s: %s: %s", base, resp.Status, strings.TrimSpace(string(msg)))
	}
	// A transfer the server cut off (an export failing midway) ends in
	// an error here, so writeOutput keeps no partial file.
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("--server %s: %s cut off: %w", base, path, err)
	}
	return nil
}
