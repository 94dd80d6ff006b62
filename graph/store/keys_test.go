package store

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

func TestKeys(t *testing.T) {
	pid := "0123456789abcdef"
	tests := []struct {
		name string
		key  []byte
		want []byte
	}{
		{"version", versionKey(), []byte("\x00version")},
		{"paper", paperKey(pid), []byte("\x010123456789abcdef")},
		{"entity", entityKey("dataset:gsm8k"), []byte("\x02dataset:gsm8k")},
		{"paper edges", edgesKey(pid), []byte("\x030123456789abcdef")},
		{"entity edge", entityEdgeKey("task:qa", pid), []byte("\x04task:qa\x000123456789abcdef")},
		{"degree", degreeKey("task:qa"), []byte("\x05task:qa")},
		{"top", topKey(graph.Dataset, 2, "dataset:x"), []byte("\x06\x03\xff\xff\xff\xff\xff\xff\xff\xfddataset:x")},
		{"name", nameKey("gpt-4", "technique:gpt-4"), []byte("\x07gpt-4\x00technique:gpt-4")},
		{"broader", broaderKey("dataset:a-g", "dataset:a"), []byte("\x08dataset:a-g\x00dataset:a")},
		{"narrower", narrowerKey("dataset:a", "dataset:a-g"), []byte("\x09dataset:a\x00dataset:a-g")},
		{"posting", postingKey("agent", 258), []byte("\x0aagent\x00\x00\x00\x00\x00\x00\x00\x01\x02")},
		{"doc freq", docFreqKey("agent"), []byte("\x0bagent")},
		{"counter", counterKey("papers"), []byte("\x0cpapers")},
		{"source", sourceKey("a.jsonl", 258), []byte("\x0da.jsonl\x00\x00\x00\x01\x02")},
		{"text", textKey(pid), []byte("\x0e0123456789abcdef")},
		{"correction", correctionKey("task:peft"), []byte("\x0ftask:peft")},
		{"stem", stemKey("vision languag model", "technique:vlm"), []byte("\x10vision languag model\x00technique:vlm")},
	}
	for _, tt := range tests {
		if !bytes.Equal(tt.key, tt.want) {
			t.Errorf("%s key = %q; want %q", tt.name, tt.key, tt.want)
		}
	}
}

// TestTopKeyOrder checks that a forward scan of a kind's top keys meets the
// highest degree first.
func TestTopKeyOrder(t *testing.T) {
	hi, lo := topKey(graph.Task, 1000, "task:z"), topKey(graph.Task, 3, "task:a")
	if bytes.Compare(hi, lo) >= 0 {
		t.Errorf("topKey(1000) >= topKey(3); want higher degrees first")
	}
	if !bytes.HasPrefix(hi, topPrefix(graph.Task)) || bytes.HasPrefix(hi, topPrefix(graph.Dataset)) {
		t.Errorf("topKey(Task, ...) = %q; want under topPrefix(Task) only", hi)
	}
}

func TestParseBadKeys(t *testing.T) {
	bad := [][]byte{nil, []byte("\x04no-separator"), []byte("\x04task:qa\x00short"), {prefixTop, 1, 2}, []byte("\x0dsrc\x00\x01"), []byte("\x0aterm\x00short")}
	for _, k := range bad {
		if _, _, err := parseEntityEdgeKey(k); err == nil {
			t.Errorf("parseEntityEdgeKey(%q) succeeded; want an error", k)
		}
		if _, _, _, err := parseTopKey(k); err == nil {
			t.Errorf("parseTopKey(%q) succeeded; want an error", k)
		}
		if _, _, err := parseSourceKey(k); err == nil {
			t.Errorf("parseSourceKey(%q) succeeded; want an error", k)
		}
		if _, _, err := parsePostingKey(k); err == nil {
			t.Errorf("parsePostingKey(%q) succeeded; want an error", k)
		}
	}
}

// FuzzKeys round-trips every key constructor through its parser. Ids come
// from the fuzzer as an entity name (made a valid id by EntityID) and a
// paper number; terms, names and sources as free text without the 0x00
// separator, which the store never puts inside a key field.
func FuzzKeys(f *testing.F) {
	f.Add(uint8(3), "GSM8K", uint64(7), "agent", "a.jsonl", uint32(1), uint64(12))
	f.Add(uint8(4), "Vision-Language Model", uint64(0), "über", "seeds/x.txt", uint32(1<<31), uint64(0))
	f.Fuzz(func(t *testing.T, kind uint8, name string, paper uint64, term, source string, index uint32, degree uint64) {
		k := graph.Kind(kind%4 + 1)
		eid := graph.EntityID(k, name)
		pid := corpus.PaperID(paper)
		if graph.Slug(name) == "" || bytes.IndexByte([]byte(term+source), sep) >= 0 || term == "" {
			t.Skip()
		}
		ids := []string{eid, graph.EntityID(k, term+"x")}
		slices.Sort(ids)
		if got, err := decodeEdges(appendEdges(nil, idKinds(ids...))); err != nil || !slices.Equal(got, ids) {
			t.Errorf("decodeEdges(appendEdges(%q)) = %q, %v", ids, got, err)
		}
		decodeEdges([]byte(name)) // must not panic
		if e, p, err := parseEntityEdgeKey(entityEdgeKey(eid, pid)); err != nil || p != pid || e != eid {
			t.Errorf("parseEntityEdgeKey(entityEdgeKey(%q, %q)) = %q, %q, %v", eid, pid, e, p, err)
		}
		if gk, gd, ge, err := parseTopKey(topKey(k, degree, eid)); err != nil || gk != k || gd != degree || ge != eid {
			t.Errorf("parseTopKey(topKey(%v, %d, %q)) = %v, %d, %q, %v", k, degree, eid, gk, gd, ge, err)
		}
		if parseIDKey(correctionKey(eid)) != eid {
			t.Errorf("parseIDKey(correctionKey(%q)) = %q", eid, parseIDKey(correctionKey(eid)))
		}
		var st stemmer
		if stem := stemName(term, &st); stem != "" {
			if n, e, err := parseStemKey(stemKey(stem, eid)); err != nil || n != stem || e != eid {
				t.Errorf("parseStemKey(stemKey(%q, %q)) = %q, %q, %v", stem, eid, n, e, err)
			}
			if !bytes.HasPrefix(stemKey(stem, eid), stemPrefix(stem)) {
				t.Errorf("stemKey(%q, %q) not under stemPrefix", stem, eid)
			}
		}
		norm := graph.NormName(term)
		if norm != "" {
			if n, e, err := parseNameKey(nameKey(norm, eid)); err != nil || n != norm || e != eid {
				t.Errorf("parseNameKey(nameKey(%q, %q)) = %q, %q, %v", norm, eid, n, e, err)
			}
		}
		for _, prefix := range []byte{prefixBroader, prefixNarrower} {
			other := graph.EntityID(k, term)
			if graph.Slug(term) == "" {
				continue
			}
			key := broaderKey(eid, other)
			if prefix == prefixNarrower {
				key = narrowerKey(eid, other)
			}
			if a, b, err := parseTaxonomyKey(prefix, key); err != nil || a != eid || b != other {
				t.Errorf("parseTaxonomyKey(%#x, %q) = %q, %q, %v", prefix, key, a, b, err)
			}
			if p := taxonomyPrefix(prefix, eid); !bytes.HasPrefix(key, p) || taxonomyTarget(p, key) != other {
				t.Errorf("taxonomyTarget(taxonomyPrefix(%#x, %q), %q) = %q; want %q", prefix, eid, key, taxonomyTarget(p, key), other)
			}
		}
		for _, c := range []struct {
			key []byte
			id  string
		}{{paperKey(pid), pid}, {entityKey(eid), eid}, {edgesKey(pid), pid}, {degreeKey(eid), eid}, {docFreqKey(term), term}, {counterKey(term), term}, {textKey(pid), pid}} {
			if got := parseIDKey(c.key); got != c.id {
				t.Errorf("parseIDKey(%q) = %q; want %q", c.key, got, c.id)
			}
		}
		for _, key := range [][]byte{paperKey(pid), edgesKey(pid), entityEdgeKey(eid, pid), textKey(pid)} {
			if got := string(keyPaperID(key)); got != pid {
				t.Errorf("keyPaperID(%q) = %q; want %q", key, got, pid)
			}
		}
		if got := appendEntityEdgePrefix(nil, eid); !bytes.Equal(got, entityEdgePrefix(eid)) {
			t.Errorf("appendEntityEdgePrefix(%q) = %q; want %q", eid, got, entityEdgePrefix(eid))
		}
		if !edgesHaveKind(k)(appendEdges(nil, idKinds(ids...))) {
			t.Errorf("edgesHaveKind(%v)(edges of %q) = false; want true", k, ids)
		}
		if tm, b, err := parsePostingKey(postingKey(term, uint64(index))); err != nil || tm != term || b != uint64(index) {
			t.Errorf("parsePostingKey(postingKey(%q, %d)) = %q, %d, %v", term, index, tm, b, err)
		}
		// Postings blocks and text records round-trip.
		var id paperKeyID
		copy(id[:], pid)
		ps := []posting{{id, uint32(index%1000) + 1}}
		var got []posting
		if err := decodePostings(appendPostings(nil, ps), func(p posting) bool { got = append(got, p); return true }); err != nil || !slices.Equal(got, ps) {
			t.Errorf("decodePostings(appendPostings(%v)) = %v, %v", ps, got, err)
		}
		r := textRecord{block: uint64(index), length: 7}
		for _, tm := range terms(name + " " + term) {
			if !slices.Contains(r.terms, termTF{tm, 1}) {
				r.terms = append(r.terms, termTF{tm, 1})
			}
		}
		slices.SortFunc(r.terms, func(a, b termTF) int { return strings.Compare(a.t, b.t) })
		if back, err := decodeTextRecord(r.append(nil)); err != nil || !reflect.DeepEqual(back, r) {
			t.Errorf("decodeTextRecord(%+v.append) = %+v, %v", r, back, err)
		}
		decodeTextRecord([]byte(term)) // must not panic
		decodePostings([]byte(term), func(posting) bool { return true })
		if source != "" {
			if s, i, err := parseSourceKey(sourceKey(source, int(index))); err != nil || s != source || i != int(index) {
				t.Errorf("parseSourceKey(sourceKey(%q, %d)) = %q, %d, %v", source, index, s, i, err)
			}
		}
		if gk, slug, err := graph.ParseEntityID(eid); err != nil || gk != k || slug != graph.Slug(name) {
			t.Errorf("ParseEntityID(%q) = %v, %q, %v", eid, gk, slug, err)
		}
		// Every term is a valid posting key field: no separator, no empty.
		for _, tm := range terms(name + " " + term) {
			if tm == "" || bytes.IndexByte([]byte(tm), sep) >= 0 {
				t.Errorf("terms(%q) produced %q", name+" "+term, tm)
			}
		}
	})
}

// idKinds returns ids as entity references for appendEdges, which
// encodes only the ids.
func idKinds(ids ...string) []idKind {
	out := make([]idKind, len(ids))
	for i, id := range ids {
		out[i].id = id
	}
	return out
}
