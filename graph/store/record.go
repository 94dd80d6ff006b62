package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/papergraph/papergraph/graph"
)

// Paper records (0x01) are binary. Traversals decode hundreds of records
// per call, and JSON cost about 25µs for a record with thirty mentions,
// most of a papersSharing query; this encoding decodes in a few
// microseconds with one allocation for all the strings, and it stores a
// mention's text and entity as references where it can.
//
// A record is, in order:
//
//	field                       | encoding
//	----------------------------+-------------------------------------------------
//	version                     | byte, recordVersion
//	ID, Name, Label, Title,     | each a string: uvarint length, bytes
//	Abstract, Source, URL, Venue|
//	Index, Year                 | varint each
//	Authors, Keywords           | uvarint count, then strings
//	Entities, Ancestors         | uvarint count, then kind (byte) and name (string) each
//	Mentions                    | uvarint count, then for each: kind (byte), start, end
//	                            | (uvarints), entity (uvarint: i+1 for Entities[i].Name,
//	                            | 0 then a string), text (byte 0: Abstract[start:end],
//	                            | 1 then a string; 2 and 3 likewise of Title, for
//	                            | a mention InTitle)
//
// Entities and Ancestors keep only their kind and name: their records
// live under 0x02.
const recordVersion byte = 1

var errRecord = errors.New("bad paper record")

// appendPaperRecord appends the record of p to b.
// paperRecordSize is about the size of p's record: enough that
// appendPaperRecord seldom grows its buffer.
func paperRecordSize(p *graph.Paper) int {
	n := 64 + len(p.ID) + len(p.Name) + len(p.Label) + len(p.Title) + len(p.Abstract) + len(p.Source) + len(p.URL) + len(p.Venue)
	for _, list := range [][]string{p.Authors, p.Keywords} {
		for _, s := range list {
			n += len(s) + 2
		}
	}
	for _, list := range [][]graph.Entity{p.Entities, p.Ancestors} {
		for _, e := range list {
			n += len(e.Name) + 3
		}
	}
	return n + 8*len(p.Mentions)
}

func appendPaperRecord(b []byte, p *graph.Paper) []byte {
	b = append(b, recordVersion)
	for _, s := range []string{p.ID, p.Name, p.Label, p.Title, p.Abstract, p.Source, p.URL, p.Venue} {
		b = appendString(b, s)
	}
	b = binary.AppendVarint(b, int64(p.Index))
	b = binary.AppendVarint(b, int64(p.Year))
	for _, list := range [][]string{p.Authors, p.Keywords} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, s := range list {
			b = appendString(b, s)
		}
	}
	for _, list := range [][]graph.Entity{p.Entities, p.Ancestors} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, e := range list {
			b = append(b, byte(e.Kind))
			b = appendString(b, e.Name)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(p.Mentions)))
	for _, m := range p.Mentions {
		b = append(b, byte(m.Kind))
		b = binary.AppendUvarint(b, uint64(max(m.Start, 0)))
		b = binary.AppendUvarint(b, uint64(max(m.End, 0)))
		ref := 0
		for i, e := range p.Entities {
			if e.Kind == m.Kind && e.Name == m.Entity {
				ref = i + 1
				break
			}
		}
		b = binary.AppendUvarint(b, uint64(ref))
		if ref == 0 {
			b = appendString(b, m.Entity)
		}
		in, flag := p.Abstract, byte(0)
		if m.InTitle {
			in, flag = p.Title, 2
		}
		if m.Start >= 0 && m.Start <= m.End && m.End <= len(in) && in[m.Start:m.End] == m.Text {
			b = append(b, flag)
		} else {
			b = append(b, flag+1)
			b = appendString(b, m.Text)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decodePaperRecord decodes a record into p. Its strings share one
// allocation, a copy of v.
func decodePaperRecord(v []byte, p *graph.Paper) error { return decodeRecord(string(v), p, 0) }

// decodeFrozenRecord is decodePaperRecord without the copy, for a v that
// is never modified, as the read cache's values and the copies read into
// it are: p's strings point into v. The copy was a quarter of the
// decoding, which papersSharing does twenty times per query. The parts
// in omit are left empty (see decodeRecord).
func decodeFrozenRecord(v []byte, p *graph.Paper, omit graph.PaperParts) error {
	return decodeRecord(unsafe.String(unsafe.SliceData(v), len(v)), p, omit)
}

// decodeRecord decodes v into p, but for the parts in omit, which it
// leaves empty: it stops reading after the last part asked for, and
// steps over an omitted part before one asked for without allocating.
// The mentions refer to the entities, which are decoded with them
// whatever omit says. Only a whole decode checks that nothing follows.
func decodeRecord(v string, p *graph.Paper, omit graph.PaperParts) error {
	if len(v) == 0 || v[0] != recordVersion {
		return fmt.Errorf("%w: version %x, want %d", errRecord, v[:min(len(v), 1)], recordVersion)
	}
	d := recordDecoder{s: v[1:]}
	*p = graph.Paper{}
	for _, f := range []*string{&p.ID, &p.Name, &p.Label, &p.Title, &p.Abstract, &p.Source, &p.URL, &p.Venue} {
		*f = d.string()
	}
	p.Index = d.int()
	p.Year = d.int()
	lists := omit&graph.PaperLists == 0
	mentions := omit&graph.PaperMentions == 0
	entities := omit&graph.PaperEntities == 0 || mentions
	if !lists && !entities {
		return d.err
	}
	for _, list := range []*[]string{&p.Authors, &p.Keywords} {
		n := d.count()
		if !lists {
			for range n {
				d.string()
			}
			continue
		}
		if n > 0 {
			*list = make([]string, n)
			for i := range *list {
				(*list)[i] = d.string()
			}
		}
	}
	if !entities {
		return d.err
	}
	for _, list := range []*[]graph.Entity{&p.Entities, &p.Ancestors} {
		if n := d.count(); n > 0 {
			*list = make([]graph.Entity, n)
			for i := range *list {
				(*list)[i] = graph.Entity{Kind: graph.Kind(d.byte()), Name: d.string()}
			}
		}
	}
	if !mentions {
		return d.err
	}
	if n := d.count(); n > 0 {
		p.Mentions = make([]graph.Mention, n)
		for i := range p.Mentions {
			m := &p.Mentions[i]
			m.Kind = graph.Kind(d.byte())
			m.Start, m.End = d.offset(), d.offset()
			switch ref := d.uvarint(); {
			case ref == 0:
				m.Entity = d.string()
			case ref <= uint64(len(p.Entities)):
				m.Entity = p.Entities[ref-1].Name
			default:
				d.fail("mention entity %d of %d", ref, len(p.Entities))
			}
			flag := d.byte()
			in := p.Abstract
			if m.InTitle = flag == 2 || flag == 3; m.InTitle {
				in = p.Title
			}
			switch flag {
			case 0, 2:
				if 0 <= m.Start && m.Start <= m.End && m.End <= len(in) {
					m.Text = in[m.Start:m.End]
				} else {
					d.fail("mention at %d:%d of %d bytes", m.Start, m.End, len(in))
				}
			case 1, 3:
				m.Text = d.string()
			default:
				d.fail("mention text flag")
			}
		}
	}
	if d.err == nil && len(d.s) > 0 {
		d.fail("%d trailing bytes", len(d.s))
	}
	return d.err
}

// recordDecoder reads a record's fields from s; after the first error
// every read returns zero.
type recordDecoder struct {
	s   string
	err error
}

func (d *recordDecoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errRecord, fmt.Sprintf(format, args...))
	}
	d.s = ""
}

func (d *recordDecoder) byte() byte {
	if len(d.s) == 0 {
		d.fail("truncated")
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

func (d *recordDecoder) uvarint() uint64 {
	var x uint64
	for shift := uint(0); ; shift += 7 {
		if len(d.s) == 0 || shift > 63 {
			d.fail("truncated or overlong number")
			return 0
		}
		c := d.s[0]
		d.s = d.s[1:]
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
}

func (d *recordDecoder) int() int {
	u := d.uvarint()
	x := int64(u >> 1) // zigzag, as binary.AppendVarint writes
	if u&1 != 0 {
		x = ^x
	}
	return int(x)
}

// offset reads a byte offset.
func (d *recordDecoder) offset() int {
	n := d.uvarint()
	if n > math.MaxInt32 {
		d.fail("offset %d", n)
		return 0
	}
	return int(n)
}

// count reads a list length, bounded by the bytes left (every element
// takes at least one), so a corrupt length cannot allocate much.
func (d *recordDecoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.s)) || n > math.MaxInt32 {
		d.fail("count %d with %d bytes left", n, len(d.s))
		return 0
	}
	return int(n)
}

func (d *recordDecoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		d.fail("string of %d bytes with %d left", n, len(d.s))
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}
