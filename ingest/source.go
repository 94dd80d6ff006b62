package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/papergraph/papergraph/extract"
)

// A Source is a stream of documents to ingest.
type Source interface {
	// Next returns the next document, or io.EOF after the last. Any other
	// error ends the ingest, after the papers before it are written.
	Next() (extract.Document, error)
	// Skipped returns how many bad records the source has skipped so far.
	Skipped() int
	// Read returns how many bytes of input the source has read so far,
	// for progress.
	Read() int64
}

// FileSource reads files one after the other with extract's Reader. It
// is not safe for concurrent use; Run calls it from one goroutine.
type FileSource struct {
	// ctx is the one given to Files, which its reads observe (as an
	// exec.Cmd keeps its CommandContext's): Next has no context argument.
	ctx     context.Context
	fsys    fs.FS // nil: the operating system's files
	names   []string
	opts    extract.ReaderOptions
	f       io.ReadCloser
	r       *extract.Reader
	skipped int // records skipped by the files before the current one
	read    int64
}

// Files returns the Source of the named files, read in order with opts;
// Close closes the file being read. Once ctx ends, reading fails with its
// error within 64 KiB of input (see extract.ContextReader), even inside a
// run of lines that hold no record.
func Files(ctx context.Context, names []string, opts extract.ReaderOptions) *FileSource {
	return &FileSource{ctx: ctx, names: names, opts: opts}
}

// FilesFS is Files for files of fsys, such as the embedded seeds.
func FilesFS(ctx context.Context, fsys fs.FS, names []string, opts extract.ReaderOptions) *FileSource {
	return &FileSource{ctx: ctx, fsys: fsys, names: names, opts: opts}
}

// Next returns the next document of the files, opening each in turn. An
// error opening a file is returned as is; errors about the input are
// extract's *RecordError, naming the file and line.
func (s *FileSource) Next() (extract.Document, error) {
	for {
		if s.r == nil {
			if len(s.names) == 0 {
				return extract.Document{}, io.EOF
			}
			name := s.names[0]
			s.names = s.names[1:]
			f, err := s.open(name)
			if err != nil {
				return extract.Document{}, err
			}
			s.f = f
			s.r = extract.NewReader(extract.ContextReader(s.ctx, &countingReader{r: f, n: &s.read}), name, s.opts)
		}
		d, err := s.r.Next()
		if errors.Is(err, io.EOF) {
			s.skipped += s.r.Skipped()
			s.r = nil
			if err := s.Close(); err != nil {
				return extract.Document{}, err
			}
			continue
		}
		return d, err
	}
}

func (s *FileSource) open(name string) (io.ReadCloser, error) {
	if s.fsys == nil {
		return os.Open(name)
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return f, nil
}

// Skipped returns the bad records skipped so far, in every file read.
func (s *FileSource) Skipped() int {
	if s.r == nil {
		return s.skipped
	}
	return s.skipped + s.r.Skipped()
}

// Read returns the bytes read so far, in every file read.
func (s *FileSource) Read() int64 { return s.read }

// Close closes the file being read, if any.
func (s *FileSource) Close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// countingReader counts the bytes read through it, for progress.
type countingReader struct {
	r io.Reader
	n *int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}
