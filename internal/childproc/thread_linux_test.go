package childproc

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestChildOutlivesEndedThreads: the kernel kills a child started with
// Pdeathsig when the thread that started it ends, and Go ends every
// thread a goroutine leaves locked (a network namespace's goroutines do:
// netem). A child must outlive any number of such threads, its starting
// one among the idle ones they could land on.
func TestChildOutlivesEndedThreads(t *testing.T) {
	p := start(t, "echo")
	ctx := context.Background()
	if line, err := p.Next(ctx, 10*time.Second); err != nil || line != "hello" {
		t.Fatalf("first line %q, %v", line, err)
	}
	for range 20 {
		var wg sync.WaitGroup
		for range 2 * runtime.NumCPU() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
				time.Sleep(time.Millisecond)
			}()
		}
		wg.Wait()
	}
	time.Sleep(100 * time.Millisecond)
	if err := p.Send([]byte("still here")); err != nil {
		t.Fatalf("the child after the ended threads: %v (%s)", err, p.State())
	}
	if line, err := p.Next(ctx, 10*time.Second); err != nil || line != "echo still here" {
		t.Fatalf("the child after the ended threads: %q, %v (%s)", line, err, p.State())
	}
}
