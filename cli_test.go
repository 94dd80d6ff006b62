package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
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

// TestHelp checks that -h, --help and `help CMD` print the command's usage
// to standard output and exit 0, and that --version is the version.
func TestHelp(t *testing.T) {
	for _, cmd := range []string{"extract", "ingest", "stats", "check", "delete", "merge", "alias", "duplicates", "serve", "export", "bench"} {
		for _, args := range [][]string{{cmd, "-h"}, {cmd, "--help"}, {"help", cmd}, {cmd, "-h", "x"}} {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, nil, &stdout, &stderr)
			if code := exitCode(err); code != 0 || !strings.HasPrefix(stdout.String(), "usage: papergraph "+cmd+" ") || stderr.Len() > 0 {
				t.Errorf("%q: exit %d (%v), stdout %.40q, stderr %q; want exit 0 and %s's usage on stdout", args, code, err, stdout.String(), stderr.String(), cmd)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		var stdout bytes.Buffer
		if err := run(context.Background(), args, nil, &stdout, io.Discard); err != nil || !strings.Contains(stdout.String(), "exit status: 0") {
			t.Errorf("%q: %v, stdout %.40q; want the top-level usage", args, err, stdout.String())
		}
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"--version"}, nil, &stdout, io.Discard); err != nil || !strings.HasPrefix(stdout.String(), "papergraph ") {
		t.Errorf("--version: %v, %q; want the version", err, stdout.String())
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"ok", nil, 0},
		{"help", fmt.Errorf("stats: %w", flag.ErrHelp), 0},
		{"usage", fmt.Errorf("%w: unknown command", errUsage), 2},
		{"failure", errors.New("disk full"), 1},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("exitCode(%s: %v) = %d; want %d", tt.name, tt.err, got, tt.want)
		}
	}
}

// TestParseFlags checks that flags may follow arguments, up to "--".
func TestParseFlags(t *testing.T) {
	tests := []struct {
		args     []string
		db       string
		json     bool
		wantArgs []string
	}{
		{[]string{"a.jsonl", "--db", "d"}, "d", false, []string{"a.jsonl"}},
		{[]string{"--db", "d", "a.jsonl", "b.jsonl", "--json"}, "d", true, []string{"a.jsonl", "b.jsonl"}},
		{[]string{"a.jsonl", "--", "--db", "b"}, "", false, []string{"a.jsonl", "--db", "b"}},
		{[]string{"-", "--json"}, "", true, []string{"-"}},
		{nil, "", false, nil},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		db := fs.String("db", "", "")
		asJSON := fs.Bool("json", false, "")
		if err := parseFlags(fs, tt.args, io.Discard); err != nil {
			t.Errorf("parseFlags(%q): %v", tt.args, err)
			continue
		}
		if *db != tt.db || *asJSON != tt.json || !slices.Equal(fs.Args(), tt.wantArgs) {
			t.Errorf("parseFlags(%q) = db %q json %v args %q; want %q %v %q", tt.args, *db, *asJSON, fs.Args(), tt.db, tt.json, tt.wantArgs)
		}
	}
}

func TestVersionLine(t *testing.T) {
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"no vcs", nil, "papergraph v1.2.0 go1.26.0"},
		{"clean", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-12-01T23:00:00Z"}, {Key: "vcs.modified", Value: "false"}},
			"papergraph v1.2.0 abc123 2026-12-01T23:00:00Z go1.26.0"},
		{"modified", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}},
			"papergraph v1.2.0 abc123+modified go1.26.0"},
	}
	for _, tt := range tests {
		info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.0"}, Settings: tt.settings}
		if got := versionLine(info); got != tt.want {
			t.Errorf("versionLine(%s) = %q; want %q", tt.name, got, tt.want)
		}
	}
}

// TestReadOnlyWhileServing runs serve on a database, then stats and
// export on it: opening it is refused with the hint, and --server asks
// the running server instead.
func TestReadOnlyWhileServing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	s := startServe(t, "--db", db)
	_, _, err := runCmd(t, "stats", "--db", db)
	if !errors.Is(err, graph.ErrLocked) || !strings.Contains(err.Error(), "--server URL") || exitCode(err) != 1 {
		t.Errorf("stats on a served database: %v (exit %d); want ErrLocked with the --server hint, exit 1", err, exitCode(err))
	}
	out, _, err := runCmd(t, "stats", "--server", s.url, "--json")
	if err != nil {
		t.Fatalf("stats --server: %v", err)
	}
	var st struct {
		Papers   int
		Entities map[string]int
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Papers == 0 || st.Entities["dataset"] == 0 {
		t.Errorf("stats --server --json = %s (%v); want the seed graph's counts", out, err)
	}
	var top struct {
		Entities struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	s.query(t, `{ entities(kind: DATASET, first: 1) { edges { node { id } } } }`, nil, &top)
	if len(top.Entities.Edges) == 0 {
		t.Fatal("the seed graph has no dataset")
	}
	id := top.Entities.Edges[0].Node.ID
	out, _, err = runCmd(t, "export", "--server", s.url, "--entity", id, "--format", "graphml")
	if err != nil {
		t.Fatalf("export --server: %v", err)
	}
	if !strings.Contains(out, `<node id="`+id+`">`) {
		t.Errorf("export --server --entity %s lacks the entity's node:\n%.300s", id, out)
	}
	if _, _, err := runCmd(t, "export", "--server", s.url, "--format", "graphml"); err == nil || !strings.Contains(err.Error(), "403 Forbidden") {
		t.Errorf("export --server of the whole graph from a server without a write token: %v; want its 403", err)
	}
}

// TestWholeExportWhileServing exports the whole graph through a running
// serve, with its write token, in each streamed format: the files are
// those the export command writes from the database once serve stopped.
func TestWholeExportWhileServing(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	s := startServe(t, "--db", db, "--write-token", "s3cret")
	formats := []string{"dot", "graphml", "cytoscape", "rdf"}
	name := func(via, f string) string { return filepath.Join(dir, via+"."+f+".out.rdf.gz") }
	for _, f := range formats {
		if _, _, err := runCmd(t, "export", "--server", s.url, "--write-token", "s3cret", "--format", f, "-o", name("server", f)); err != nil {
			t.Fatalf("export --server --format %s: %v", f, err)
		}
	}
	_, _, err := runCmd(t, "export", "--server", s.url, "--write-token", "wrong", "--format", "dot", "-o", name("wrong", "dot"))
	if err == nil || !strings.Contains(err.Error(), "401 Unauthorized") {
		t.Errorf("export --server with a wrong token: %v; want the server's 401", err)
	}
	if _, err := os.Stat(name("wrong", "dot")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused export left %s (%v)", name("wrong", "dot"), err)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	for _, f := range formats {
		if _, _, err := runCmd(t, "export", "--db", db, "--format", f, "-o", name("db", f)); err != nil {
			t.Fatalf("export --db --format %s: %v", f, err)
		}
		got, err := os.ReadFile(name("server", f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(name("db", f))
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || !bytes.Equal(got, want) {
			t.Errorf("--format %s: %d bytes through the server, %d from the database; want the same file", f, len(got), len(want))
		}
	}
	if _, err := os.Stat(strings.TrimSuffix(name("server", "rdf"), ".rdf.gz") + ".schema"); err != nil {
		t.Errorf("export --server --format rdf wrote no schema beside its file: %v", err)
	}
}

// TestServeReadOnly serves a database read-only: read-only commands open
// it beside the server, in every format, and the server refuses writes
// whatever the token.
func TestServeReadOnly(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	seed := startServe(t, "--db", db) // fills it from the seeds
	if err := seed.stop(); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "--db", db, "--read-only", "--write-token", "s3cret")
	out, _, err := runCmd(t, "stats", "--db", db, "--json")
	if err != nil || !strings.Contains(out, `"papers"`) {
		t.Errorf("stats beside serve --read-only = %q, %v; want the counts", out, err)
	}
	if _, _, err := runCmd(t, "check", "--db", db); err != nil {
		t.Errorf("check beside serve --read-only: %v", err)
	}
	if _, _, err := runCmd(t, "export", "--db", db, "--format", "neo4j", filepath.Join(dir, "neo4j")); err != nil {
		t.Errorf("export --format neo4j beside serve --read-only: %v", err)
	}
	res := s.post(t, `mutation { deletePapers(ids: ["0000000000000001"]) }`, nil, "Authorization: Bearer s3cret")
	if len(res.Errors) != 1 || res.Errors[0].Extensions.Code != "FORBIDDEN" || !strings.Contains(res.Errors[0].Message, "read-only") {
		t.Errorf("deletePapers on serve --read-only = %+v; want one FORBIDDEN error saying read-only", res.Errors)
	}
}

// TestCheckWhileServing runs check through a running serve: with the
// server's write token it checks the database serve holds; without it
// the server refuses.
func TestCheckWhileServing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	s := startServe(t, "--db", db, "--write-token", "s3cret")
	if _, _, err := runCmd(t, "check", "--db", db); !errors.Is(err, graph.ErrLocked) || !strings.Contains(err.Error(), "with the write token, check") {
		t.Errorf("check on a served database: %v; want ErrLocked with the --server hint", err)
	}
	out, _, err := runCmd(t, "check", "--server", s.url, "--write-token", "s3cret")
	if err != nil || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("check --server = %q, %v; want ok and the counts", out, err)
	}
	if _, _, err := runCmd(t, "check", "--server", s.url, "--write-token", "wrong"); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("check --server with a wrong token: %v; want the server's refusal", err)
	}
}
