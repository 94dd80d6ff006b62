package extract

// table is an open-addressing hash table from non-zero uint64 keys to
// uint32 values, with linear probing and at most half its slots full. The
// matcher looks every token of every abstract up in one, several times:
// this costs a fraction of a Go map lookup, which dominated extraction.
// It is built once and then only read, so it is safe for concurrent
// readers.
type table struct {
	keys []uint64
	vals []uint32
	mask uint64
	n    int
}

// get returns the value of key, or 0.
func (t *table) get(key uint64) uint32 {
	if t.n == 0 {
		return 0
	}
	for i := mix(key) & t.mask; ; i = (i + 1) & t.mask {
		switch t.keys[i] {
		case key:
			return t.vals[i]
		case 0:
			return 0
		}
	}
}

// put sets key to val; key must not be 0.
func (t *table) put(key uint64, val uint32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	for i := mix(key) & t.mask; ; i = (i + 1) & t.mask {
		switch t.keys[i] {
		case key:
			t.vals[i] = val
			return
		case 0:
			t.keys[i], t.vals[i] = key, val
			t.n++
			return
		}
	}
}

func (t *table) grow() {
	old, oldVals := t.keys, t.vals
	size := max(2*len(old), 1024)
	t.keys, t.vals, t.mask, t.n = make([]uint64, size), make([]uint32, size), uint64(size-1), 0
	for i, k := range old {
		if k != 0 {
			t.put(k, oldVals[i])
		}
	}
}

// mix spreads the bits of keys that differ only in their high or low half
// (trie keys are node<<32 | token).
func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}
