package server

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/99designs/gqlgen/graphql/playground"

	"github.com/papergraph/papergraph/graph"
)

// playground serves GraphiQL at /, prefilled with an example query on the
// graph being served. Its scripts come from gqlgen's CDN, or from
// /playground-assets/ when Options.PlaygroundAssets is set, for machines
// without internet access.
func (s *Server) playground() http.Handler {
	if s.cfg.PlaygroundAssets != "" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			if err := localPlayground.Execute(w, s.exampleQuery(r.Context())); err != nil {
				s.log.ErrorContext(r.Context(), "playground page", "err", err)
			}
		})
	}
	// gqlgen's page takes its initial query from the URL, so / redirects
	// to itself with the example in ?query=.
	cdn := playground.Handler("papergraph", "/query", playground.WithGraphiqlPersistStateInURL(true))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("query") {
			cdn(w, r)
			return
		}
		q := url.Values{"query": {s.exampleQuery(r.Context())}}
		http.Redirect(w, r, "/?"+q.Encode(), http.StatusFound)
	})
}

// exampleQuery returns a papersSharing query on a paper that shares the
// graph's most common dataset, so that it has answers; on an empty graph,
// a stats query.
func (s *Server) exampleQuery(ctx context.Context) string {
	top, err := s.cfg.Store.ListEntities(ctx, graph.EntityQuery{Kind: graph.Dataset, Order: graph.ByDegree, First: 1})
	if err != nil || len(top.Entities) == 0 {
		return "# The graph is empty: add papers with `papergraph ingest`.\n{\n  stats {\n    papers\n    entities\n    edges\n  }\n}\n"
	}
	page, err := s.cfg.Store.PapersOf(ctx, graph.PageOf{Entity: top.Entities[0].ID(), First: 1})
	if err != nil || len(page.Papers) == 0 {
		return "{\n  stats {\n    papers\n    entities\n    edges\n  }\n}\n"
	}
	p := page.Papers[0]
	label := strings.Join(strings.Fields(p.Label), " ")
	return fmt.Sprintf(`# The papers sharing datasets with %q
# (directly or through the taxonomy), best first.
# Run it with the ▶ button or Ctrl-Enter.
query PapersSharingDatasets {
  paper(id: %q) {
    label
    datasets {
      name
    }
  }
  papersSharing(paper: %q, kinds: [DATASET], family: true, first: 5) {
    score
    paper {
      id
      label
    }
    shared {
      id
      name
    }
  }
}
`, label, p.ID, p.ID)
}

// localPlayground is GraphiQL 3 loaded from /playground-assets/, the files
// that .ci/playground-assets.sh installs from npm.
var localPlayground = template.Must(template.New("playground").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>papergraph</title>
<style>
body { margin: 0; }
#graphiql { height: 100vh; }
</style>
<link rel="stylesheet" href="/playground-assets/graphiql.min.css">
<script src="/playground-assets/react.production.min.js"></script>
<script src="/playground-assets/react-dom.production.min.js"></script>
<script src="/playground-assets/graphiql.min.js"></script>
</head>
<body>
<div id="graphiql">Loading…</div>
<script>
const example = {{.}};
const query = new URLSearchParams(location.search).get("query");
const fetcher = GraphiQL.createFetcher({ url: location.origin + "/query" });
ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher: fetcher,
    query: query || example,
    defaultQuery: example,
    isHeadersEditorEnabled: true,
  }),
);
</script>
</body>
</html>
`))
