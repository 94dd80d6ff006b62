package bench

import (
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows a phase's progress: a bar on a terminal, else a log
// line every five seconds.
type progress struct {
	bar   *progressbar.ProgressBar
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
		p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription(phase),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
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

func (p *progress) add(n int) {
	p.done.Add(int64(n))
	if p.bar != nil {
		p.bar.Add(n)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		return
	}
	close(p.stop)
	p.wg.Wait()
}
