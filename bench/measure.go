package bench

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"time"
)

// percentiles are percentiles of a set of durations.
type percentiles struct{ p50, p95, p99, max time.Duration }

func percentilesOf(ds []time.Duration) percentiles {
	if len(ds) == 0 {
		return percentiles{}
	}
	slices.Sort(ds)
	rank := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(ds)))) - 1
		return ds[max(0, min(i, len(ds)-1))]
	}
	return percentiles{rank(0.50), rank(0.95), rank(0.99), ds[len(ds)-1]}
}

func micros(d time.Duration) float64 { return roundTo(float64(d)/float64(time.Microsecond), 1) }

func millis(d time.Duration) float64 { return roundTo(float64(d)/float64(time.Millisecond), 3) }

func roundTo(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// diskBytes returns the bytes of the files under dir. Badger truncates its
// preallocated files when it closes, so this is the database's size once
// the store is closed.
func diskBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		return nil
	})
	return n, err
}

// procStatus returns the memory figures of /proc/self/status in bytes
// ("VmHWM" is the peak RSS, "RssAnon" the heap and other private memory,
// "RssFile" the mapped file pages), or nil where it does not exist (not
// Linux).
func procStatus() map[string]int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil
	}
	m := map[string]int64{}
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		if kb, ok := strings.CutSuffix(strings.TrimSpace(v), " kB"); ok {
			if n, err := strconv.ParseInt(kb, 10, 64); err == nil {
				m[k] = n << 10
			}
		}
	}
	return m
}

// memPeaks samples the resident memory by kind until stop is closed: the
// kernel keeps the peak of the total (VmHWM) but not of its parts. Anon is
// private memory, the Go heap and so Badger's memtables and caches (built
// without jemalloc, Badger allocates from the Go heap); file is mapped
// files, Badger's tables, which the kernel can reclaim; live is the Go
// heap that the last GC found reachable, the rest of anon being garbage
// not yet collected and GOGC's headroom.
func memPeaks(stop <-chan struct{}) (anon, file, live int64) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for {
		st := procStatus()
		anon, file = max(anon, st["RssAnon"]), max(file, st["RssFile"]+st["RssShmem"])
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live = max(live, int64(sample[0].Value.Uint64()))
		}
		select {
		case <-t.C:
		case <-stop:
			return anon, file, live
		}
	}
}

func machineInfo() Machine {
	m := Machine{CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Go: runtime.Version()}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				m.MemBytes = kb << 10
			}
		}
	}
	return m
}
