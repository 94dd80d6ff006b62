package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/papergraph/papergraph/graph"
)

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
func openStore(dir string, opts graph.Options) (*graph.Store, error) {
	if dir == "" {
		dir = defaultDB()
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	return graph.Open(dir, opts)
}

// STUB: replaced by the helper that owns this command.
func runIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errUsage
}

// STUB: replaced by the helper that owns this command.
func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errUsage
}

// STUB: replaced by the helper that owns this command.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errUsage
}
