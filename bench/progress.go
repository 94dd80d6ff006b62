package bench

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows a phase's progress: a bar on a terminal, else a log
// line every five seconds. add may be called from several goroutines.
type progress struct {
	bar   *progressbar.ProgressBar
	w     io.Writer // the bar's terminal
	log   *slog.Logger
	phase string
	total int64
	done  atomic.Int64
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
}

func (b *bench) newProgress(phase, unit string, total int64) *progress {
	p := &progress{log: b.log, phase: phase, total: total, start: time.Now(), stop: make(chan struct{})}
	if f, ok := b.cfg.Progress.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.w = f
		p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription(phase),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionOnCompletion(func() { fmt.Fprintln(f) }))
		return p
	}
	p.wg.Go(func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				n := p.done.Load()
				p.log.Info(phase, "done", n, "of", total, "per_s", roundTo(float64(n)/time.Since(p.start).Seconds(), 0))
			case <-p.stop:
				return
			}
		}
	})
	return p
}

// add counts n more done. The bar stops one short of total, so that it
// stays alive (a full bar no longer draws) through a final step that has
// nothing to count (see step); finish fills it.
func (p *progress) add(n int) {
	done := p.done.Add(int64(n))
	if p.bar != nil && done < p.total {
		p.bar.Set64(done)
	}
}

// step says that the final step named name began.
func (p *progress) step(name string) {
	if p.bar != nil {
		// A line of its own, now: the bar draws at most every 200 ms,
		// and nothing moves it again until the end.
		p.bar.Clear()
		fmt.Fprintln(p.w, name+"...")
		return
	}
	p.log.Info(name)
}

// finish ends the bar at 100%.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		return
	}
	close(p.stop)
	p.wg.Wait()
}
