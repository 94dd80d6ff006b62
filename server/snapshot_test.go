package server

import (
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestOneSnapshotPerResponse reads stats and a page's total count in one
// query while addPapers runs: the two always agree.
func TestOneSnapshotPerResponse(t *testing.T) {
	ts := newTestServer(t, 0, Options{WriteToken: "s3cret", Limits: Limits{ResponseCacheSize: -1}})
	const add = `mutation($in: [PaperInput!]!) { addPapers(input: $in) { added } }`
	stop := make(chan struct{})
	var writes sync.WaitGroup
	writes.Add(1)
	go func() {
		defer writes.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// fixtureExtract's ids follow the abstract's length.
			in := map[string]any{"in": []map[string]any{{"abstract": "New paper " + strings.Repeat("x", i)}}}
			if r := ts.post(t, add, in, "Authorization: Bearer s3cret"); len(r.Errors) > 0 {
				t.Errorf("addPapers: %+v", r.Errors)
				return
			}
		}
	}()
	var reads, disagree atomic.Int64
	var readers sync.WaitGroup
	deadline := time.Now().Add(2 * time.Second)
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for time.Now().Before(deadline) {
				r := ts.post(t, `{ stats { papers } papers(first: 1) { totalCount } }`, nil)
				var d struct {
					Stats  struct{ Papers int }
					Papers struct{ TotalCount int }
				}
				if err := json.Unmarshal(r.Data, &d); err != nil || len(r.Errors) > 0 {
					t.Errorf("read: %v %+v", err, r.Errors)
					return
				}
				reads.Add(1)
				if d.Stats.Papers != d.Papers.TotalCount {
					if disagree.Add(1) <= 3 {
						t.Logf("stats.papers %d, papers.totalCount %d", d.Stats.Papers, d.Papers.TotalCount)
					}
				}
			}
		}()
	}
	readers.Wait()
	close(stop)
	writes.Wait()
	r := ts.post(t, `{ stats { papers } }`, nil)
	t.Logf("%d reads during writes, %d disagreements; after: %s", reads.Load(), disagree.Load(), r.Data)
	if disagree.Load() > 0 {
		t.Errorf("%d of %d responses disagreed with themselves; want 0", disagree.Load(), reads.Load())
	}
}
