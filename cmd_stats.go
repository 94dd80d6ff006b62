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
	fs.Usage = func() { fmt.Fprint(stderr, statsUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: stats takes no arguments", errUsage)
	}
	s, err := openStore(*db, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := s.Stats(ctx)
	if err != nil {
		return err
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
