package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestInterruptEndlessInput interrupts extract and ingest while they read
// blank lines without end, and checks that they stop within a second (a
// generous bound: the reader stops within 64 KiB) and that the database
// ingest leaves opens for every command.
func TestInterruptEndlessInput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	tests := []struct {
		name string
		args func(input string) []string
	}{
		{"extract", func(in string) []string { return []string{"extract", in} }},
		{"ingest", func(in string) []string { return []string{"ingest", "--db", db, in} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := endlessFIFO(t, "Header\n\nAn abstract about image classification on ImageNet.\n")
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			var stdout, stderr bytes.Buffer
			go func() { done <- run(ctx, tt.args(in), strings.NewReader(""), &stdout, &stderr) }()
			time.Sleep(500 * time.Millisecond)
			cancel()
			interrupted := time.Now()
			select {
			case err := <-done:
				t.Logf("returned %v after the interrupt: %v", time.Since(interrupted).Round(time.Millisecond), err)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("error %v; want one wrapping context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s still reading 5 s after the interrupt", tt.name)
			}
			if d := time.Since(interrupted); d > 2*time.Second {
				t.Errorf("returned %v after the interrupt; want within 1 s", d)
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
