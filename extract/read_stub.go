package extract

// STUB: the readers helper replaces this file with read.go, keeping these
// names (it may add to them).

import (
	"errors"
	"io"
)

var errNotImplemented = errors.New("not implemented")

// Document is one paper as read from an input file, before extraction.
type Document struct {
	Source   string // base name of the file
	Index    int    // 1-based record (or paragraph) number in the file
	Line     int    // 1-based line where the record starts, for messages
	ID       string // the source's own id (OpenReview, arXiv), if any
	Title    string
	Abstract string
	Authors  []string
	Year     int
	Venue    string
	URL      string
	Keywords []string
}

// Format is an input format.
type Format string

// Input formats. Auto detects the format from the content.
const (
	Auto       Format = ""
	SeedText   Format = "text"
	JSONLines  Format = "jsonl"
	OpenReview Format = "openreview"
	ArXiv      Format = "arxiv"
)

// ReaderOptions configures a Reader.
type ReaderOptions struct {
	Format Format
	// SkipBad skips bad records instead of failing; each one is reported to
	// Warn (when not nil) and counted in Reader.Skipped.
	SkipBad bool
	Warn    func(error)
}

// Reader streams Documents from one input.
type Reader struct{}

// NewReader returns a Reader of r; name is the file name used in Document
// and in error messages.
func NewReader(r io.Reader, name string, opts ReaderOptions) *Reader { return &Reader{} }

// Next returns the next document, or io.EOF after the last.
func (r *Reader) Next() (Document, error) { return Document{}, errNotImplemented }

// Skipped returns how many bad records were skipped so far.
func (r *Reader) Skipped() int { return 0 }
