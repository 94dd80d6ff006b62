package server

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/papergraph/papergraph/graph"
)

// playgroundFiles is GraphiQL and the React it runs on, as npm ships them
// (.ci/playground-assets.sh fetches the pinned versions), with their
// licences, the page and the script that starts it: the playground needs
// no network, so it works the same online and offline.
//
//go:embed playground
var playgroundFiles embed.FS

var playgroundPage = template.Must(template.ParseFS(playgroundFiles, "playground/index.html"))

// playground serves GraphiQL at /, prefilled with an example query that has
// answers on the graph being served.
func (s *Server) playground() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if err := playgroundPage.Execute(w, s.examples.query(r.Context(), s.cfg.Store)); err != nil {
			s.log.ErrorContext(r.Context(), "playground page", "err", err)
		}
	})
}

// playgroundAssets serves the playground's scripts and styles under
// /playground/: the embedded ones, except that a file of dir, when dir is
// not empty (Options.PlaygroundAssets), replaces the embedded file of its
// name, to try another GraphiQL build without rebuilding the binary.
func playgroundAssets(dir string) http.Handler {
	embedded, _ := fs.Sub(playgroundFiles, "playground")
	fromEmbed := http.FileServerFS(embedded)
	var fromDir http.Handler
	if dir != "" {
		fromDir = http.FileServer(http.Dir(dir))
	}
	return http.StripPrefix("/playground/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The files change only with the binary; a day is short enough
		// for an upgrade to show the next day at the latest.
		w.Header().Set("Cache-Control", "public, max-age=86400")
		if fromDir != nil {
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))); err == nil && fi.Mode().IsRegular() {
				w.Header().Set("Cache-Control", "no-cache")
				fromDir.ServeHTTP(w, r)
				return
			}
		}
		fromEmbed.ServeHTTP(w, r)
	}))
}

// exampleKinds are the kinds tried, in order, for the example query's
// papersSharing: datasets make the most telling example, but a small graph
// (the seeds) may have no dataset shared by two papers.
var exampleKinds = []graph.Kind{graph.Dataset, graph.Technique, graph.Task, graph.Modality}

// Bounds of the search for an example paper: the top exampleEntities
// entities of each kind, their first examplePapers papers. At most 60
// Sharing calls, made once per store generation.
const (
	exampleEntities = 5
	examplePapers   = 3
)

// exampleCache holds the example query of one store generation: finding
// it costs up to a few dozen store reads, and the page is loaded far more
// often than the graph changes.
type exampleCache struct {
	mu    sync.Mutex
	gen   uint64
	valid bool
	text  string
}

// query returns the example query for st, computing it when st was
// written since the last call.
func (c *exampleCache) query(ctx context.Context, st Store) string {
	gen := st.Generation()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid && c.gen == gen {
		return c.text
	}
	text, err := exampleQuery(ctx, st)
	if err != nil {
		// The page still works: the example only says how to start.
		return emptyExample
	}
	// An odd generation is a write in progress: the answer may be of
	// either state, so it is not kept.
	if gen%2 == 0 && st.Generation() == gen {
		c.gen, c.valid, c.text = gen, true, text
	}
	return text
}

const emptyExample = "# The graph is empty: add papers with `papergraph ingest`.\n{\n  stats {\n    papers\n    entities\n    edges\n  }\n}\n"

// exampleQuery returns a papersSharing query on a paper that shares an
// entity of one of exampleKinds with another paper, so that it has
// answers; when no paper does, a stats query.
func exampleQuery(ctx context.Context, st Store) (string, error) {
	for _, k := range exampleKinds {
		top, err := st.ListEntities(ctx, graph.EntityQuery{Kind: k, Order: graph.ByDegree, First: exampleEntities})
		if err != nil {
			return "", err
		}
		for _, e := range top.Entities {
			if e.PaperCount < 2 {
				break // sorted by paper count: no later one is shared
			}
			page, err := st.PapersOf(ctx, graph.PageOf{Entity: e.ID(), First: examplePapers})
			if err != nil {
				return "", err
			}
			for _, p := range page.Papers {
				m, err := st.Sharing(ctx, p.ID, graph.SharingQuery{Kinds: []graph.Kind{k}, Limit: 1})
				if err != nil {
					return "", err
				}
				if len(m) > 0 {
					return sharingExample(p, k), nil
				}
			}
		}
	}
	return emptyExample, nil
}

// sharingExample is the example query on paper p and kind k.
func sharingExample(p graph.Paper, k graph.Kind) string {
	label := strings.Join(strings.Fields(p.Label), " ")
	return fmt.Sprintf(`# The papers sharing %[4]s with %[1]q
# (directly or through the taxonomy), best first.
# Run it with the ▶ button or Ctrl-Enter.
query PapersSharing {
  paper(id: %[2]q) {
    label
    %[5]s {
      name
    }
  }
  papersSharing(paper: %[2]q, kinds: [%[3]s], family: true, first: 5) {
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
`, label, p.ID, strings.ToUpper(k.String()), k.Plural(), k.Plural())
}
