// Command papergraph builds a knowledge graph of machine-learning papers
// from their abstracts and serves it over GraphQL.
//
//	papergraph serve                  serve the graph (built from the embedded seeds when empty)
//	papergraph extract FILE...        print what the extractor finds
//	papergraph ingest --db DIR FILE...
//	papergraph stats --db DIR
//	papergraph check --db DIR
//	papergraph delete --db DIR ID...
//	papergraph merge --db DIR FROM INTO
//	papergraph alias --db DIR ENTITY ALIAS...
//	papergraph duplicates --db DIR
//	papergraph export --db DIR --format dot
//	papergraph bench --papers N
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: papergraph <command> [flags] [args]

commands:
  serve       serve the GraphQL API and playground (builds the graph from the embedded seeds when empty)
  extract     print the papers, names and entities found in abstract files
  ingest      extract files and store the result in a database
  stats       print the database's counts
  check       verify the database's invariants
  delete      delete papers and what was derived from them
  merge       merge an entity into another, for this and later ingests
  alias       add aliases to an entity, for this and later ingests
  duplicates  list entities that are likely one concept, with the reason
  export      write the graph or a subgraph as DOT, SVG, PNG, GraphML or Cytoscape JSON
  bench       measure extraction, ingest and query performance on a generated corpus
  version     print the version

Run 'papergraph help <command>' or 'papergraph <command> -h' for a
command's flags, which may come before or after its arguments;
'papergraph --version' prints the version.

exit status: 0 success (and -h, --help), 1 failure, 2 a bad command line.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	code := exitCode(err)
	if code != 0 {
		fmt.Fprintln(os.Stderr, "papergraph:", err)
	}
	os.Exit(code)
}

// exitCode is the exit status for run's error: 0 for none and for
// flag.ErrHelp, 2 for errUsage, 1 for any other.
func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		return 1
	}
}

// errUsage marks errors in the command line itself; main exits 2 for them,
// 1 for every other error, and 0 for flag.ErrHelp (-h, --help: the usage
// was asked for and printed).
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("%w: no command", errUsage)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "extract":
		return runExtract(ctx, rest, stdout, stderr)
	case "ingest":
		return runIngest(ctx, rest, stdout, stderr)
	case "stats":
		return runStats(ctx, rest, stdout, stderr)
	case "check":
		return runCheck(ctx, rest, stdout, stderr)
	case "delete":
		return runDelete(ctx, rest, stdout, stderr)
	case "merge":
		return runMerge(ctx, rest, stdout, stderr)
	case "alias":
		return runAlias(ctx, rest, stdout, stderr)
	case "duplicates":
		return runDuplicates(ctx, rest, stdout, stderr)
	case "serve":
		return runServe(ctx, rest, stdout, stderr)
	case "export":
		return runExport(ctx, rest, stdout, stderr)
	case "bench":
		return runBench(ctx, rest, stdout, stderr)
	case "version", "--version", "-version":
		return runVersion(stdout)
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 {
			fmt.Fprint(stdout, usage)
			return nil
		}
		if rest[0] == "help" || rest[0] == "version" || len(rest) > 1 {
			fmt.Fprint(stdout, usage)
			return nil
		}
		return run(ctx, []string{rest[0], "-h"}, stdin, stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}
