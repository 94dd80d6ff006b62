package server

import (
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

func TestExploreServed(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	tests := []struct {
		path   string
		status int
		ctype  string
		body   string // in the body
	}{
		{"/explore", 200, "text/html", `<script type="module" src="/explore/app.js">`},
		{"/explore/", 200, "text/html", `<main id="app">`},
		{"/explore/app.js", 200, "text/javascript", `from "./api.js"`},
		{"/explore/api.js", 200, "text/javascript", `fetch("/query"`},
		{"/explore/queries.js", 200, "text/javascript", "query Paper("},
		{"/explore/style.css", 200, "text/css", "--dataset"},
		{"/explore/nothing.js", 404, "", ""},
	}
	for _, tt := range tests {
		status, ctype, body := get(t, ts.Server, tt.path)
		if status != tt.status || !strings.HasPrefix(ctype, tt.ctype) || !strings.Contains(string(body), tt.body) {
			t.Errorf("GET %s = %d %q; want %d %q with %q", tt.path, status, ctype, tt.status, tt.ctype, tt.body)
		}
	}
}

// TestExploreOffline checks that the explorer loads nothing from another
// host: every URL in its files is the server's own, or the SVG namespace.
func TestExploreOffline(t *testing.T) {
	url := regexp.MustCompile(`(?i)(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s"'` + "`" + `)]*`)
	fs.WalkDir(exploreFiles, "explore", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(exploreFiles, path)
		for _, u := range url.FindAllString(string(b), -1) {
			if u != "http://www.w3.org/2000/svg" {
				t.Errorf("%s refers to %s: the explorer must need only its server", path, u)
			}
		}
		return nil
	})
}

// TestExploreQueries runs the explorer's queries (explore/queries.js)
// against the schema, so that a schema change cannot break the app
// unnoticed.
func TestExploreQueries(t *testing.T) {
	src, err := fs.ReadFile(exploreFiles, "explore/queries.js")
	if err != nil {
		t.Fatal(err)
	}
	queries := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)export const ([A-Z]+) = `(.*?)`;").FindAllStringSubmatch(string(src), -1) {
		queries[m[1]] = m[2]
	}
	vars := map[string]map[string]any{
		"SEARCH": {"q": "zebra"},
		"PAPER":  {"id": fxID(1)},
		"ENTITY": {"id": "dataset:rare"},
		"NODE":   {"id": fxID(1)},
	}
	if len(queries) != len(vars) {
		t.Fatalf("queries.js has queries %v; want those of %v", queries, vars)
	}
	ts := newTestServer(t, 0, Options{})
	for name, q := range queries {
		r := ts.post(t, q, vars[name])
		if len(r.Errors) > 0 || r.Status != http.StatusOK || len(r.Data) < 10 {
			t.Errorf("%s: %d %s %+v", name, r.Status, r.Data, r.Errors)
		}
	}
}
