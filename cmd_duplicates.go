package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

const duplicatesUsage = `usage: papergraph duplicates [flags]

Lists pairs of entities that are likely one concept, with the reason:
alias (one's name is the other's alias), acronym ("PEFT" and
"parameter-efficient fine-tuning"), spelling (one edit apart, or the same
words but for endings and separators) and across-kinds (one name, two
kinds). The first of a pair has no more papers than the second: merge it
with 'papergraph merge FIRST SECOND' when they are the same.

flags:
`

// duplicateJSON is a pair as duplicates --json prints it.
type duplicateJSON struct {
	Reason string     `json:"reason"`
	A      entityJSON `json:"a"`
	B      entityJSON `json:"b"`
	Detail string     `json:"detail"`
}

type entityJSON struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	PaperCount int    `json:"paperCount"`
}

func runDuplicates(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duplicates", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	kind := fs.String("kind", "", "only pairs with an entity of `KIND` (task, modality, dataset or technique)")
	asJSON := fs.Bool("json", false, `print a JSON array of {"reason", "a", "b", "detail"}`)
	fs.Usage = func() { fmt.Fprint(fs.Output(), duplicatesUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: duplicates takes no arguments", errUsage)
	}
	var k graph.Kind
	if *kind != "" {
		var err error
		if k, err = graph.ParseKind(*kind); err != nil {
			return fmt.Errorf("%w: --kind: %w", errUsage, err)
		}
	}
	s, err := openStore(*db, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	ds, err := s.Duplicates(ctx, graph.DuplicateQuery{Kind: k})
	if err != nil {
		return err
	}
	if *asJSON {
		out := make([]duplicateJSON, len(ds))
		for i, d := range ds {
			out[i] = duplicateJSON{Reason: d.Reason.String(), Detail: d.Detail,
				A: entityJSON{d.A.ID(), d.A.Name, d.A.PaperCount}, B: entityJSON{d.B.ID(), d.B.Name, d.B.PaperCount}}
		}
		return json.NewEncoder(stdout).Encode(out)
	}
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
	for _, d := range ds {
		fmt.Fprintf(tw, "%s\t%s (%d)\t%s (%d)\t%s\n", d.Reason, d.A.ID(), d.A.PaperCount, d.B.ID(), d.B.PaperCount, d.Detail)
	}
	return tw.Flush()
}
