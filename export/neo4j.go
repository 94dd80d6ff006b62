package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/store"
)

// Neo4jArrayDelimiter separates the items of an array property in the
// CSV files of a Neo4jWriter: neo4j-admin's default, --array-delimiter.
// An item's own semicolons become commas.
const Neo4jArrayDelimiter = ';'

// neo4jFile is one CSV file of a Neo4jWriter.
type neo4jFile struct {
	name   string // file name in the directory
	header string
	f      *os.File
	w      *bufio.Writer
}

// neo4jFiles lists the files in the order Neo4jFiles names them: papers,
// the entities of each kind, the paper-entity relationships of each kind,
// and the taxonomy.
func neo4jFiles() []*neo4jFile {
	files := []*neo4jFile{{name: "papers.csv", header: "paperId:ID(Paper),:LABEL,label,name,title,year:int,venue,url,authors:string[],source,index:int"}}
	for _, k := range graph.Kinds {
		files = append(files, &neo4jFile{name: "entities_" + k.String() + ".csv", header: "entityId:ID(Entity),:LABEL,name,aliases:string[],paperCount:int,broader:string[]"})
	}
	for _, k := range graph.Kinds {
		files = append(files, &neo4jFile{name: "has_" + k.String() + ".csv", header: ":START_ID(Paper),:END_ID(Entity),:TYPE,evidence:string[],start:int[],end:int[],inTitle:boolean[]"})
	}
	return append(files, &neo4jFile{name: "broader.csv", header: ":START_ID(Entity),:END_ID(Entity),:TYPE"})
}

// Neo4jFiles returns the names of the files a Neo4jWriter writes, nodes
// first, as neo4j-admin database import takes them:
//
//	neo4j-admin database import full --nodes=papers.csv --nodes=entities_task.csv ... \
//	    --relationships=has_task.csv ... --relationships=broader.csv neo4j
func Neo4jFiles() (nodes, relationships []string) {
	for _, f := range neo4jFiles() {
		if strings.HasPrefix(f.name, "papers") || strings.HasPrefix(f.name, "entities_") {
			nodes = append(nodes, f.name)
		} else {
			relationships = append(relationships, f.name)
		}
	}
	return nodes, relationships
}

// A Neo4jWriter writes a graph as the CSV files of `neo4j-admin database
// import` (Neo4j 5) in a directory, node by node and edge by edge (see
// GraphWriter), in bounded memory. Papers are nodes labelled Paper in the
// id space Paper, keyed by paper id; entities are labelled Entity and
// their kind (Task, Modality, Dataset, Technique) in the id space Entity,
// keyed by entity id, one file per kind. A paper's link to an entity is a
// HAS_TASK, HAS_MODALITY, HAS_DATASET or HAS_TECHNIQUE relationship
// carrying its evidence as arrays (mention text, start and end byte
// offsets, whether in the title); a taxonomy edge is BROADER. Headers use
// neo4j-admin's grammar (paperId:ID(Paper), :LABEL, year:int,
// aliases:string[], :START_ID(Paper), :END_ID(Entity), :TYPE); fields are
// quoted as RFC 4180 says when they hold a comma or a quote, text is
// cleaned as every format's (no newlines: neo4j-admin refuses multi-line
// fields by default), and array items are joined by Neo4jArrayDelimiter.
// A Neo4jWriter is not safe for concurrent use.
type Neo4jWriter struct {
	files  []*neo4jFile
	byName map[string]*neo4jFile
	buf    []byte
	edges  bool
	closed bool
}

// NewNeo4jWriter creates dir if need be and the files of Neo4jFiles in it,
// replacing files of those names.
func NewNeo4jWriter(dir string) (*Neo4jWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("neo4j: %w", err)
	}
	nw := &Neo4jWriter{files: neo4jFiles(), byName: map[string]*neo4jFile{}}
	for _, f := range nw.files {
		var err error
		if f.f, err = os.Create(filepath.Join(dir, f.name)); err != nil {
			nw.closeFiles()
			return nil, fmt.Errorf("neo4j: %w", err)
		}
		f.w = bufio.NewWriterSize(f.f, 64<<10)
		f.w.WriteString(f.header)
		f.w.WriteByte('\n')
		nw.byName[f.name] = f
	}
	return nw, nil
}

// WriteNode writes one node; it fails once an edge was written.
func (nw *Neo4jWriter) WriteNode(n graph.Node) error {
	if nw.edges || nw.closed {
		return errors.New("neo4j: node written after edges")
	}
	b := nw.buf[:0]
	var f *neo4jFile
	if p := n.Paper; p != nil {
		f = nw.byName["papers.csv"]
		b = appendCSV(b, p.ID, ',')
		b = appendCSV(b, "Paper", ',')
		b = appendCSV(b, p.Label, ',')
		b = appendCSV(b, p.Name, ',')
		b = appendCSV(b, p.Title, ',')
		b = appendCSVInt(b, p.Year, ',')
		b = appendCSV(b, p.Venue, ',')
		b = appendCSV(b, p.URL, ',')
		b = appendCSVArray(b, p.Authors, ',')
		b = appendCSV(b, p.Source, ',')
		b = appendCSVInt(b, p.Index, '\n')
	} else {
		e := n.Entity
		if !e.Kind.Valid() {
			return fmt.Errorf("neo4j: entity %q: %w: %d", e.Name, graph.ErrBadKind, uint8(e.Kind))
		}
		f = nw.byName["entities_"+e.Kind.String()+".csv"]
		b = appendCSV(b, e.ID(), ',')
		b = appendCSV(b, "Entity;"+neo4jLabel(e.Kind), ',')
		b = appendCSV(b, e.Name, ',')
		b = appendCSVArray(b, e.Aliases, ',')
		b = appendCSVInt(b, e.PaperCount, ',')
		b = appendCSVArray(b, e.Broader, '\n')
	}
	nw.buf = b
	_, err := f.w.Write(b)
	return err
}

// WriteEdge writes one edge, after every node.
func (nw *Neo4jWriter) WriteEdge(e graph.Edge) error {
	if nw.closed {
		return errors.New("neo4j: edge written after Close")
	}
	nw.edges = true
	b := appendCSV(nw.buf[:0], e.From, ',')
	b = appendCSV(b, e.To, ',')
	if e.Kind == graph.BroaderEdge {
		b = appendCSV(b, "BROADER", '\n')
		nw.buf = b
		_, err := nw.byName["broader.csv"].w.Write(b)
		return err
	}
	k, err := graph.ParseKind(e.Kind)
	if err != nil {
		return fmt.Errorf("neo4j: edge %s->%s: %w", e.From, e.To, err)
	}
	b = appendCSV(b, "HAS_"+strings.ToUpper(k.String()), ',')
	texts := make([]string, len(e.Evidence))
	var starts, ends, inTitle []byte
	for i, m := range e.Evidence {
		texts[i] = m.Text
		if i > 0 {
			starts = append(starts, Neo4jArrayDelimiter)
			ends = append(ends, Neo4jArrayDelimiter)
			inTitle = append(inTitle, Neo4jArrayDelimiter)
		}
		starts = strconv.AppendInt(starts, int64(m.Start), 10)
		ends = strconv.AppendInt(ends, int64(m.End), 10)
		inTitle = strconv.AppendBool(inTitle, m.InTitle)
	}
	b = appendCSVArray(b, texts, ',')
	b = append(append(b, starts...), ',')
	b = append(append(b, ends...), ',')
	b = append(append(b, inTitle...), '\n')
	nw.buf = b
	_, err = nw.byName["has_"+k.String()+".csv"].w.Write(b)
	return err
}

// Close flushes and closes the files, returning the first error.
func (nw *Neo4jWriter) Close() error {
	if nw.closed {
		return nil
	}
	nw.closed = true
	var first error
	for _, f := range nw.files {
		if err := f.w.Flush(); err != nil && first == nil {
			first = fmt.Errorf("neo4j: %s: %w", f.name, err)
		}
	}
	if err := nw.closeFiles(); err != nil && first == nil {
		first = err
	}
	return first
}

func (nw *Neo4jWriter) closeFiles() error {
	var first error
	for _, f := range nw.files {
		if f.f == nil {
			continue
		}
		if err := f.f.Close(); err != nil && first == nil {
			first = fmt.Errorf("neo4j: %s: %w", f.name, err)
		}
	}
	return first
}

// neo4jLabel is the label of kind k: "Dataset".
func neo4jLabel(k graph.Kind) string {
	s := k.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// appendCSVInt appends n and then end, or only end for 0 (no value).
func appendCSVInt(b []byte, n int, end byte) []byte {
	if n != 0 {
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, end)
}

// appendCSVArray appends items as one field, joined by
// Neo4jArrayDelimiter (an item's own delimiters become commas), then end.
func appendCSVArray(b []byte, items []string, end byte) []byte {
	var sb strings.Builder
	for i, s := range items {
		if i > 0 {
			sb.WriteByte(Neo4jArrayDelimiter)
		}
		sb.WriteString(strings.ReplaceAll(s, string(Neo4jArrayDelimiter), ","))
	}
	return appendCSV(b, sb.String(), end)
}

// appendCSV appends s as a CSV field, then end: cleaned (see cleanText),
// and quoted, inner quotes doubled, when it holds a comma or a quote or
// begins or ends with a space.
func appendCSV(b []byte, s string, end byte) []byte {
	s = cleanText(s)
	if strings.ContainsAny(s, `,"`) || s != "" && (s[0] == ' ' || s[len(s)-1] == ' ') {
		b = append(b, '"')
		b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
		b = append(b, '"')
	} else {
		b = append(b, s...)
	}
	return append(b, end)
}

// WriteNeo4j writes the subgraph that sel picks from st (the whole graph
// for the zero Selection, streamed) into dir as the CSV files of a
// Neo4jWriter. Errors of the selection are store.Select's.
func WriteNeo4j(ctx context.Context, dir string, st *store.Store, sel graph.Selection) error {
	nw, err := NewNeo4jWriter(dir)
	if err != nil {
		return err
	}
	if err := st.Export(ctx, sel, nw); err != nil {
		nw.Close()
		return err
	}
	return nw.Close()
}
