package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

const aliasUsage = `usage: papergraph alias [flags] ENTITY ALIAS...

Adds each ALIAS to the aliases of ENTITY (KIND:NAME: a name, alias or id,
as technique:parameter-efficient-fine-tuning), so that lookups and
searches by it find the entity. An existing entity of that kind named
ALIAS is merged into ENTITY. The alias is kept in the database: papers
ingested later that mention ALIAS link to ENTITY.

example:
  papergraph alias technique:parameter-efficient-fine-tuning PEFT

flags:
`

func runAlias(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("alias", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "database `DIR` (default $PAPERGRAPH_DB or "+defaultDB()+")")
	fs.Usage = func() { fmt.Fprint(fs.Output(), aliasUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		fs.Usage()
		return fmt.Errorf("%w: alias takes an entity and one alias or more", errUsage)
	}
	s, err := openStore(*db, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	var e graph.Entity
	for _, a := range fs.Args()[1:] {
		if e, err = s.AddAlias(ctx, fs.Arg(0), a); err != nil {
			return err
		}
	}
	printEntity(stdout, e)
	return nil
}
