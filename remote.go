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
// process open it) ask the server instead, with --server URL: stats
// through the GraphQL API, export of a subgraph through /export/.

// serverHint is said when a read-only command finds the database locked.
const serverHint = "is `papergraph serve` running on it? Ask it instead with --server URL " +
	"(stats, and export of a paper's or entity's neighbourhood: --server http://127.0.0.1:8080), or stop it"

// remoteStats asks the server at base for the counts stats prints.
func remoteStats(ctx context.Context, base string) (graph.Stats, error) {
	body, _ := json.Marshal(map[string]string{"query": "{ stats { papers edges entitiesByKind { kind count } } }"})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(base, "/")+"/query", bytes.NewReader(body))
	if err != nil {
		return graph.Stats{}, fmt.Errorf("--server: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return graph.Stats{}, fmt.Errorf("--server: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Stats struct {
				Papers, Edges  int
				EntitiesByKind []struct {
					Kind  string
					Count int
				}
			}
		}
		Errors []struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return graph.Stats{}, fmt.Errorf("--server %s: %s: %w", base, resp.Status, err)
	}
	if len(out.Errors) > 0 {
		return graph.Stats{}, fmt.Errorf("--server %s: %s", base, out.Errors[0].Message)
	}
	st := graph.Stats{Papers: out.Data.Stats.Papers, Edges: out.Data.Stats.Edges, Entities: map[graph.Kind]int{}}
	for _, kc := range out.Data.Stats.EntitiesByKind {
		k, err := graph.ParseKind(kc.Kind)
		if err != nil {
			return graph.Stats{}, fmt.Errorf("--server %s: %w", base, err)
		}
		st.Entities[k] = kc.Count
	}
	return st, nil
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
