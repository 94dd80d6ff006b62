package main

import (
	"context"
	"io"
)

// STUB: replaced by the helper that owns this command.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errUsage
}
