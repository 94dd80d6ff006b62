package bench

import (
	"testing"
	"time"
)

func TestPercentilesOf(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	tests := []struct {
		name string
		ds   []time.Duration
		want percentiles
	}{
		{"none", nil, percentiles{}},
		{"one", ms(7), percentiles{7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond}},
		{"unsorted", ms(5, 1, 4, 2, 3), percentiles{3 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond}},
		{"hundred", ms(func() []int {
			var xs []int
			for i := 100; i >= 1; i-- {
				xs = append(xs, i)
			}
			return xs
		}()...), percentiles{50 * time.Millisecond, 95 * time.Millisecond, 99 * time.Millisecond, 100 * time.Millisecond}},
	}
	for _, tt := range tests {
		if got := percentilesOf(tt.ds); got != tt.want {
			t.Errorf("percentilesOf(%s) = %v; want %v", tt.name, got, tt.want)
		}
	}
}

func TestProcStatus(t *testing.T) {
	st := procStatus()
	if st == nil {
		t.Skip("no /proc/self/status")
	}
	if st["VmHWM"] <= 0 || st["VmRSS"] <= 0 {
		t.Errorf("procStatus() = VmHWM %d, VmRSS %d; want both positive", st["VmHWM"], st["VmRSS"])
	}
}
