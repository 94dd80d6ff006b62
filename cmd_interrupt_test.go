package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/papergraph/papergraph/extract"
)

// endlessFIFO returns a named pipe fed with head and then blank lines
// without end, until the test ends: the input of
// `(printf 'H\n'; yes "") | papergraph extract /dev/stdin`.
func endlessFIFO(t *testing.T, head string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "endless")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		io.WriteString(f, head)
		blank := bytes.Repeat([]byte("\n"), 64<<10)
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := f.Write(blank); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(done)
		// Unblock a writer still waiting for a reader to open the pipe.
		if f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		<-fed
	})
	return name
}

// endless is endlessFIFO after one short record.
func endless(t *testing.T) string {
	return endlessFIFO(t, "Header\n\nAn abstract about image classification on ImageNet.\n")
}

// slowText returns a text of nearly n bytes that the extractor works
// through slowly: a list of dataset names with no end, whose passes
// spread one name a time (7.5 s for 1 MiB here). A text of one name
// written over and over, used before, became fast (0.8 s) once mentions
// were indexed, and the interrupts below then came after the end.
func slowText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n-40; i++ {
		fmt.Fprintf(&b, "We evaluate on Bench%dX and MMLU-%d. ", i, i)
	}
	return b.String()
}

// longAbstract returns a seed-format file holding one slowText abstract
// of nearly extract.MaxRecord bytes.
func longAbstract(t *testing.T) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "long.txt")
	text := "Header\n\n" + slowText(extract.MaxRecord-100) + "\n"
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestInterruptEndlessInput interrupts extract and ingest while they read
// blank lines without end, and while they extract one long abstract, and
// checks that they stop (the reader within 64 KiB, the extractor within a
// step: 1-54 ms and 0.1-1.3 s here, logged) and that the database ingest
// leaves opens for every command. The bound it fails on is ten times the
// 1 s promised, so that a loaded machine does not fail it; a reader or
// extractor that ignores the interrupt runs for minutes.
func TestInterruptEndlessInput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	tests := []struct {
		name  string
		input func(t *testing.T) string
		args  func(input string) []string
		// wait is how long the command runs before the interrupt: for
		// the long abstract, long enough to have read it on a loaded
		// machine, so that the interrupt comes while it is extracted.
		wait time.Duration
	}{
		{"extract", endless, func(in string) []string { return []string{"extract", in} }, 500 * time.Millisecond},
		{"ingest", endless, func(in string) []string { return []string{"ingest", "--db", db, in} }, 500 * time.Millisecond},
		{"extract of a long abstract", longAbstract, func(in string) []string { return []string{"extract", in} }, 2 * time.Second},
		{"ingest of a long abstract", longAbstract, func(in string) []string { return []string{"ingest", "--db", db, in} }, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.input(t)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			var stdout, stderr bytes.Buffer
			go func() { done <- run(ctx, tt.args(in), strings.NewReader(""), &stdout, &stderr) }()
			time.Sleep(tt.wait)
			cancel()
			interrupted := time.Now()
			select {
			case err := <-done:
				t.Logf("returned %v after the interrupt: %v", time.Since(interrupted).Round(time.Millisecond), err)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("error %v; want one wrapping context.Canceled", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still working 10 s after the interrupt", tt.name)
			}
		})
	}
	for _, cmd := range []string{"check", "stats"} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), []string{cmd, "--db", db}, strings.NewReader(""), &stdout, &stderr); err != nil {
			t.Errorf("%s after the interrupted ingest: %v\n%s", cmd, err, stderr.String())
		}
	}
}
