package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dgraph-io/badger/v4"
	"github.com/kljensen/snowball/english"

	"github.com/papergraph/papergraph/graph"
)

// stopWords are common English words left out of the full-text index: they
// occur in nearly every abstract, so they cost postings and add nothing to
// BM25's ranking.
var stopWords = map[string]bool{
	"an": true, "and": true, "are": true, "as": true, "at": true, "be": true,
	"but": true, "by": true, "for": true, "from": true, "has": true, "have": true,
	"in": true, "into": true, "is": true, "it": true, "its": true, "of": true,
	"on": true, "or": true, "such": true, "that": true, "the": true, "their": true,
	"then": true, "there": true, "these": true, "this": true, "to": true,
	"was": true, "we": true, "were": true, "which": true, "while": true,
	"with": true, "our": true, "can": true, "not": true, "than": true, "also": true,
}

// stopWordLen is the length of the longest stop word: longer terms need
// no lookup.
var stopWordLen = func() int {
	n := 0
	for w := range stopWords {
		n = max(n, len(w))
	}
	return n
}()

// terms returns the full-text terms of text in order, repeats kept: text
// is lower-cased and split at every character other than a letter or a
// digit; stop words and terms shorter than two characters are dropped,
// and each term left is reduced to its English stem (see stemmer), so
// "agents" finds "agent". The index (0x0A, 0x0B, 0x0E) and queries must
// both use it so they agree. It returns nil for text without terms.
func terms(text string) []string {
	var out []string
	var st stemmer
	eachTerm(text, nil, func(t []byte) { out = append(out, st.stem(t)) })
	return out
}

// eachTerm calls fn with each term of text as terms returns them but not
// stemmed, in a buffer that buf lends and fn must not keep: indexing a
// paper counts its terms in a table and stems only the distinct ones.
func eachTerm(text string, buf []byte, fn func(t []byte)) []byte {
	emit := func(t []byte) {
		// A rune takes at most 4 bytes: only shorter terms need counting.
		if len(t) < 5 && utf8.RuneCount(t) < 2 || len(t) <= stopWordLen && stopWords[string(t)] {
			return
		}
		fn(t)
	}
	t := buf[:0]
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			// ASCII, most of any abstract: no decoding, no tables.
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				emit(t)
				t = t[:0]
				continue
			}
			t = append(t, c)
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			emit(t)
			t = t[:0]
			continue
		}
		t = utf8.AppendRune(t, unicode.ToLower(r))
	}
	emit(t)
	return t
}

// A stemmer reduces lower-case words to their stems by the Snowball
// English (Porter2) algorithm, so that "agents" and "agent", "benchmarks"
// and "benchmarking" are one term of the index and of a query. Stemming a
// word costs about a microsecond and allocates; the same words recur
// paper after paper, so each stemmer remembers up to maxStemMemo of them.
// The zero stemmer is ready to use; one is not safe for concurrent use.
type stemmer struct{ memo map[string]string }

// maxStemMemo bounds a stemmer's memory: about 10 MB.
const maxStemMemo = 1 << 17

// stem returns the stem of the lower-case word w.
func (st *stemmer) stem(w []byte) string {
	if s, ok := st.memo[string(w)]; ok {
		return s
	}
	return st.miss(string(w))
}

// stemString is stem for a string, which the stemmer does not keep.
func (st *stemmer) stemString(w string) string {
	if s, ok := st.memo[w]; ok {
		return s
	}
	return st.miss(strings.Clone(w))
}

// miss stems word and remembers it.
func (st *stemmer) miss(word string) string {
	s := english.Stem(word, false)
	if st.memo == nil {
		st.memo = make(map[string]string, 1024)
	}
	if len(st.memo) < maxStemMemo {
		st.memo[word] = s
	}
	return s
}

// stemName returns the stemmed form of an entity name or alias kept in
// the stemmed name index (0x10): its words (runs of letters and digits,
// lower-cased, none dropped) stemmed and joined by one space, so that
// "vision-language models" and "Vision Language Model" both give "vision
// languag model". Unlike terms it keeps short words and stop words, so
// that "GPT-4" stays "gpt 4", apart from "GPT-3". It returns "" for a name
// without letters or digits.
func stemName(name string, st *stemmer) string {
	var b strings.Builder
	var word []byte
	flush := func() {
		if len(word) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(st.stem(word))
		word = word[:0]
	}
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = utf8.AppendRune(word, unicode.ToLower(r))
			continue
		}
		flush()
	}
	flush()
	return b.String()
}

// paperText is the text indexed for full-text search.
func paperText(p *graph.Paper) []string { return []string{p.Name, p.Label, p.Title, p.Abstract} }

// termFreqs returns the frequency of each term of p's indexed text and
// the number of terms (the document length of BM25).
func termFreqs(p *graph.Paper) (map[string]uint32, int) {
	tf := make(map[string]uint32, 128)
	n := 0
	var buf []byte
	var st stemmer
	for _, s := range paperText(p) {
		buf = eachTerm(s, buf, func(t []byte) {
			tf[st.stem(t)]++
			n++
		})
	}
	return tf, n
}

// textTerms are the distinct terms of a paper's text, in byte order, with
// their frequencies, and the text's length in terms.
type textTerms struct {
	terms  []termTF
	length int
}

type termTF struct {
	t  string
	tf uint32
}

// termScratch is the memory textTermsOf reuses from paper to paper: one
// per goroutine.
type termScratch struct {
	buf, all []byte
	ends     []int32
	slots    []int32 // hash table: index in distinct, or -1
	distinct []termTF
	keys     []uint64
	seed     maphash.Seed
	seeded   bool
	stems    stemmer
}

func textTermsOf(p *graph.Paper, sc *termScratch) textTerms {
	// The terms are copied into one string, counted in a small hash table
	// and only the distinct ones stemmed and sorted: sorting all of them
	// cost twice as much, a map more (check counts them with one,
	// termFreqs, and compares), and stemming each term 70% more than all
	// the rest.
	all, ends := sc.all[:0], sc.ends[:0]
	for _, s := range paperText(p) {
		sc.buf = eachTerm(s, sc.buf, func(t []byte) {
			all = append(all, t...)
			ends = append(ends, int32(len(all)))
		})
	}
	joined := string(all)
	size := 16
	for size < 2*len(ends) {
		size <<= 1
	}
	if cap(sc.slots) < size {
		sc.slots = make([]int32, size)
	}
	slots := sc.slots[:size]
	for i := range slots {
		slots[i] = -1
	}
	if !sc.seeded {
		sc.seed, sc.seeded = maphash.MakeSeed(), true
	}
	mask := uint64(size - 1)
	distinct := sc.distinct[:0]
	start := int32(0)
	for _, end := range ends {
		t := joined[start:end]
		start = end
		for i := maphash.String(sc.seed, t) & mask; ; i = (i + 1) & mask {
			d := slots[i]
			if d < 0 {
				slots[i] = int32(len(distinct))
				distinct = append(distinct, termTF{t, 1})
				break
			}
			if distinct[d].t == t {
				distinct[d].tf++
				break
			}
		}
	}
	for i := range distinct {
		distinct[i].t = sc.stems.stemString(distinct[i].t)
	}
	out := make([]termTF, len(distinct))
	sc.keys = sortTerms(out, distinct, sc.keys)
	// Words with one stem ("agent", "agents") are one term.
	n := 0
	for _, x := range out {
		if n > 0 && out[n-1].t == x.t {
			out[n-1].tf += x.tf
			continue
		}
		out[n] = x
		n++
	}
	out = slices.Clip(out[:n])
	clear(distinct)
	sc.all, sc.ends, sc.distinct = all, ends, distinct[:0]
	return textTerms{out, len(ends)}
}

// sortTerms sets out to terms in byte order of their strings. It sorts
// integers made of each term's first 6 bytes and its index, then only
// the terms that share those bytes by string: sorting by string compared
// strings of mostly distinct first bytes, at a tenth of the speed. keys
// is scratch memory, returned.
func sortTerms(out, terms []termTF, keys []uint64) []uint64 {
	if len(terms) > 1<<16 {
		copy(out, terms)
		slices.SortFunc(out, func(a, b termTF) int { return strings.Compare(a.t, b.t) })
		return keys
	}
	keys = keys[:0]
	for i, x := range terms {
		var b [8]byte
		copy(b[:6], x.t) // zero-padded: 0 sorts before every byte of a term
		keys = append(keys, binary.BigEndian.Uint64(b[:])|uint64(i))
	}
	slices.Sort(keys)
	for i, k := range keys {
		out[i] = terms[k&0xffff]
	}
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>16 == keys[i]>>16 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(out[i:j], func(a, b termTF) int { return strings.Compare(a.t, b.t) })
		}
		i = j
	}
	return keys
}

// textRecordSize bounds the size of the text record of terms.
func textRecordSize(terms []termTF) int {
	n := 2 * binary.MaxVarintLen64
	for _, x := range terms {
		n += len(x.t) + 2*binary.MaxVarintLen32
	}
	return n
}

// indexText adds paper id with text p to this transaction's postings
// block, and writes its text record.
func (w *writer) indexText(id string, p *graph.Paper) error {
	var tt textTerms
	if w.pre != nil {
		tt = w.pre.text
	} else {
		tt = textTermsOf(p, &w.scratch)
	}
	sorted, n := tt.terms, tt.length
	if w.block == 0 {
		if err := w.addCounter(counterBlocks, 1); err != nil {
			return err
		}
		w.block = w.counter[counterBlocks].cur
	}
	var rec []byte
	if w.pre != nil {
		rec = binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(w.pre.textRecord)), w.block)
		rec = append(rec, w.pre.textRecord...)
	} else {
		r := textRecord{block: w.block, length: uint64(n), terms: sorted}
		rec = r.append(make([]byte, 0, textRecordSize(sorted)))
	}
	var pid paperKeyID
	copy(pid[:], id)
	for _, x := range sorted {
		e := w.term(x.t)
		e.posts = append(e.posts, posting{pid, x.tf})
		e.df++
	}
	w.bytes += len(sorted) * (graph.PaperIDLen/2 + 2)
	w.set(textKey(id), rec)
	return w.addCounter(counterDocLen, int64(n))
}

// unindexText takes paper id's postings out of the block its text record
// names, and its terms out of the document frequencies and lengths.
func (w *writer) unindexText(id string) error {
	v, ok, err := w.get(textKey(id))
	if err != nil || !ok {
		return err
	}
	r, err := decodeTextRecord(v)
	if err != nil {
		return fmt.Errorf("paper %s: %w", id, err)
	}
	var pid paperKeyID
	copy(pid[:], id)
	other := func(p posting) bool { return p.id == pid }
	for _, x := range r.terms {
		t := x.t
		e := w.term(t)
		e.df--
		if r.block == w.block {
			e.posts = slices.DeleteFunc(e.posts, other)
		} else {
			key := postingKey(t, r.block)
			ps, seen := w.edits[string(key)]
			if !seen {
				var err error
				if ps, err = w.postings(key, t, r.block); err != nil {
					return err
				}
				w.entries++
				w.bytes += len(key) + len(ps)*(graph.PaperIDLen/2+2) + 20
			}
			w.edits[string(key)] = slices.DeleteFunc(ps, other)
		}
	}
	return w.addCounter(counterDocLen, -int64(r.length))
}

// postings returns a copy of the postings block at key (term t, number b),
// as the pipeline's last transaction left it when it wrote it.
func (w *writer) postings(key []byte, t string, b uint64) ([]posting, error) {
	if p := w.prev; p != nil {
		if b == p.block {
			if e := p.terms[t]; e != nil {
				return slices.Clone(e.posts), nil
			}
			return nil, nil
		}
		if ps, ok := p.edits[string(key)]; ok {
			return slices.Clone(ps), nil
		}
	}
	v, err := w.txn.Get(key)
	if err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
		return nil, err
	}
	var ps []posting
	if err := decodePostings(v, func(p posting) bool { ps = append(ps, p); return true }); err != nil {
		return nil, fmt.Errorf("term %q block %d: %w", t, b, err)
	}
	return ps, nil
}
