package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/papergraph/papergraph/graph/store"
)

const checkUsage = `usage: papergraph check [flags]

Verifies the database's invariants (every edge in both directions,
counters equal to what they count, no edge to a missing node, consistent
taxonomy and full-text index) and prints each violation. It exits non-zero
when there is any.

flags:
`

// errViolations is returned by check when the database is inconsistent.
var errViolations = errors.New("database has violations")

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	fs.Usage = func() { fmt.Fprint(fs.Output(), checkUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: check takes no arguments", errUsage)
	}
	s, err := openStore(*db, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	v, err := s.Check(ctx)
	if err != nil {
		return err
	}
	for _, line := range v {
		fmt.Fprintln(stdout, line)
	}
	if len(v) > 0 {
		return fmt.Errorf("%w: %d found", errViolations, len(v))
	}
	st, err := s.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ok: %d papers, %d edges\n", st.Papers, st.Edges)
	return nil
}
