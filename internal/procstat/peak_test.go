package procstat

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestGoroutinePeak: goroutines that lived only between two Takes show in
// the first Take's peak and not in the second's.
func TestGoroutinePeak(t *testing.T) {
	// The finalizer goroutine counts while it runs finalizers (the
	// pipes and sockets earlier tests closed): let it finish before the
	// base is counted, or the base holds a goroutine that then ends.
	runtime.GC()
	time.Sleep(2 * PeakInterval)
	p := StartGoroutinePeak()
	defer p.Stop()
	base := int64(runtime.NumGoroutine())
	p.Take()
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() { <-release })
	}
	time.Sleep(5 * PeakInterval) // several samples see them
	close(release)
	wg.Wait()
	if got := p.Take(); got < base+200 {
		t.Fatalf("peak %d, want at least %d (base %d + 200)", got, base+200, base)
	}
	time.Sleep(2 * PeakInterval)
	if got := p.Take(); got >= base+200 {
		t.Fatalf("peak after the goroutines ended %d, want below %d", got, base+200)
	}
}
