package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

const checkUsage = `usage: papergraph check [flags]

Verifies the database's invariants (every edge in both directions,
counters equal to what they count, no edge to a missing node, consistent
taxonomy and full-text index) and prints each violation. It exits non-zero
when there is any. While serve holds the database, --server URL asks the
server, with its write token (--write-token or $PAPERGRAPH_WRITE_TOKEN).

flags:
`

// errViolations is returned by check when the database is inconsistent.
var errViolations = errors.New("database has violations")

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	server := fs.String("server", "", "ask the papergraph server at `URL` (http://127.0.0.1:8080) instead of opening the database, which a running serve holds")
	token := fs.String("write-token", "", "the server's write `token`, which its check needs (default $PAPERGRAPH_WRITE_TOKEN)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), checkUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: check takes no arguments", errUsage)
	}
	v, st, err := checkStore(ctx, *db, *server, *token)
	if err != nil {
		return err
	}
	for _, line := range v {
		fmt.Fprintln(stdout, line)
	}
	if len(v) > 0 {
		return fmt.Errorf("%w: %d found", errViolations, len(v))
	}
	fmt.Fprintf(stdout, "ok: %d papers, %d edges\n", st.Papers, st.Edges)
	return nil
}

// checkStore returns the violations and counts of the database in db, or
// of the one the server at server holds.
func checkStore(ctx context.Context, db, server, token string) ([]string, graph.Stats, error) {
	if server != "" {
		if token == "" {
			token = os.Getenv("PAPERGRAPH_WRITE_TOKEN")
		}
		return remoteCheck(ctx, server, token)
	}
	s, err := openStore(db, store.Options{ReadOnly: true})
	if err != nil {
		return nil, graph.Stats{}, err
	}
	defer s.Close()
	v, err := s.Check(ctx)
	if err != nil || len(v) > 0 {
		return v, graph.Stats{}, err
	}
	st, err := s.Stats(ctx)
	return v, st, err
}
