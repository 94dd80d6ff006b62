package main

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestUnknownFlag checks that every command reports a flag it does not
// know as a usage error (exit status 2), through parseFlags.
func TestUnknownFlag(t *testing.T) {
	for _, cmd := range []string{"extract", "ingest", "stats", "check", "serve", "export", "bench"} {
		t.Run(cmd, func(t *testing.T) {
			err := run(context.Background(), []string{cmd, "--no-such-flag"}, nil, &bytes.Buffer{}, &bytes.Buffer{})
			if !errors.Is(err, errUsage) {
				t.Errorf("%s --no-such-flag: %v; want a usage error", cmd, err)
			}
		})
	}
}
