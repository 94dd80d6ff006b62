package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/papergraph/papergraph/extract"
	"github.com/papergraph/papergraph/graph"
)

// A Stream is an endless stream of abstracts: generated, or read from a
// file and repeated. Documents are made one at a time, so a corpus of a
// million papers never sits in memory. A Stream is not safe for concurrent
// use.
type Stream interface {
	// Next returns the next document; the stream never ends on its own.
	Next() (extract.Document, error)
	Close() error
}

// Open returns the generated corpus of seed, whose entities are drawn from
// vocab (the extractor's Vocabulary), or the documents of file repeated
// when file is not empty.
func Open(vocab []graph.Entity, seed uint64, file string) (Stream, error) {
	if file != "" {
		return &fileStream{path: file}, nil
	}
	return newGenerator(vocab, seed), nil
}

// Limited is the first n documents of a Stream, as an ingest.Source: Next
// returns io.EOF after them.
type Limited struct {
	s    Stream
	n    int
	read int64 // bytes of the abstracts returned
}

// Take returns the first n documents of s.
func Take(s Stream, n int) *Limited { return &Limited{s: s, n: n} }

// Next returns the next document, or io.EOF after the nth.
func (l *Limited) Next() (extract.Document, error) {
	if l.n <= 0 {
		return extract.Document{}, io.EOF
	}
	d, err := l.s.Next()
	l.n--
	l.read += int64(len(d.Abstract))
	return d, err
}

// Skipped returns 0: a corpus file's bad records are skipped silently.
func (l *Limited) Skipped() int { return 0 }

// Read returns the bytes of the abstracts returned so far.
func (l *Limited) Read() int64 { return l.read }

// fileStream reads a corpus file with extract's Reader and starts again at
// its end. Each pass after the first appends " (variant k)" to titles and
// abstracts, so that every document is a new paper (paper ids hash the
// abstract) while the entities stay those of the real text.
type fileStream struct {
	path    string
	f       *os.File
	r       *extract.Reader
	pass    int // passes finished
	inPass  int // documents read in the current pass
	emitted int
}

func (c *fileStream) Next() (extract.Document, error) {
	for {
		if c.r == nil {
			f, err := os.Open(c.path)
			if err != nil {
				return extract.Document{}, err
			}
			c.f = f
			c.r = extract.NewReader(f, filepath.Base(c.path), extract.ReaderOptions{SkipBad: true})
			c.inPass = 0
		}
		d, err := c.r.Next()
		if errors.Is(err, io.EOF) {
			c.f.Close()
			c.f, c.r = nil, nil
			if c.inPass == 0 {
				return extract.Document{}, fmt.Errorf("corpus %s: no abstracts", c.path)
			}
			c.pass++
			continue
		}
		if err != nil {
			return extract.Document{}, err
		}
		c.inPass++
		c.emitted++
		// One running index across passes keeps (source, index) unique.
		d.Index = c.emitted
		if c.pass > 0 {
			suffix := fmt.Sprintf(" (variant %d)", c.pass)
			d.Abstract += suffix
			if d.Title != "" {
				d.Title += suffix
			}
		}
		return d, nil
	}
}

func (c *fileStream) Close() error {
	if c.f == nil {
		return nil
	}
	return c.f.Close()
}

// WriteJSONL writes the next n documents of c as JSON Lines that
// extract's Reader reads back (title, abstract, venue, year).
func WriteJSONL(w io.Writer, c Stream, n int) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for range n {
		d, err := c.Next()
		if err != nil {
			return err
		}
		rec := struct {
			Title    string `json:"title,omitempty"`
			Abstract string `json:"abstract"`
			Venue    string `json:"venue,omitempty"`
			Year     int    `json:"year,omitempty"`
		}{d.Title, d.Abstract, d.Venue, d.Year}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}
