package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

const statsUsage = `usage: papergraph stats [flags]

Prints the database's counts of papers, entities per kind and edges.

flags:
`

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	asJSON := fs.Bool("json", false, `print {"papers": N, "entities": {"task": N, ...}, "edges": N}`)
	server := fs.String("server", "", "ask the papergraph server at `URL` (http://127.0.0.1:8080) instead of opening the database, which a running serve holds")
	fs.Usage = func() { fmt.Fprint(fs.Output(), statsUsage); fs.PrintDefaults() }
	err := parseFlags(fs, args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: stats takes no arguments", errUsage)
	}
	var st graph.Stats
	if *server != "" {
		if st, err = remoteStats(ctx, *server); err != nil {
			return err
		}
	} else {
		s, err := openStore(*db, store.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer s.Close()
		if st, err = s.Stats(ctx); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(st)
	}
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "papers\t%d\t\n", st.Papers)
	for _, k := range graph.Kinds {
		fmt.Fprintf(tw, "%s\t%d\t\n", k.Plural(), st.Entities[k])
	}
	fmt.Fprintf(tw, "edges\t%d\t\n", st.Edges)
	return tw.Flush()
}
