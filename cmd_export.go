package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

const exportUsage = `usage: papergraph export [flags]

Writes the graph, or the neighbourhood of a paper, an entity or the hits
of a search, as Graphviz DOT, SVG or PNG (drawn in-process, no Graphviz
needed), GraphML (Gephi, yEd, networkx) or Cytoscape.js elements JSON.
Output is deterministic: node ids are the graph's ids, in sorted order.

Without --paper, --entity or --search the whole graph is written as a
stream in bounded memory (dot, graphml, cytoscape); svg and png draw at
most %d nodes. Prefer svg: png comes from go-graphviz's rasteriser, which
draws no node outlines (or run Graphviz's dot -Tpng on the dot output).

While serve holds the database, --server URL asks it: for a neighbourhood,
or with its write token for the whole graph. Beside a serve --read-only,
export opens the database itself, in any format (neo4j included).

examples:
  papergraph export --entity dataset:gsm8k --hops 2 --format svg --legend -o gsm8k.svg
  papergraph export --format graphml -o graph.graphml
  papergraph export --format rdf -o graph.rdf.gz   # and graph.schema, for dgraph bulk
  papergraph export --server http://127.0.0.1:8080 --write-token "$TOKEN" --format graphml -o graph.graphml

flags:
`

// renderLimit is the most nodes svg and png draw: export.MaxRenderNodes,
// a variable so that tests can reach it with the small seed graph.
var renderLimit = export.MaxRenderNodes

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	format := fs.String("format", "dot", "output `FORMAT`: dot, svg, png, graphml, cytoscape, neo4j (CSV files for neo4j-admin database import, into the directory -o DIR or DIR) or rdf (gzipped N-Quads of the whole graph and, beside -o, its DQL schema, for dgraph bulk)")
	var sel graph.Selection
	fs.StringVar(&sel.Paper, "paper", "", "start from the paper `ID`")
	fs.StringVar(&sel.Entity, "entity", "", "start from the entity `KIND:NAME` (a name, alias or id, as dataset:gsm8k)")
	fs.StringVar(&sel.Search, "search", "", "start from the best hits of the full-text query `TEXT`")
	fs.IntVar(&sel.Hops, "hops", graph.DefaultHops, fmt.Sprintf("follow `N` edges from the start, 0..%d", graph.MaxHops))
	kinds := fs.String("kinds", "", "keep only entities of these `KINDS` (comma-separated: task,modality,dataset,technique)")
	fs.IntVar(&sel.Limit, "limit", 0, "cap the subgraph at `N` nodes (default and most: 200 and 1000 per start node)")
	var opts export.DOTOptions
	fs.BoolVar(&opts.Cluster, "cluster", false, "dot, svg, png: group entities by kind in clusters")
	fs.BoolVar(&opts.Legend, "legend", false, "dot, svg, png: add a legend (nodes with ids starting \""+export.LegendPrefix+"\")")
	out := fs.String("o", "", "write to `FILE` instead of standard output")
	server := fs.String("server", "", "ask the papergraph server at `URL` (http://127.0.0.1:8080) instead of opening the database, which a running serve holds: for the neighbourhood of --paper or --entity, or, with its write token, the whole graph (dot, graphml, cytoscape, rdf)")
	token := fs.String("write-token", "", "the server's write `token`, which a whole-graph export through --server needs (default $PAPERGRAPH_WRITE_TOKEN)")
	fs.Usage = func() { fmt.Fprintf(fs.Output(), exportUsage, renderLimit); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if *format == "neo4j" {
		if *server != "" {
			return fmt.Errorf("%w: export --format neo4j writes a directory from the database and does not go through --server: stop serve, or run it with --read-only, beside which read-only commands open the database", errUsage)
		}
		return exportNeo4j(ctx, fs, *db, *out, sel, *kinds)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: export takes no arguments (did you mean --paper, --entity or --search?)", errUsage)
	}
	f, err := export.ParseFormat(*format)
	if err != nil {
		return fmt.Errorf("%w: export: --%w", errUsage, err)
	}
	if sel.Kinds, err = graph.ParseKinds(*kinds); err != nil {
		return fmt.Errorf("%w: export: --%w", errUsage, err)
	}

	if f == export.RDF {
		if *out == "" {
			return fmt.Errorf("%w: export: --format rdf needs -o FILE.rdf.gz (the DQL schema goes beside it)", errUsage)
		}
		if err := writeOutput(export.RDFSchemaPath(*out), stdout, export.WriteRDFSchema); err != nil {
			return err
		}
	}
	if *server != "" {
		return writeOutput(*out, stdout, func(w io.Writer) error {
			return remoteExport(ctx, w, *server, cmp.Or(*token, os.Getenv("PAPERGRAPH_WRITE_TOKEN")), sel, f, opts)
		})
	}
	st, err := openStore(*db, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	return writeOutput(*out, stdout, func(w io.Writer) error {
		return export.Write(ctx, w, st, sel, f, export.Options{DOT: opts, MaxRender: renderLimit})
	})
}

// writeOutput calls write with standard output, or, when name is set,
// with a temporary file beside name that replaces name only once write
// succeeded, so a failed export never leaves a truncated file.
func writeOutput(name string, stdout io.Writer, write func(io.Writer) error) (err error) {
	if name == "" {
		return write(stdout)
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// exportNeo4j writes the neo4j-admin import files into the directory
// given as -o or as the one argument.
func exportNeo4j(ctx context.Context, fs *flag.FlagSet, db, dir string, sel graph.Selection, kinds string) error {
	if dir == "" && fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if dir == "" || fs.NArg() > 1 || fs.NArg() == 1 && fs.Arg(0) != dir {
		fs.Usage()
		return fmt.Errorf("%w: export --format neo4j takes one directory, as -o DIR or DIR", errUsage)
	}
	var err error
	if sel.Kinds, err = graph.ParseKinds(kinds); err != nil {
		return fmt.Errorf("%w: export: --%w", errUsage, err)
	}
	st, err := openStore(db, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	return export.WriteNeo4j(ctx, dir, st, sel)
}
