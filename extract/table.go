package extract

// table is an open-addressing hash table from non-zero uint64 keys to
// uint32 values, with linear probing and at most half its slots full. The
// matcher looks every token of every abstract up in one, several times:
// this costs a fraction of a Go map lookup, which dominated extraction.
// It is built once and then only read, so it is safe for concurrent
// readers.
type table struct {
	slots []slot
	mask  uint64
	n     int
}

// slot holds a key beside its value, so that a hit reads one cache line.
type slot struct {
	key uint64
	val uint32
}

// get returns the value of key, or 0.
func (t *table) get(key uint64) uint32 {
	if t.n == 0 {
		return 0
	}
	for i := mix(key) & t.mask; ; i = (i + 1) & t.mask {
		switch sl := &t.slots[i]; sl.key {
		case key:
			return sl.val
		case 0:
			return 0
		}
	}
}

// put sets key to val; key must not be 0.
func (t *table) put(key uint64, val uint32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	for i := mix(key) & t.mask; ; i = (i + 1) & t.mask {
		switch sl := &t.slots[i]; sl.key {
		case key:
			sl.val = val
			return
		case 0:
			*sl = slot{key, val}
			t.n++
			return
		}
	}
}

func (t *table) grow() {
	old := t.slots
	size := max(2*len(old), 1024)
	t.slots, t.mask, t.n = make([]slot, size), uint64(size-1), 0
	for _, sl := range old {
		if sl.key != 0 {
			t.put(sl.key, sl.val)
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
