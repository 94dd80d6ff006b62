package extract

import (
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

func TestTokenKey(t *testing.T) {
	for _, s := range []string{"LLMs", "benchmarks", "class", "Transformer", "π-Light", "ÉCOLE", "gas", "s", "GRPO", "ΣΑΣ", "İstanbul Ⱥs", "\u212Aelvins"} {
		for _, tok := range tokenize(s) {
			h := fnv.New64a()
			h.Write([]byte(normToken(tok.text)))
			if want := h.Sum64(); tok.key != want {
				t.Errorf("key of %q in %q = %x; want FNV-1a of %q, %x", tok.text, s, tok.key, normToken(tok.text), want)
			}
		}
	}
}

func TestTable(t *testing.T) {
	var tab table
	want := map[uint64]uint32{}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		k := r.Uint64()>>uint(r.IntN(40)) | 1
		tab.put(k, uint32(i+1))
		want[k] = uint32(i + 1)
	}
	for k, v := range want {
		if got := tab.get(k); got != v {
			t.Fatalf("get(%x) = %d; want %d", k, got, v)
		}
	}
	if tab.n != len(want) {
		t.Errorf("n = %d; want %d", tab.n, len(want))
	}
	if got := tab.get(2); want[2] == 0 && got != 0 {
		t.Errorf("get of a missing key = %d; want 0", got)
	}
}
