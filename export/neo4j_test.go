package export

import (
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// neo4jHeaderField is one field of a neo4j-admin import header, as its
// documentation gives the grammar: name:type, with the special types
// ID(group), START_ID(group), END_ID(group), LABEL and TYPE (name
// optional), and property types int, long, float, double, boolean, byte,
// short, char, string, date and the like, an array when followed by [].
var neo4jHeaderField = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)?(?::(ID|START_ID|END_ID)\(([A-Za-z]+)\)|:(LABEL|TYPE)|:(int|long|float|double|boolean|byte|short|char|string|date|localtime|time|localdatetime|datetime|duration|point)(\[\])?)?$`)

// neo4jColumn is a parsed header field.
type neo4jColumn struct {
	name, special, group, typ string
	array                     bool
}

// neo4jTable is a CSV file read back.
type neo4jTable struct {
	cols []neo4jColumn
	rows [][]string
}

// readNeo4jDir reads every file of Neo4jFiles in dir, checking each header
// against the grammar, each row's width, that no field spans lines and
// that every typed value parses as its type.
func readNeo4jDir(tb testing.TB, dir string) map[string]neo4jTable {
	tb.Helper()
	nodes, rels := Neo4jFiles()
	tables := map[string]neo4jTable{}
	for _, name := range append(nodes, rels...) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		r := csv.NewReader(strings.NewReader(string(b)))
		records, err := r.ReadAll()
		if err != nil {
			tb.Fatalf("%s: not CSV: %v", name, err)
		}
		var t neo4jTable
		for _, h := range records[0] {
			m := neo4jHeaderField.FindStringSubmatch(h)
			if m == nil {
				tb.Fatalf("%s: header field %q is not in neo4j-admin's grammar", name, h)
			}
			t.cols = append(t.cols, neo4jColumn{name: m[1], special: m[2] + m[4], group: m[3], typ: m[5], array: m[6] != ""})
		}
		for i, rec := range records[1:] {
			for j, v := range rec {
				if strings.ContainsAny(v, "\n\r") {
					tb.Errorf("%s:%d: field %s spans lines: %q", name, i+2, records[0][j], v)
				}
				c := t.cols[j]
				if v == "" || c.typ == "" || c.typ == "string" {
					continue
				}
				items := []string{v}
				if c.array {
					items = strings.Split(v, string(Neo4jArrayDelimiter))
				}
				for _, it := range items {
					var err error
					switch c.typ {
					case "int":
						_, err = strconv.Atoi(it)
					case "boolean":
						_, err = strconv.ParseBool(it)
					}
					if err != nil {
						tb.Errorf("%s:%d: %s value %q: %v", name, i+2, records[0][j], it, err)
					}
				}
			}
		}
		t.rows = records[1:]
		tables[name] = t
	}
	return tables
}

// checkNeo4jIDs checks that ids are unique in their group and that every
// relationship joins existing nodes; it returns the ids of each group.
func checkNeo4jIDs(tb testing.TB, tables map[string]neo4jTable) map[string]map[string]bool {
	tb.Helper()
	ids := map[string]map[string]bool{}
	nodes, rels := Neo4jFiles()
	for _, name := range nodes {
		t := tables[name]
		for j, c := range t.cols {
			if c.special != "ID" {
				continue
			}
			if ids[c.group] == nil {
				ids[c.group] = map[string]bool{}
			}
			for _, row := range t.rows {
				if ids[c.group][row[j]] {
					tb.Errorf("%s: id %q twice in group %s", name, row[j], c.group)
				}
				ids[c.group][row[j]] = true
			}
		}
	}
	for _, name := range rels {
		t := tables[name]
		for j, c := range t.cols {
			if c.special != "START_ID" && c.special != "END_ID" {
				continue
			}
			for _, row := range t.rows {
				if !ids[c.group][row[j]] {
					tb.Errorf("%s: %s %q is no node of group %s", name, c.special, row[j], c.group)
				}
			}
		}
	}
	return ids
}

// writeNeo4jDir writes g with a Neo4jWriter into a new directory and
// reads the files back, checked.
func writeNeo4jDir(t *testing.T, g graph.Subgraph) map[string]neo4jTable {
	t.Helper()
	dir := t.TempDir()
	nw, err := NewNeo4jWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := graph.WriteSubgraph(nw, g); err != nil {
		t.Fatal(err)
	}
	if err := nw.Close(); err != nil {
		t.Fatal(err)
	}
	tables := readNeo4jDir(t, dir)
	ids := checkNeo4jIDs(t, tables)
	if len(ids["Paper"])+len(ids["Entity"]) != len(g.Nodes) {
		t.Errorf("neo4j files hold %d papers and %d entities; want %d nodes", len(ids["Paper"]), len(ids["Entity"]), len(g.Nodes))
	}
	rels := 0
	_, relFiles := Neo4jFiles()
	for _, name := range relFiles {
		rels += len(tables[name].rows)
	}
	if rels != len(g.Edges) {
		t.Errorf("neo4j files hold %d relationships; want %d", rels, len(g.Edges))
	}
	return tables
}

// row returns the row of t whose first field is id.
func (t neo4jTable) row(id string) []string {
	for _, r := range t.rows {
		if r[0] == id {
			return r
		}
	}
	return nil
}

func TestNeo4jWriter(t *testing.T) {
	writeNeo4jDir(t, nastyGraph())
	tables := writeNeo4jDir(t, richGraph())
	// The rich paper's row, its attributes escaped and read back.
	paper := tables["papers.csv"].row(richPaperID)
	want := []string{richPaperID, "Paper", `Attention, "quoted" & <tagged>`, "Dolphin", `Attention, "quoted" & <tagged>`, "2025", "ICLR 2025",
		"https://openreview.net/forum?id=x&y=1", "Ada Lovelace;O'Brien, Pat", "iclr.jsonl", "3"}
	if strings.Join(paper, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("papers.csv row = %q; want %q", paper, want)
	}
	ds := tables["entities_dataset.csv"].row("dataset:gsm8k-g")
	if want := []string{"dataset:gsm8k-g", "Entity;Dataset", "GSM8K-G", "GSM8KG;gsm8k, grounded", "12", "GSM8K"}; strings.Join(ds, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("entities_dataset.csv row = %q; want %q", ds, want)
	}
	has := tables["has_dataset.csv"].row(richPaperID)
	if want := []string{richPaperID, "dataset:gsm8k-g", "HAS_DATASET", `GSM8K-G;quoted"`, "10;12", "17;19", "false;true"}; strings.Join(has, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("has_dataset.csv row = %q; want %q", has, want)
	}
}

// TestWriteNeo4jStore exports a real store's whole graph and checks it
// against the header grammar and ids.
func TestWriteNeo4jStore(t *testing.T) {
	st := testStore(t, 60)
	dir := t.TempDir()
	if err := WriteNeo4j(context.Background(), dir, st, graph.Selection{}); err != nil {
		t.Fatal(err)
	}
	tables := readNeo4jDir(t, dir)
	ids := checkNeo4jIDs(t, tables)
	stats, err := st.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ids["Paper"]) != stats.Papers {
		t.Errorf("papers.csv has %d papers; want %d", len(ids["Paper"]), stats.Papers)
	}
}

// TestNeo4jAdminImport imports a real store's export with a real
// neo4j-admin, where one is installed.
func TestNeo4jAdminImport(t *testing.T) {
	admin, err := exec.LookPath("neo4j-admin")
	if err != nil {
		t.Skip("neo4j-admin not installed (no package in this machine's apt): TestWriteNeo4jStore checks the files against the documented header grammar")
	}
	st := testStore(t, 60)
	dir := t.TempDir()
	if err := WriteNeo4j(context.Background(), dir, st, graph.Selection{}); err != nil {
		t.Fatal(err)
	}
	nodes, rels := Neo4jFiles()
	args := []string{"database", "import", "full", "--overwrite-destination"}
	for _, n := range nodes {
		args = append(args, "--nodes="+filepath.Join(dir, n))
	}
	for _, r := range rels {
		args = append(args, "--relationships="+filepath.Join(dir, r))
	}
	if out, err := exec.Command(admin, append(args, "papergraphtest")...).CombinedOutput(); err != nil {
		t.Errorf("neo4j-admin database import: %v\n%s", err, out)
	}
}

// FuzzCSVField checks that a field appendCSV writes reads back with
// encoding/csv as the cleaned text, on one line, whatever the input.
func FuzzCSVField(f *testing.F) {
	for _, s := range []string{"", "plain", "a,b", `say "hi"`, "line\nbreak", " padded ", `"`, "\x00\x1b[31m", "é,\"ü\"\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := appendCSV([]byte("x,"), s, '\n')
		if strings.Count(string(line), "\n") != 1 {
			t.Fatalf("appendCSV(%q) spans lines: %q", s, line)
		}
		rec, err := csv.NewReader(strings.NewReader(string(line))).Read()
		if err != nil {
			t.Fatalf("appendCSV(%q) = %q: not CSV: %v", s, line, err)
		}
		if want := cleanText(s); len(rec) != 2 || rec[1] != want {
			t.Fatalf("appendCSV(%q) reads back as %q; want [x %q]", s, rec, want)
		}
	})
}
