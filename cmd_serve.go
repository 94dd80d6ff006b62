package main

import (
	"context"
	"io"
)

// STUB: replaced by the helper that owns this command.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errUsage
}
