package main

import (
	"context"
	"io"
)

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
