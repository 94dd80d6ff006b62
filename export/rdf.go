package export

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph/schema"
)

// Walker is a store that streams every paper and entity and gives its
// curation corrections: the Badger store, the source of an RDF export.
type Walker interface {
	Walk(ctx context.Context, paper func(graph.Paper) error, entity func(graph.Entity) error) error
	Corrections(ctx context.Context) (graph.Corrections, error)
}

// WriteRDF writes the whole graph of st to w as gzipped N-Quads, the
// predicates of graph/dgraph/schema, for `dgraph bulk -f FILE -s SCHEMA`
// (the schema is WriteRDFSchema's), its corrections last, so that the
// cluster's ingests keep the merges and aliases made in st. Nodes are
// blank nodes named by their ids, so edges need no lookup and memory
// stays bounded whatever the graph's size; the bulk loader assigns the
// uids.
func WriteRDF(ctx context.Context, w io.Writer, st Walker) error {
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriterSize(zw, 64<<10)
	var line []byte
	write := func(id string, fs []schema.Fact) error {
		for _, f := range fs {
			line = appendNQuad(line[:0], id, f)
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
		return nil
	}
	err := st.Walk(ctx,
		func(p graph.Paper) error {
			rec, digest, err := schema.Record(&p)
			if err != nil {
				return fmt.Errorf("paper %s: %w", p.ID, err)
			}
			return write(p.ID, schema.PaperFacts(&p, rec, digest))
		},
		func(e graph.Entity) error { return write(e.ID(), schema.EntityFacts(e)) })
	if err != nil {
		return fmt.Errorf("export rdf: %w", err)
	}
	fixes, err := st.Corrections(ctx)
	if err != nil {
		return fmt.Errorf("export rdf: %w", err)
	}
	froms := slices.Sorted(maps.Keys(fixes))
	for _, from := range froms {
		if err := write(schema.CorrectionID(from), schema.CorrectionFacts(from, fixes[from].ID())); err != nil {
			return fmt.Errorf("export rdf: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export rdf: %w", err)
	}
	return zw.Close()
}

// WriteRDFSchema writes the DQL schema that WriteRDF's output is loaded
// with.
func WriteRDFSchema(w io.Writer) error {
	_, err := io.WriteString(w, schema.DQL)
	return err
}

// appendNQuad appends the N-Quad of fact f of the node id.
func appendNQuad(b []byte, id string, f schema.Fact) []byte {
	b = appendBlank(b, id)
	b = append(b, " <"...)
	b = append(b, f.Pred...)
	b = append(b, "> "...)
	switch v := f.Value.(type) {
	case nil:
		b = appendBlank(b, f.Ref)
	case int:
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(v), 10)
		b = append(b, `"^^<xs:int>`...)
	case string:
		b = AppendNQuadString(b, v)
	}
	return append(b, " .\n"...)
}

// appendBlank appends the blank node of id: "_:x" and the id in hex, as
// ids hold characters (a colon, any letter) that blank node labels may
// not.
func appendBlank(b []byte, id string) []byte {
	b = append(b, "_:x"...)
	return hex.AppendEncode(b, []byte(id))
}

// AppendNQuadString appends s as an N-Quads string literal: quoted, with
// backslash, quote and line breaks escaped, other control characters and
// invalid UTF-8 as \uXXXX (U+FFFD for a bad byte).
func AppendNQuadString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f:
			b = fmt.Appendf(b, `\u%04X`, r)
		case r == utf8.RuneError:
			b = append(b, `\uFFFD`...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// RDFSchemaPath returns the schema file written beside the RDF file name:
// graph.rdf.gz -> graph.schema.
func RDFSchemaPath(name string) string {
	return strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".rdf") + ".schema"
}
