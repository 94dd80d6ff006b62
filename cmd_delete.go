package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/papergraph/papergraph/graph/store"
)

const deleteUsage = `usage: papergraph delete [flags] ID...

Deletes the papers with these ids and what was derived from them: their
edges, postings and counts, and the entities left with no paper. It
deletes nothing when an id is not stored. Run it while no server has the
database open.

flags:
`

func runDelete(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("delete", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	fs.Usage = func() { fmt.Fprint(fs.Output(), deleteUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("%w: delete needs paper ids", errUsage)
	}
	s, err := openStore(*db, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	n, err := s.DeletePapers(ctx, fs.Args())
	if err != nil {
		return err
	}
	st, err := s.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "deleted %d papers; database: %d papers, %d edges\n", n, st.Papers, st.Edges)
	return nil
}
