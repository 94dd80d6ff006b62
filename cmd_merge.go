package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

const mergeUsage = `usage: papergraph merge [flags] FROM INTO

Merges the entity FROM into the entity INTO, each KIND:NAME (a name,
alias or id, as task:watermarking): FROM's papers link to INTO, its names
become INTO's aliases, and FROM is deleted. The merge is kept in the
database: papers ingested later that mention FROM link to INTO.

example:
  papergraph merge task:watermarking technique:watermarking

flags:
`

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	fs.Usage = func() { fmt.Fprint(fs.Output(), mergeUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return fmt.Errorf("%w: merge takes two entities, FROM and INTO", errUsage)
	}
	s, err := openStore(*db, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	e, err := s.MergeEntities(ctx, fs.Arg(0), fs.Arg(1))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %s into ", fs.Arg(0))
	printEntity(stdout, e)
	return nil
}

// printEntity prints an entity as merge and alias leave it: id, papers
// and aliases.
func printEntity(w io.Writer, e graph.Entity) {
	fmt.Fprintf(w, "%s: %d papers", e.ID(), e.PaperCount)
	if len(e.Aliases) > 0 {
		fmt.Fprintf(w, ", aliases %s", strings.Join(e.Aliases, ", "))
	}
	fmt.Fprintln(w)
}
