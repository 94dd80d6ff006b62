package extract

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

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

// Input formats. Auto detects the format from the content: a file whose
// first non-blank byte is '[' (or that starts {"notes": [) is an OpenReview
// array, one starting with '{' is JSON Lines, where each record is read as
// an OpenReview note when it has a "content" object, as arXiv metadata when
// it has "categories" and "update_date", and as a plain record otherwise;
// anything else is seed text.
const (
	Auto       Format = ""
	SeedText   Format = "text"
	JSONLines  Format = "jsonl"
	OpenReview Format = "openreview"
	ArXiv      Format = "arxiv"
)

// MaxRecord is the longest record (JSON line, array element or paragraph)
// a Reader accepts, in bytes. Longer ones are discarded as they are read,
// without being held in memory, and reported as bad records.
const MaxRecord = 1 << 20

// ReaderOptions configures a Reader.
type ReaderOptions struct {
	Format Format
	// SkipBad skips bad records instead of failing; each one is reported to
	// Warn (when not nil) and counted in Reader.Skipped.
	SkipBad bool
	Warn    func(error)
}

// RecordError is a problem with the input, at a line of a file (Line is 0
// when the problem is the whole file) and, when known, in a field.
type RecordError struct {
	File  string
	Line  int
	Field string // JSON field, such as "abstract" or "content.title"
	Err   error
}

// Error formats the error as file:line: message, or file: message.
func (e *RecordError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns the underlying error.
func (e *RecordError) Unwrap() error { return e.Err }

var (
	errEmpty   = errors.New("empty file")
	errBinary  = errors.New("binary data (NUL byte)")
	errUTF8    = errors.New("invalid UTF-8")
	errTooLong = errors.New("record longer than 1 MiB")
)

// Reader streams Documents from one input, holding at most a few MiB
// whatever the input's size. A Reader is not safe for concurrent use.
type Reader struct {
	br     *bufio.Reader
	name   string // for errors
	source string // for Documents
	opts   ReaderOptions

	started bool
	array   bool   // an OpenReview JSON array, read with dec
	kind    Format // the record format when forced, else Auto
	fatal   error  // sticky: the rest of the input is unreadable (or io.EOF)
	line    int    // lines consumed
	index   int    // records started
	skipped int
	buf     []byte // the current line, at most MaxRecord bytes
	para    []byte // the current paragraph of seed text
	header  bool   // seed text: the header line was read

	dec      *json.Decoder
	cr       *countingReader
	inObject bool // the array is the "notes" member of an object
}

// NewReader returns a Reader of r; name is the file name used in error
// messages, and its base name is Document.Source.
func NewReader(r io.Reader, name string, opts ReaderOptions) *Reader {
	return &Reader{
		br:     bufio.NewReaderSize(r, 64<<10),
		name:   name,
		source: filepath.Base(name),
		opts:   opts,
	}
}

// ContextReader returns a reader of r whose reads fail with ctx's error
// once ctx has ended. A Reader consumes lines that hold no record (blank
// lines between paragraphs, the rest of a record too long to keep)
// within one call of Next, so its caller cannot stop it between calls:
// `(printf 'H\n'; yes "") | papergraph extract /dev/stdin` read 13.8 GB
// through Ctrl-C. Through ContextReader, Next stops within one buffer
// (64 KiB) of ctx's end with a *RecordError wrapping ctx's error. A Read
// blocked on its source stays blocked until that returns.
func ContextReader(ctx context.Context, r io.Reader) io.Reader {
	return contextReader{ctx: ctx, r: r}
}

// contextReader keeps the context its reads observe, as exec.Cmd does:
// Reader.Next has no context argument of its own.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Skipped returns how many bad records were skipped so far.
func (r *Reader) Skipped() int { return r.skipped }

// Next returns the next document, or io.EOF after the last. Errors about
// the input are *RecordError. After a bad record Next may be called again
// to go on with the next one; after an error that leaves the rest of the
// input unreadable (binary data, broken JSON array, read failure) Next
// keeps returning that error. With SkipBad, bad records are skipped and
// only such errors are returned.
func (r *Reader) Next() (Document, error) {
	for {
		if r.fatal != nil {
			return Document{}, r.fatal
		}
		doc, err := r.next()
		if err == nil {
			return doc, nil
		}
		if r.fatal != nil || !r.opts.SkipBad {
			return Document{}, err
		}
		r.skipped++
		if r.opts.Warn != nil {
			r.opts.Warn(err)
		}
	}
}

func (r *Reader) next() (Document, error) {
	if !r.started {
		r.started = true
		if err := r.detect(); err != nil {
			return Document{}, r.fail(err)
		}
	}
	switch {
	case r.array:
		return r.nextElement()
	case r.kind == SeedText:
		return r.nextParagraph()
	default:
		return r.nextLine()
	}
}

// fail makes err sticky and returns it.
func (r *Reader) fail(err error) error {
	r.fatal = err
	return err
}

func (r *Reader) errorf(line int, field string, format string, args ...any) *RecordError {
	return &RecordError{File: r.name, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
}

func (r *Reader) recordError(line int, err error) *RecordError {
	return &RecordError{File: r.name, Line: line, Err: err}
}

// detect skips a byte order mark and leading whitespace, rejects empty and
// binary files, and chooses how to read the rest.
func (r *Reader) detect() error {
	if b, _ := r.br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		r.br.Discard(3)
	}
	peek, err := r.br.Peek(8 << 10)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return r.recordError(1, err)
	}
	if k := bytes.IndexByte(peek, 0); k >= 0 {
		return r.recordError(1+bytes.Count(peek[:k], []byte("\n")), errBinary)
	}
	var first byte
	for {
		b, err := r.br.ReadByte()
		if err == io.EOF {
			return &RecordError{File: r.name, Err: errEmpty}
		}
		if err != nil {
			return r.recordError(r.line+1, err)
		}
		if b == '\n' {
			r.line++
		}
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			first = b
			r.br.UnreadByte()
			break
		}
	}
	r.kind = r.opts.Format
	switch r.opts.Format {
	case SeedText, JSONLines, ArXiv:
		return nil
	case Auto, OpenReview:
	default:
		return &RecordError{File: r.name, Err: fmt.Errorf("unknown input format %q", r.opts.Format)}
	}
	switch {
	case first == '[':
		r.array = true
	case first == '{':
		// {"notes": [...]} is an OpenReview API response; any other object
		// starts JSON Lines.
		peek, _ := r.br.Peek(64)
		rest := bytes.TrimLeft(peek[1:], " \t\r\n")
		r.array = bytes.HasPrefix(rest, []byte(`"notes"`))
	case r.opts.Format == Auto:
		r.kind = SeedText
	}
	return nil
}

// readLine returns the next line without its line ending, or io.EOF. A line
// longer than MaxRecord is discarded as it is read and reported with
// tooLong. The line is valid until the next call.
func (r *Reader) readLine() (line []byte, tooLong bool, err error) {
	r.buf = r.buf[:0]
	read := 0
	for {
		chunk, err := r.br.ReadSlice('\n')
		read += len(chunk)
		if bytes.IndexByte(chunk, 0) >= 0 {
			return nil, false, r.fail(r.recordError(r.line+1, errBinary))
		}
		if !tooLong {
			if len(r.buf)+len(chunk) > MaxRecord+2 { // +2: the line ending
				tooLong, r.buf = true, r.buf[:0]
			} else {
				r.buf = append(r.buf, chunk...)
			}
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
		case io.EOF:
			if read == 0 {
				return nil, false, io.EOF
			}
		default:
			return nil, false, r.fail(r.recordError(r.line+1, err))
		}
		r.line++
		return bytes.TrimRight(r.buf, "\r\n"), tooLong, nil
	}
}

// nextLine reads a JSON Lines record; blank lines are no records.
func (r *Reader) nextLine() (Document, error) {
	for {
		line, tooLong, err := r.readLine()
		if err != nil {
			return Document{}, r.fail(err)
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 && !tooLong {
			continue
		}
		r.index++
		switch {
		case tooLong:
			return Document{}, r.errorf(r.line, "", "line longer than 1 MiB")
		case !utf8.Valid(line):
			return Document{}, r.recordError(r.line, errUTF8)
		}
		return r.record(line, r.line)
	}
}

// nextParagraph reads a paragraph of seed text: its lines joined by one
// space, after the header line that names the collection.
func (r *Reader) nextParagraph() (Document, error) {
	r.para = r.para[:0]
	start := 0
	var bad error
	for {
		line, tooLong, err := r.readLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Document{}, r.fail(err)
		}
		if !tooLong && len(bytes.TrimSpace(line)) == 0 {
			if start > 0 {
				break
			}
			continue
		}
		if !r.header {
			r.header = true
			continue
		}
		if start == 0 {
			start = r.line
			r.index++
		}
		if bad != nil {
			continue // discard the rest of a bad paragraph
		}
		line = bytes.TrimSpace(line)
		switch {
		case tooLong || len(r.para)+1+len(line) > MaxRecord:
			bad = r.errorf(start, "", "paragraph longer than 1 MiB")
			r.para = r.para[:0]
		case !utf8.Valid(line):
			bad = r.recordError(r.line, errUTF8)
		default:
			if len(r.para) > 0 {
				r.para = append(r.para, ' ')
			}
			r.para = append(r.para, line...)
		}
	}
	if start == 0 {
		return Document{}, r.fail(io.EOF)
	}
	if bad != nil {
		return Document{}, bad
	}
	return Document{Source: r.source, Index: r.index, Line: start, Abstract: string(r.para)}, nil
}

// nextElement reads the next note of an OpenReview JSON array.
func (r *Reader) nextElement() (Document, error) {
	if r.dec == nil {
		r.cr = &countingReader{r: r.br, line: r.line, name: r.name}
		r.cr.mark()
		r.dec = json.NewDecoder(r.cr)
		if err := r.openArray(); err != nil {
			return Document{}, r.fail(err)
		}
	}
	if !r.dec.More() {
		if err := r.closeArray(); err != nil {
			return Document{}, r.fail(err)
		}
		return Document{}, r.fail(io.EOF)
	}
	r.cr.mark()
	var raw json.RawMessage
	if err := r.dec.Decode(&raw); err != nil {
		return Document{}, r.fail(r.jsonError(err))
	}
	line := r.cr.lineAt(r.dec.InputOffset() - int64(len(raw)))
	r.index++
	if !utf8.Valid(raw) {
		return Document{}, r.recordError(line, errUTF8)
	}
	return r.record(raw, line)
}

// openArray consumes the tokens up to the first note: '[' or {"notes": [.
func (r *Reader) openArray() error {
	tok, err := r.dec.Token()
	if err != nil {
		return r.jsonError(err)
	}
	if tok == json.Delim('[') {
		return nil
	}
	if tok != json.Delim('{') {
		return r.recordError(r.line+1, errors.New("want a JSON array or object of notes"))
	}
	r.inObject = true
	for r.dec.More() {
		key, err := r.dec.Token()
		if err != nil {
			return r.jsonError(err)
		}
		if key == "notes" {
			tok, err := r.dec.Token()
			if err != nil {
				return r.jsonError(err)
			}
			if tok != json.Delim('[') {
				return r.errorf(r.cr.lineAt(r.dec.InputOffset()), "notes", `"notes" is not an array`)
			}
			return nil
		}
		if err := r.skipValue(); err != nil {
			return err
		}
	}
	return r.errorf(r.cr.lineAt(r.dec.InputOffset()), "notes", `no "notes" array`)
}

// closeArray consumes ']' and, in an API response, the members after the
// notes, and checks that nothing follows.
func (r *Reader) closeArray() error {
	if _, err := r.dec.Token(); err != nil { // ']'
		return r.jsonError(err)
	}
	if r.inObject {
		for r.dec.More() {
			if _, err := r.dec.Token(); err != nil {
				return r.jsonError(err)
			}
			if err := r.skipValue(); err != nil {
				return err
			}
		}
		if _, err := r.dec.Token(); err != nil { // '}'
			return r.jsonError(err)
		}
	}
	if _, err := r.dec.Token(); err != io.EOF {
		if err != nil {
			return r.jsonError(err)
		}
		return r.recordError(r.cr.lineAt(r.dec.InputOffset()), errors.New("unexpected data after the JSON array"))
	}
	return nil
}

func (r *Reader) skipValue() error {
	r.cr.mark()
	var skip json.RawMessage
	if err := r.dec.Decode(&skip); err != nil {
		return r.jsonError(err)
	}
	return nil
}

// jsonError turns an error of the array decoder into a RecordError.
func (r *Reader) jsonError(err error) error {
	var re *RecordError
	if errors.As(err, &re) {
		return re
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return r.errorf(r.cr.lineAt(se.Offset), "", "invalid JSON: %v", err)
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return r.errorf(r.cr.lineAt(r.cr.off), "", "invalid JSON: unexpected end of file")
	}
	return r.recordError(r.cr.lineAt(r.dec.InputOffset()), err)
}

// countingReader feeds the array decoder: it remembers where the lines
// start in the bytes the decoder has not yet consumed, rejects NUL bytes,
// and bounds how much the decoder reads for one value, so that a huge note
// fails instead of filling memory.
type countingReader struct {
	r    io.Reader
	name string
	off  int64   // bytes read
	nl   []int64 // offsets of newlines not yet passed by lineAt
	line int     // lines ending before nl[0]
	lim  int64   // offset beyond which the current value is too long
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.off > c.lim {
		return 0, &RecordError{File: c.name, Line: c.lineAt(c.lim), Err: errTooLong}
	}
	p = p[:min(len(p), 64<<10)]
	n, err := c.r.Read(p)
	b := p[:n]
	if k := bytes.IndexByte(b, 0); k >= 0 {
		return 0, &RecordError{File: c.name, Line: c.lineAt(c.off + int64(k)), Err: errBinary}
	}
	for k, base := 0, c.off; ; {
		j := bytes.IndexByte(b[k:], '\n')
		if j < 0 {
			break
		}
		c.nl = append(c.nl, base+int64(k+j))
		k += j + 1
	}
	c.off += int64(n)
	return n, err
}

// mark starts a new value: the decoder may read up to MaxRecord bytes past
// what it has already buffered.
func (c *countingReader) mark() { c.lim = c.off + MaxRecord + 64<<10 }

// lineAt returns the 1-based line of offset off; offsets must not decrease
// from call to call.
func (c *countingReader) lineAt(off int64) int {
	k := 0
	for k < len(c.nl) && c.nl[k] < off {
		k++
	}
	c.line += k
	c.nl = c.nl[:copy(c.nl, c.nl[k:])]
	return c.line + 1
}

// rawRecord has every field the formats use; each is decoded by type
// later, so that a wrong type is reported by field name.
type rawRecord struct {
	ID         json.RawMessage `json:"id"`
	Title      json.RawMessage `json:"title"`
	Abstract   json.RawMessage `json:"abstract"`
	Authors    json.RawMessage `json:"authors"`
	Year       json.RawMessage `json:"year"`
	Venue      json.RawMessage `json:"venue"`
	URL        json.RawMessage `json:"url"`
	Keywords   json.RawMessage `json:"keywords"`
	Content    json.RawMessage `json:"content"`
	Categories json.RawMessage `json:"categories"`
	UpdateDate json.RawMessage `json:"update_date"`
	JournalRef json.RawMessage `json:"journal-ref"`
	PDate      json.RawMessage `json:"pdate"`
	ODate      json.RawMessage `json:"odate"`
	CDate      json.RawMessage `json:"cdate"`
}

// noteContent is the content of an OpenReview note; in API v2 each field
// is {"value": ...}, in v1 the value itself.
type noteContent struct {
	Title    json.RawMessage `json:"title"`
	Abstract json.RawMessage `json:"abstract"`
	Authors  json.RawMessage `json:"authors"`
	Keywords json.RawMessage `json:"keywords"`
	Venue    json.RawMessage `json:"venue"`
}

// record decodes one JSON record that starts at line.
func (r *Reader) record(raw []byte, line int) (Document, error) {
	if raw[0] != '{' {
		if !json.Valid(raw) {
			var v any
			err := json.Unmarshal(raw, &v)
			return Document{}, r.errorf(line, "", "invalid JSON: %v", err)
		}
		return Document{}, r.errorf(line, "", "record is a JSON %s, want an object", jsonType(raw))
	}
	var rec rawRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return Document{}, r.errorf(line, "", "invalid JSON: %v", err)
	}
	f := fields{r: r, line: line}
	doc := Document{Source: r.source, Index: r.index, Line: line}
	kind := r.kind
	if kind == Auto || kind == JSONLines {
		switch {
		case len(rec.Content) > 0 && rec.Content[0] == '{':
			kind = OpenReview
		case present(rec.Categories) && present(rec.UpdateDate):
			kind = ArXiv
		}
	}
	switch kind {
	case OpenReview:
		var c noteContent
		if !present(rec.Content) {
			return Document{}, r.errorf(line, "content", `no "content" field`)
		}
		if err := json.Unmarshal(rec.Content, &c); err != nil {
			return Document{}, r.errorf(line, "content", `"content" is a JSON %s, want an object`, jsonType(rec.Content))
		}
		doc.ID = f.id("id", rec.ID)
		doc.Title = oneLine(f.str("content.title", f.value(c.Title)))
		doc.Abstract = f.abstract("content.abstract", f.value(c.Abstract))
		doc.Authors = f.list("content.authors", f.value(c.Authors), true)
		doc.Keywords = f.list("content.keywords", f.value(c.Keywords), false)
		doc.Venue = oneLine(f.str("content.venue", f.value(c.Venue)))
		for _, d := range []struct {
			name string
			raw  json.RawMessage
		}{{"pdate", rec.PDate}, {"odate", rec.ODate}, {"cdate", rec.CDate}} {
			if doc.Year == 0 && present(d.raw) {
				doc.Year = f.millisYear(d.name, d.raw)
			}
		}
		if doc.ID != "" {
			doc.URL = "https://openreview.net/forum?id=" + doc.ID
		}
	case ArXiv:
		doc.ID = f.id("id", rec.ID)
		doc.Title = oneLine(f.str("title", rec.Title))
		doc.Abstract = f.abstract("abstract", rec.Abstract)
		doc.Authors = f.list("authors", rec.Authors, true)
		doc.Keywords = strings.Fields(f.str("categories", rec.Categories))
		doc.Year = f.year("update_date", rec.UpdateDate)
		doc.Venue = oneLine(f.str("journal-ref", rec.JournalRef))
		if doc.Venue == "" {
			doc.Venue = "arXiv"
		}
		if doc.ID != "" {
			doc.URL = "https://arxiv.org/abs/" + doc.ID
		}
	default:
		doc.ID = f.id("id", rec.ID)
		doc.Title = oneLine(f.str("title", rec.Title))
		doc.Abstract = f.abstract("abstract", rec.Abstract)
		doc.Authors = f.list("authors", rec.Authors, true)
		doc.Keywords = f.list("keywords", rec.Keywords, false)
		doc.Year = f.year("year", rec.Year)
		doc.Venue = oneLine(f.str("venue", rec.Venue))
		doc.URL = strings.TrimSpace(f.str("url", rec.URL))
	}
	if f.err != nil {
		return Document{}, f.err
	}
	return doc, nil
}

// fields decodes the fields of one record, keeping the first error.
type fields struct {
	r    *Reader
	line int
	err  error
}

func (f *fields) fail(field, format string, args ...any) {
	if f.err == nil {
		f.err = f.r.errorf(f.line, field, format, args...)
	}
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// jsonType names the JSON type of a valid value.
func jsonType(raw []byte) string {
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// value unwraps an OpenReview API v2 {"value": x} to x.
func (f *fields) value(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || raw[0] != '{' {
		return raw
	}
	var v struct {
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	return v.Value
}

func (f *fields) str(field string, raw json.RawMessage) string {
	if !present(raw) {
		return ""
	}
	if raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		// The record was validated as a whole: without escapes the string
		// is its bytes between the quotes.
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		f.fail(field, "%q is a JSON %s, want a string", field, jsonType(raw))
		return ""
	}
	return s
}

func (f *fields) abstract(field string, raw json.RawMessage) string {
	if !present(raw) {
		f.fail(field, "no %q field", field)
		return ""
	}
	s := strings.TrimSpace(f.str(field, raw))
	if s == "" {
		f.fail(field, "%q is empty", field)
	}
	return s
}

// id accepts a string or a number.
func (f *fields) id(field string, raw json.RawMessage) string {
	if present(raw) && jsonType(raw) == "number" {
		return string(raw)
	}
	return strings.TrimSpace(f.str(field, raw))
}

// list accepts an array of strings or one string of items separated by
// commas (and by " and " for names).
func (f *fields) list(field string, raw json.RawMessage, names bool) []string {
	if !present(raw) {
		return nil
	}
	var items []string
	switch raw[0] {
	case '[':
		if json.Unmarshal(raw, &items) != nil {
			f.fail(field, "%q is not an array of strings", field)
			return nil
		}
	case '"':
		for _, part := range strings.Split(f.str(field, raw), ",") {
			if names {
				items = append(items, strings.Split(part, " and ")...)
			} else {
				items = append(items, part)
			}
		}
	default:
		f.fail(field, "%q is a JSON %s, want an array or a string", field, jsonType(raw))
		return nil
	}
	out := items[:0]
	for _, it := range items {
		if it = oneLine(it); it != "" {
			out = append(out, it)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// year accepts a number or a string that starts with a four-digit year
// ("2024", "2024-05-01").
func (f *fields) year(field string, raw json.RawMessage) int {
	if !present(raw) {
		return 0
	}
	s := string(raw)
	if raw[0] == '"' {
		s = strings.TrimSpace(f.str(field, raw))
		if len(s) > 4 && s[4] >= '0' && s[4] <= '9' {
			s = "" // not four digits
		} else if len(s) > 4 {
			s = s[:4]
		}
	} else if raw[0] < '0' || raw[0] > '9' {
		f.fail(field, "%q is a JSON %s, want a year", field, jsonType(raw))
		return 0
	}
	y, err := strconv.Atoi(s)
	if fy, ferr := strconv.ParseFloat(s, 64); err != nil && ferr == nil && fy == float64(int(fy)) {
		y, err = int(fy), nil // 2024.0
	}
	if err != nil || y < 1 || y > 9999 {
		f.fail(field, "%q is not a year: %s", field, raw)
		return 0
	}
	return y
}

// millisYear reads an OpenReview timestamp in milliseconds since 1970.
func (f *fields) millisYear(field string, raw json.RawMessage) int {
	ms, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		f.fail(field, "%q is not a timestamp in milliseconds: %.40s", field, raw)
		return 0
	}
	return time.UnixMilli(ms).UTC().Year()
}

// oneLine trims s and collapses its whitespace runs to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
