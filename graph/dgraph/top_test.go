package dgraph

import (
	"math"
	"testing"
)

func TestRankBounds(t *testing.T) {
	tests := []struct {
		name  string
		x     float64
		scale float64
	}{
		{"score", 0.40243723025785487, scoreRank},
		{"small score", 1e-13, scoreRank},
		{"zero", 0, scoreRank},
		{"large score", 7.123456789012345, scoreRank},
		{"count", 41, wholeRank},
	}
	for _, tt := range tests {
		r := rankOf(tt.x, tt.scale)
		lo, hi := rankBounds(r, tt.scale)
		if lo > tt.x || hi < tt.x {
			t.Errorf("%s: rankBounds(%v) = [%v, %v]; want it to hold %v", tt.name, r, lo, hi, tt.x)
		}
		below, above := math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
		if rankOf(lo, tt.scale) != r || rankOf(hi, tt.scale) != r || rankOf(below, tt.scale) == r || rankOf(above, tt.scale) == r {
			t.Errorf("%s: rankBounds(%v) = [%v, %v]: not the exact interval of the rank", tt.name, r, lo, hi)
		}
	}
}
