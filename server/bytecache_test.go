package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestByteLRU(t *testing.T) {
	ctx := context.Background()
	size := func(k, v string) int64 { return int64(len(k) + len(v)) }
	tests := []struct {
		name    string
		entries int
		bytes   int64
		add     []string // values, under keys k0, k1, ...
		kept    string   // keys kept at the end, in order
		inBytes int64
	}{
		{"within bounds", 10, 1000, []string{"a", "b"}, "k0 k1", 6},
		{"the entries bound drops the oldest", 2, 1000, []string{"a", "b", "c"}, "k1 k2", 6},
		// Entries of 12 bytes: 8 fit in 100.
		{"the bytes bound drops the oldest", 100, 100, strings.Fields(strings.Repeat("xxxxxxxxxx ", 10)), "k2 k3 k4 k5 k6 k7 k8 k9", 96},
		{"an entry over an eighth is not kept", 10, 80, []string{"a", strings.Repeat("x", 20)}, "k0", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newByteLRU(tt.entries, tt.bytes, size)
			for i, v := range tt.add {
				c.Add(ctx, fmt.Sprintf("k%d", i), v)
			}
			var kept []string
			for i := range tt.add {
				if _, ok := c.Get(ctx, fmt.Sprintf("k%d", i)); ok {
					kept = append(kept, fmt.Sprintf("k%d", i))
				}
			}
			if got := strings.Join(kept, " "); got != tt.kept {
				t.Errorf("kept %q; want %q", got, tt.kept)
			}
			if got := c.Bytes(); got != tt.inBytes {
				t.Errorf("Bytes() = %d; want %d", got, tt.inBytes)
			}
		})
	}
}
