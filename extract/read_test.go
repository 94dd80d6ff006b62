package extract

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// readAll reads every document of r, stopping at the first error.
func readAll(tb testing.TB, r *Reader) ([]Document, error) {
	tb.Helper()
	var docs []Document
	for {
		doc, err := r.Next()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return docs, err
		}
		docs = append(docs, doc)
	}
}

func readFile(tb testing.TB, name string, opts ReaderOptions) ([]Document, error) {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "read", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	return readAll(tb, NewReader(f, name, opts))
}

func TestReadFiles(t *testing.T) {
	dolphin := Document{
		ID:       "abc123",
		Title:    "Dolphin: Audio-Visual Speech Separation",
		Abstract: "We propose Dolphin, an efficient AVSS method.",
		Authors:  []string{"Ann Lee", "Bo Chen"},
		Year:     2025, // pdate 1737000000000
		Venue:    "ICLR 2026 Poster",
		URL:      "https://openreview.net/forum?id=abc123",
		Keywords: []string{"speech separation", "audio-visual"},
	}
	c2c := Document{
		ID:       "def456",
		Title:    "C2C",
		Abstract: "Cache-to-cache communication between LLMs.",
		Year:     2023, // cdate 1695000000000
		URL:      "https://openreview.net/forum?id=def456",
	}
	notes := func(name string, lines ...int) []Document {
		a, b := dolphin, c2c
		a.Source, a.Index, a.Line = name, 1, lines[0]
		b.Source, b.Index, b.Line = name, 2, lines[1]
		return []Document{a, b}
	}
	tests := []struct {
		file   string
		format Format
		want   []Document
	}{
		{"seed.txt", Auto, []Document{
			{Source: "seed.txt", Index: 1, Line: 4, Abstract: "We introduce **Dolphin**, an audio-visual speech separation model that reaches $17\\times$ faster inference on VoxCeleb2."},
			{Source: "seed.txt", Index: 2, Line: 8, Abstract: `$\pi$-Light learns lighting with \textbf{GPS} and improves PSNR by 5.5\%.`},
			{Source: "seed.txt", Index: 3, Line: 10, Abstract: "UniF$^2$ace generates faces; it is nec- essary to use &amp; decode entities."},
		}},
		{"plain.jsonl", Auto, []Document{
			{Source: "plain.jsonl", Index: 1, Line: 1, Title: "Hubble: a Model Suite",
				Abstract: "We present Hubble, a suite of open-source large language models (LLMs).",
				Venue:    "ICLR 2026 Oral", Year: 2026, URL: "https://openreview.net/forum?id=ZfdnZhOP0k"},
			{Source: "plain.jsonl", Index: 2, Line: 3, ID: "p2", Title: "Two lines",
				Abstract: "Graph neural networks on OGB.",
				Authors:  []string{"Ada Lovelace", "Alan Turing", "Grace Hopper"},
				Year:     2024, Keywords: []string{"graphs", "GNN"}, Venue: "NeurIPS"},
			{Source: "plain.jsonl", Index: 3, Line: 4, ID: "17", Abstract: "Only an abstract.",
				Authors: []string{"A. One", "B. Two"}, Keywords: []string{"x", "y"}},
		}},
		{"openreview_v2.json", Auto, notes("openreview_v2.json", 2, 15)},
		{"openreview_v2_api.json", Auto, notes("openreview_v2_api.json", 3, 32)},
		{"openreview_v2.jsonl", Auto, notes("openreview_v2.jsonl", 1, 2)},
		{"openreview_v2.json", OpenReview, notes("openreview_v2.json", 2, 15)},
		{"openreview_v2.jsonl", OpenReview, notes("openreview_v2.jsonl", 1, 2)},
		{"openreview_v1.json", Auto, []Document{{
			Source: "openreview_v1.json", Index: 1, Line: 2, ID: "HkxV1",
			Title:    "Deep Graph Infomax",
			Abstract: "We present Deep Graph Infomax (DGI), an approach for learning node representations.",
			Authors:  []string{"Petar Velickovic", "William Fedus"},
			Keywords: []string{"graph neural networks", "unsupervised learning"},
			Year:     2018, URL: "https://openreview.net/forum?id=HkxV1",
		}}},
		{"arxiv.jsonl", Auto, []Document{
			{Source: "arxiv.jsonl", Index: 1, Line: 1, ID: "0704.0001",
				Title:    "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies",
				Abstract: "A fully differential calculation in perturbative quantum chromodynamics is\npresented for the production of massive photon pairs at hadron colliders.",
				Authors:  []string{`C. Bal\'azs`, "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"},
				Year:     2008, Venue: "Phys.Rev.D76:013009,2007", URL: "https://arxiv.org/abs/0704.0001",
				Keywords: []string{"hep-ph"}},
			{Source: "arxiv.jsonl", Index: 2, Line: 2, ID: "2310.06825", Title: "Mistral 7B",
				Abstract: "We introduce Mistral 7B, a 7-billion-parameter language model.",
				Authors:  []string{"Albert Q. Jiang", "Alexandre Sablayrolles"},
				Year:     2023, Venue: "arXiv", URL: "https://arxiv.org/abs/2310.06825",
				Keywords: []string{"cs.CL", "cs.AI", "cs.LG"}},
		}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s", tt.file, tt.format), func(t *testing.T) {
			got, err := readFile(t, tt.file, ReaderOptions{Format: tt.format})
			if err != nil {
				t.Fatalf("read %s: %v", tt.file, err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("read %s: %d documents; want %d: %+v", tt.file, len(got), len(tt.want), got)
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], tt.want[i]) {
					t.Errorf("read %s: document %d =\n%+v\nwant\n%+v", tt.file, i+1, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestReadBad(t *testing.T) {
	tests := []struct {
		name, file, in string
		format         Format
		wantErr        string // the first error without SkipBad
		wantDocs       int    // documents read with SkipBad
		wantSkipped    int
		fatal          bool // the error stops reading even with SkipBad
	}{
		{name: "no abstract", file: "papers.jsonl",
			in:      `{"abstract": "a"}` + "\n\n" + `{"title": "t"}` + "\n" + `{"abstract": "b"}`,
			wantErr: `papers.jsonl:3: no "abstract" field`, wantDocs: 2, wantSkipped: 1},
		{name: "invalid JSON", file: "x.jsonl",
			in:      `{"abstract": "a"}` + "\n" + `{"abstract": "b"}` + "\n" + `{"abstract": oops}` + "\n" + `{"abstract": "c"}`,
			wantErr: `x.jsonl:3: invalid JSON: invalid character 'o' looking for beginning of value`, wantDocs: 3, wantSkipped: 1},
		{name: "truncated JSON", file: "x.jsonl", in: `{"abstract": "a"`,
			wantErr: `x.jsonl:1: invalid JSON: unexpected end of JSON input`, wantSkipped: 1},
		{name: "not an object", file: "x.jsonl", in: `{"abstract": "a"}` + "\n[1, 2]",
			wantErr: `x.jsonl:2: record is a JSON array, want an object`, wantDocs: 1, wantSkipped: 1},
		{name: "abstract wrong type", file: "x.jsonl", in: `{"abstract": 42}`,
			wantErr: `x.jsonl:1: "abstract" is a JSON number, want a string`, wantSkipped: 1},
		{name: "title wrong type", file: "x.jsonl", in: `{"abstract": "a", "title": ["t"]}`,
			wantErr: `x.jsonl:1: "title" is a JSON array, want a string`, wantSkipped: 1},
		{name: "empty abstract", file: "x.jsonl", in: `{"abstract": " \n "}`,
			wantErr: `x.jsonl:1: "abstract" is empty`, wantSkipped: 1},
		{name: "bad year", file: "x.jsonl", in: `{"abstract": "a", "year": "soon"}`,
			wantErr: `x.jsonl:1: "year" is not a year: "soon"`, wantSkipped: 1},
		{name: "integral float year", file: "x.jsonl", in: `{"abstract": "a", "year": 2024.0}`, wantDocs: 1},
		{name: "fractional year", file: "x.jsonl", in: `{"abstract": "a", "year": 2024.5}`,
			wantErr: `x.jsonl:1: "year" is not a year: 2024.5`, wantSkipped: 1},
		{name: "authors wrong type", file: "x.jsonl", in: `{"abstract": "a", "authors": {"x": 1}}`,
			wantErr: `x.jsonl:1: "authors" is a JSON object, want an array or a string`, wantSkipped: 1},
		{name: "invalid UTF-8 jsonl", file: "x.jsonl", in: "{\"abstract\": \"a\xff\"}\n{\"abstract\": \"b\"}",
			wantErr: `x.jsonl:1: invalid UTF-8`, wantDocs: 1, wantSkipped: 1},
		{name: "invalid UTF-8 text", file: "a.txt",
			in:      "Header\n\nfirst\nparagraph\n\nbad \xff line\nstill bad\n\nthird",
			wantErr: `a.txt:6: invalid UTF-8`, wantDocs: 2, wantSkipped: 1},
		{name: "binary", file: "b.bin", in: "\x7fELF\x02\x01\x00\x00junk",
			wantErr: `b.bin:1: binary data (NUL byte)`, wantSkipped: 0, fatal: true},
		{name: "NUL later", file: "b.jsonl",
			in:      strings.Repeat(`{"abstract": "a"}`+"\n", 1000) + "\x00",
			wantErr: `b.jsonl:1001: binary data (NUL byte)`, wantDocs: 1000, fatal: true},
		{name: "empty", file: "empty.txt", in: "",
			wantErr: `empty.txt: empty file`, fatal: true},
		{name: "blank", file: "empty.txt", in: "\xef\xbb\xbf \n\t\n",
			wantErr: `empty.txt: empty file`, fatal: true},
		{name: "content not object", file: "n.jsonl", format: OpenReview, in: `{"id": "x", "content": "s"}`,
			wantErr: `n.jsonl:1: "content" is a JSON string, want an object`, wantSkipped: 1},
		{name: "note without abstract", file: "n.json",
			in:      `[{"id": "x", "content": {"title": {"value": "T"}}}, {"content": {"abstract": {"value": "A"}}}]`,
			wantErr: `n.json:1: no "content.abstract" field`, wantDocs: 1, wantSkipped: 1},
		{name: "note title wrong type", file: "n.json",
			in:      `[{"content": {"title": {"value": 3}, "abstract": {"value": "A"}}}]`,
			wantErr: `n.json:1: "content.title" is a JSON number, want a string`, wantSkipped: 1},
		{name: "array element not object", file: "n.json", in: "[\n1,\n{\"content\": {\"abstract\": \"A\"}}\n]",
			wantErr: `n.json:2: record is a JSON number, want an object`, wantDocs: 1, wantSkipped: 1},
		{name: "broken array", file: "n.json", in: "[\n{\"content\": {\"abstract\": \"A\"}},\n{\"content\": oops}]",
			wantErr: `n.json:3: invalid JSON: invalid character 'o' looking for beginning of value`, wantDocs: 1, fatal: true},
		{name: "unterminated array", file: "n.json", in: "[\n{\"content\": {\"abstract\": \"A\"}},\n",
			wantErr: `n.json:3: invalid JSON: unexpected end of file`, wantDocs: 1, fatal: true},
		{name: "data after array", file: "n.json", in: "[]\n[]",
			wantErr: `n.json:2: unexpected data after the JSON array`, fatal: true},
		{name: "notes not array", file: "n.json", in: `{"notes": 3}`,
			wantErr: `n.json:1: "notes" is not an array`, fatal: true},
		{name: "api response", file: "n.json", format: OpenReview,
			in:       `{"notes": [{"content": {"abstract": "A"}}], "count": 1, "next": {"a": [1]}}`,
			wantDocs: 1},
		{name: "unknown format", file: "x", format: "csv", in: "a",
			wantErr: `x: unknown input format "csv"`, fatal: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(t, NewReader(strings.NewReader(tt.in), tt.file, ReaderOptions{Format: tt.format}))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("read %q: %v; want no error", tt.in, err)
				}
			} else {
				var re *RecordError
				if !errors.As(err, &re) {
					t.Fatalf("read %q: error %v (%T); want a *RecordError", tt.in, err, err)
				}
				if err.Error() != tt.wantErr {
					t.Errorf("read %q: error %q; want %q", tt.in, err, tt.wantErr)
				}
			}
			var warned []error
			r := NewReader(strings.NewReader(tt.in), tt.file, ReaderOptions{
				Format: tt.format, SkipBad: true, Warn: func(err error) { warned = append(warned, err) },
			})
			docs, err := readAll(t, r)
			if (err != nil) != tt.fatal {
				t.Errorf("read %q with SkipBad: error %v; want fatal %v", tt.in, err, tt.fatal)
			}
			if len(docs) != tt.wantDocs || r.Skipped() != tt.wantSkipped || len(warned) != tt.wantSkipped {
				t.Errorf("read %q with SkipBad: %d documents, %d skipped, %d warnings; want %d, %d, %d",
					tt.in, len(docs), r.Skipped(), len(warned), tt.wantDocs, tt.wantSkipped, tt.wantSkipped)
			}
		})
	}
}

// TestReadContinues checks that Next goes on after a bad record when
// SkipBad is off, and keeps returning a fatal error.
func TestReadContinues(t *testing.T) {
	// The NUL byte comes after the first 8 KiB, which are checked at once.
	in := "{\"abstract\": \"a\"}\n{}\n{\"abstract\": \"b\"}\n" + strings.Repeat(" ", 9000) + "\x00"
	r := NewReader(strings.NewReader(in), "c.jsonl", ReaderOptions{})
	var got []string
	for range 6 {
		doc, err := r.Next()
		if err != nil {
			got = append(got, err.Error())
		} else {
			got = append(got, doc.Abstract)
		}
	}
	want := []string{"a", `c.jsonl:2: no "abstract" field`, "b", "c.jsonl:4: binary data (NUL byte)", "c.jsonl:4: binary data (NUL byte)", "c.jsonl:4: binary data (NUL byte)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Next results = %q; want %q", got, want)
	}
}

// hugeReader yields n bytes of a repeated byte without holding them.
type hugeReader struct {
	n int
	b byte
}

func (h *hugeReader) Read(p []byte) (int, error) {
	if h.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), h.n)
	for i := range p[:k] {
		p[i] = h.b
	}
	h.n -= k
	return k, nil
}

func TestReadHuge(t *testing.T) {
	const size = 10 << 20
	tests := []struct {
		name, file string
		r          io.Reader
		wantErr    string
	}{
		{"paragraph", "big.txt",
			io.MultiReader(strings.NewReader("Header\n\n"), &hugeReader{size, 'a'}, strings.NewReader("\n\nsmall one\n")),
			"big.txt:3: paragraph longer than 1 MiB"},
		{"paragraph of lines", "big.txt",
			io.MultiReader(strings.NewReader("Header\n\n"), strings.NewReader(strings.Repeat(strings.Repeat("w", 1000)+"\n", size/1000)), strings.NewReader("\nsmall one\n")),
			"big.txt:3: paragraph longer than 1 MiB"},
		{"line", "big.jsonl",
			io.MultiReader(strings.NewReader(`{"abstract": "`), &hugeReader{size, 'a'}, strings.NewReader("\"}\n{\"abstract\": \"small one\"}\n")),
			"big.jsonl:1: line longer than 1 MiB"},
		{"note", "big.json",
			io.MultiReader(strings.NewReader(`[{"content": {"abstract": "`), &hugeReader{size, 'a'}, strings.NewReader(`"}}]`)),
			"big.json:1: record longer than 1 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warned []string
			r := NewReader(tt.r, tt.file, ReaderOptions{SkipBad: true, Warn: func(err error) { warned = append(warned, err.Error()) }})
			docs, err := readAll(t, r)
			if err != nil {
				warned = append(warned, err.Error())
			}
			if len(warned) != 1 || warned[0] != tt.wantErr {
				t.Fatalf("errors %q; want [%q]", warned, tt.wantErr)
			}
			if tt.name != "note" && (len(docs) != 1 || docs[0].Abstract != "small one") {
				t.Errorf("documents %d after the long record; want the small one", len(docs))
			}
		})
	}
	// The reader must not hold the long record: it allocates far less.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := NewReader(io.MultiReader(strings.NewReader("Header\n\n"), &hugeReader{size, 'a'}), "big.txt", ReaderOptions{})
	readAll(t, r)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 6<<20 {
		t.Errorf("reading a %d-byte paragraph allocated %d bytes; want under 6 MiB", size, n)
	}
}

func TestReadCorpus(t *testing.T) {
	const path = "../../shared/corpus/papers.jsonl"
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("no corpus at %s: %v", path, err)
	}
	defer f.Close()
	docs, err := readAll(t, NewReader(f, path, ReaderOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 4275 {
		t.Errorf("read %s: %d documents; want 4275", path, len(docs))
	}
	for _, d := range docs {
		if d.Title == "" || d.Abstract == "" || d.Year == 0 || d.Source != "papers.jsonl" {
			t.Fatalf("read %s: incomplete document %+v", path, d)
		}
		checkClean(t, d.Abstract)
	}
}

func TestReadSeeds(t *testing.T) {
	files, _ := filepath.Glob("../seeds/*.txt")
	if len(files) == 0 {
		t.Skip("no seed files in ../seeds")
	}
	n := 0
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := readAll(t, NewReader(bufio.NewReader(f), name, ReaderOptions{}))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range docs {
			if d.Index != i+1 || strings.Contains(d.Abstract, "\n") || d.Abstract == "" {
				t.Errorf("%s: bad document %+v", name, d)
			}
		}
		n += len(docs)
	}
	if n != 38 {
		t.Errorf("read %d seed abstracts; want 38", n)
	}
}

// checkRead reads data in format and checks that it never panics, that
// every error is a *RecordError naming the file, and that documents are
// well formed.
func checkRead(t *testing.T, data []byte, format Format) {
	r := NewReader(strings.NewReader(string(data)), "fuzz.in", ReaderOptions{Format: format})
	var last error
	for range 10000 {
		doc, err := r.Next()
		if err == io.EOF || err != nil && err == last {
			return // the end, or a fatal error repeated
		}
		last = err
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) || re.File != "fuzz.in" || !strings.HasPrefix(err.Error(), "fuzz.in") {
				t.Fatalf("error %v (%T) does not name the file", err, err)
			}
			continue
		}
		if strings.TrimSpace(doc.Abstract) == "" || doc.Index < 1 || doc.Line < 1 || doc.Source != "fuzz.in" {
			t.Fatalf("bad document %+v", doc)
		}
	}
	t.Fatal("Next does not end")
}

func addReadSeeds(f *testing.F, files ...string) {
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join("testdata", "read", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

func FuzzReadSeedText(f *testing.F) {
	addReadSeeds(f, "seed.txt")
	f.Add([]byte("Header\n\npara one\nline two\n\n\n\npara \xff two\n"))
	f.Add([]byte("\xef\xbb\xbfH\r\n\r\nx\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, SeedText) })
}

func FuzzReadJSONLines(f *testing.F) {
	addReadSeeds(f, "plain.jsonl", "openreview_v2.jsonl", "arxiv.jsonl")
	f.Add([]byte(`{"abstract": "a", "year": "2024-01-01", "authors": "A and B, C"}` + "\n\n{}\n[1]\n{\"abstract\": 1}"))
	f.Add([]byte(`{"abstract": "a", "year": 1e99, "id": 1.5, "keywords": [1]}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, Auto) })
}

func FuzzReadOpenReview(f *testing.F) {
	addReadSeeds(f, "openreview_v2.json", "openreview_v2_api.json", "openreview_v1.json", "openreview_v2.jsonl")
	f.Add([]byte(`{"count": 1, "notes": [{"content": {"abstract": "A"}, "pdate": 9e99}], "x": [1]}`))
	f.Add([]byte(`[1, {"content": []}, {"content": {"abstract": {"value": null}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, OpenReview) })
}

func FuzzReadArXiv(f *testing.F) {
	addReadSeeds(f, "arxiv.jsonl")
	f.Add([]byte(`{"id": "1", "abstract": "a", "categories": 3, "update_date": "20x"}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, ArXiv) })
}

func BenchmarkReadJSONLines(b *testing.B) {
	var sb strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&sb, `{"id": "p%d", "title": "Paper %d", "abstract": "We present a model for visual question answering that improves accuracy on VQAv2 and GQA by large margins while using fewer parameters than prior work.", "authors": ["A. B", "C. D"], "year": 2025, "venue": "ICLR 2026", "url": "https://openreview.net/forum?id=p%d"}`+"\n", i, i, i)
	}
	data := sb.String()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(strings.NewReader(data), "bench.jsonl", ReaderOptions{})
		for {
			if _, err := r.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

func ExampleReader() {
	in := `{"title": "Dolphin", "abstract": "We propose Dolphin.", "year": 2026}
{"title": "no abstract"}
{"abstract": "We introduce C2C."}
`
	r := NewReader(strings.NewReader(in), "data/papers.jsonl", ReaderOptions{
		SkipBad: true,
		Warn:    func(err error) { fmt.Println("skip:", err) },
	})
	for {
		doc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s #%d line %d: %s\n", doc.Source, doc.Index, doc.Line, doc.Abstract)
	}
	fmt.Println("skipped:", r.Skipped())
	// Output:
	// papers.jsonl #1 line 1: We propose Dolphin.
	// skip: data/papers.jsonl:2: no "abstract" field
	// papers.jsonl #3 line 3: We introduce C2C.
	// skipped: 1
}
