package main

import (
	"bytes"
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
// check through the GraphQL API, export of a subgraph through /export/.

// serverHint is said when a read-only command finds the database locked.
const serverHint = "is `papergraph serve` running on it? Ask it instead with --server URL " +
	"(stats, check with the write token, and export of a paper's or entity's neighbourhood: --server http://127.0.0.1:8080), or stop it"

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

// remoteExport writes to w the subgraph the server at base exports for
// sel (rooted at a paper or an entity) in format f.
func remoteExport(ctx context.Context, w io.Writer, base string, sel graph.Selection, f export.Format, opts export.DOTOptions) error {
	root := sel.Paper
	if root == "" {
		root = sel.Entity
	}
	if root == "" {
		return fmt.Errorf("%w: export --server needs --paper or --entity: the server exports neighbourhoods, not the whole graph or a search", errUsage)
	}
	q := url.Values{"hops": {strconv.Itoa(sel.Hops)}}
	var kinds []string
	for _, k := range sel.Kinds {
		kinds = append(kinds, k.String())
	}
	if len(kinds) > 0 {
		q.Set("kinds", strings.Join(kinds, ","))
	}
	if sel.Limit > 0 {
		q.Set("limit", strconv.Itoa(sel.Limit))
	}
	if opts.Cluster {
		q.Set("cluster", "1")
	}
	if opts.Legend {
		q.Set("legend", "1")
	}
	u := strings.TrimSuffix(base, "/") + "/export/" + url.PathEscape(root) + "." + f.Ext() + "?" + q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("--server: %w", err)
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
	_, err = io.Copy(w, resp.Body)
	return err
}
