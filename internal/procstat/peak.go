package procstat

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// PeakInterval is how often a GoroutinePeak samples the goroutine count.
const PeakInterval = 10 * time.Millisecond

// GoroutinePeak samples the process's goroutine count every PeakInterval
// and keeps the highest since the last Take: goroutines at peak, to
// within what lived and died between two samples.
type GoroutinePeak struct {
	max  atomic.Int64
	quit chan struct{}
	once sync.Once
	done chan struct{}
}

// StartGoroutinePeak starts sampling; Stop ends it.
func StartGoroutinePeak() *GoroutinePeak {
	p := &GoroutinePeak{quit: make(chan struct{}), done: make(chan struct{})}
	p.max.Store(int64(runtime.NumGoroutine()))
	go func() {
		defer close(p.done)
		tick := time.NewTicker(PeakInterval)
		defer tick.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-tick.C:
				p.note()
			}
		}
	}()
	return p
}

func (p *GoroutinePeak) note() {
	n := int64(runtime.NumGoroutine())
	for {
		old := p.max.Load()
		if n <= old || p.max.CompareAndSwap(old, n) {
			return
		}
	}
}

// Take returns the highest count since the last Take (or the start),
// counting now, and starts over from now's count.
func (p *GoroutinePeak) Take() int64 {
	p.note()
	return p.max.Swap(int64(runtime.NumGoroutine()))
}

// Stop ends the sampling and waits for it.
func (p *GoroutinePeak) Stop() {
	p.once.Do(func() { close(p.quit) })
	<-p.done
}
