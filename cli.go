package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph"
	"github.com/papergraph/papergraph/graph/store"
	"github.com/papergraph/papergraph/server"
)

// Helpers that more than one command uses: the database location, flag
// parsing with exit status 2 for bad flags, repeatable string flags.

// defaultDB returns the database directory used when --db is omitted:
// $PAPERGRAPH_DB when set, else papergraph/db under the user's cache
// directory (for example ~/.cache/papergraph/db).
func defaultDB() string {
	if dir := os.Getenv("PAPERGRAPH_DB"); dir != "" {
		return dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		// No home directory (a bare container): fall back to a directory
		// that always exists rather than fail every command.
		cache = os.TempDir()
	}
	return filepath.Join(cache, "papergraph", "db")
}

// openStore opens the database in dir (defaultDB when dir is empty),
// creating the directory unless opts.ReadOnly. Every command that reads or
// writes a database opens it here, so they agree on the default location.
func openStore(dir string, opts store.Options) (*store.Store, error) {
	if dir == "" {
		dir = defaultDB()
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	st, err := store.Open(dir, opts)
	if opts.ReadOnly && errors.Is(err, graph.ErrLocked) {
		return nil, fmt.Errorf("%w; %s", err, serverHint)
	}
	return st, err
}

// backend is the graph a command serves or fills: the Badger database of
// a directory, or a Dgraph cluster.
type backend interface {
	server.Store
	Close() error
}

// openBackend opens the Dgraph cluster at dgraphAddr (HOST:9080, several
// comma-separated) when it is not empty, else the Badger database dir.
func openBackend(ctx context.Context, dir, dgraphAddr string, opts store.Options) (backend, error) {
	if dgraphAddr != "" {
		return dgraph.Open(ctx, dgraphAddr, dgraph.Options{})
	}
	return openStore(dir, opts)
}

// dgraphUsage is the help of the --dgraph flag.
const dgraphUsage = "use the Dgraph cluster whose alpha listens at `HOST:9080` (several comma-separated) instead of a Badger database"

// parseFlags parses args with fs, marking errors in the command line
// with errUsage (exit status 2). Flags may follow the arguments, as in
// `ingest FILE --db DIR`, up to a "--", after which everything is an
// argument; fs.Args() returns the arguments in order. On -h or --help
// the command's usage goes to stdout and the error is flag.ErrHelp, which
// main exits 0 for.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	out := fs.Output()
	var msg bytes.Buffer // what fs prints: usage, after an error message or not
	fs.SetOutput(&msg)
	defer fs.SetOutput(out)
	var positional []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			stdout.Write(msg.Bytes())
			return err
		}
		if err != nil {
			out.Write(msg.Bytes())
			return fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parse once more so that fs.Args() is the arguments gathered.
	return fs.Parse(append([]string{"--"}, positional...))
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// checkEmptyDir refuses to benchmark into a directory that holds anything:
// the ingest figures are for a fresh database, and --db must never be
// pointed at a real one by mistake.
func checkEmptyDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(ents) > 0 {
		return fmt.Errorf("%w: --db %s is not empty; bench needs a fresh database", errUsage, dir)
	}
	return nil
}
