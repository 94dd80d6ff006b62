package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
)

const extractUsage = `usage: papergraph extract [flags] FILE...

Reads abstracts (seed text, JSON Lines, OpenReview notes or arXiv metadata,
detected from the content) and prints, per paper, its name and the tasks,
modalities, datasets and techniques it links to, with the evidence.

flags:
`

func runExtract(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "jsonl", "output format: jsonl, json or table")
	inputFormat := fs.String("input-format", "", "force the input format: text, jsonl, openreview or arxiv (default: detect)")
	skipBad := fs.Bool("skip-bad", false, "warn about bad records and go on, instead of stopping at the first")
	var vocab stringList
	fs.Var(&vocab, "vocab", "extra vocabulary `FILE` (kind<TAB>name<TAB>aliases<TAB>broader); repeatable")
	fs.Usage = func() { fmt.Fprint(fs.Output(), extractUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("%w: extract needs at least one FILE", errUsage)
	}
	var emit func(graph.Paper) error
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	switch *format {
	case "jsonl":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		emit = func(p graph.Paper) error { return enc.Encode(newResult(p)) }
	case "json":
		first := true
		fmt.Fprint(w, "[\n")
		emit = func(p graph.Paper) error {
			if !first {
				fmt.Fprint(w, ",\n")
			}
			first = false
			b, err := json.MarshalIndent(newResult(p), "  ", "  ")
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "  %s", b)
			return err
		}
		defer fmt.Fprint(w, "\n]\n")
	case "table":
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SOURCE\t#\tNAME\tTASKS\tMODALITIES\tDATASETS\tTECHNIQUES")
		emit = func(p graph.Paper) error {
			_, err := fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", p.Source, p.Index, orDash(p.Name),
				list(p.Names(graph.Task)), list(p.Names(graph.Modality)), list(p.Names(graph.Dataset)), list(p.Names(graph.Technique)))
			return err
		}
		defer tw.Flush()
	default:
		return fmt.Errorf("%w: unknown --format %q (want jsonl, json or table)", errUsage, *format)
	}

	x, err := extract.New(extract.Options{VocabFiles: vocab})
	if err != nil {
		return err
	}
	opts := extract.ReaderOptions{Format: extract.Format(*inputFormat), SkipBad: *skipBad,
		Warn: func(err error) { fmt.Fprintln(stderr, "papergraph: warning:", err) }}
	skipped := 0
	for _, name := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := extractFile(ctx, x, name, opts, emit)
		skipped += n
		if err != nil {
			return err
		}
	}
	if skipped > 0 {
		fmt.Fprintf(stderr, "papergraph: skipped %d bad records\n", skipped)
	}
	return nil
}

// extractFile streams the documents of one file through x into emit and
// returns the number of bad records skipped.
func extractFile(ctx context.Context, x *extract.Extractor, name string, opts extract.ReaderOptions, emit func(graph.Paper) error) (int, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	// The name as given, as ingest names it in its messages.
	r := extract.NewReader(extract.ContextReader(ctx, f), name, opts)
	for {
		if err := ctx.Err(); err != nil {
			return r.Skipped(), err
		}
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return r.Skipped(), nil
		}
		if err != nil {
			return r.Skipped(), err
		}
		p, err := x.Extract(ctx, d)
		if err != nil {
			return r.Skipped(), err
		}
		if err := emit(p); err != nil {
			return r.Skipped(), err
		}
	}
}

// result is one line of `extract --format jsonl`, the shape that
// ../shared/eval/score.py reads.
type result struct {
	Source     string          `json:"source"`
	Index      int             `json:"index"`
	ID         string          `json:"id"`
	Name       *string         `json:"name"`
	Label      string          `json:"label"`
	Title      string          `json:"title,omitempty"`
	Tasks      []string        `json:"tasks"`
	Modalities []string        `json:"modalities"`
	Datasets   []string        `json:"datasets"`
	Techniques []string        `json:"techniques"`
	Mentions   []graph.Mention `json:"mentions"`
}

func newResult(p graph.Paper) result {
	r := result{
		Source: p.Source, Index: p.Index, ID: p.ID, Label: p.Label, Title: p.Title,
		Tasks:      nonNil(p.Names(graph.Task)),
		Modalities: nonNil(p.Names(graph.Modality)),
		Datasets:   nonNil(p.Names(graph.Dataset)),
		Techniques: nonNil(p.Names(graph.Technique)),
		Mentions:   p.Mentions,
	}
	if r.Mentions == nil {
		r.Mentions = []graph.Mention{}
	}
	if p.Name != "" {
		r.Name = &p.Name
	}
	return r
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func list(s []string) string {
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, "; ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
