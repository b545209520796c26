// Package backoff spaces out the redials of a connection slot whose
// connection cannot be set up (nothing listens, the handshake fails): a
// wait that doubles from Min with each failure in a row, up to Max, so
// that a load generator pointed at a closed port makes tens of attempts a
// second per slot instead of tens of thousands, and finds a server that
// comes back within Max.
package backoff

import (
	"context"
	"time"
)

// Bounds of the wait before a redial.
const (
	// Min is the wait after the first failure in a row.
	Min = 5 * time.Millisecond
	// Max is the longest wait, reached after eight failures in a row.
	Max = time.Second
)

// Delay is one connection slot's count of set-up failures in a row. Its
// zero value has none. It is not safe for concurrent use.
type Delay struct {
	fails int
}

// Failed notes a failure and returns the wait before the next try: Min
// after the first failure in a row, twice the last wait after each one
// more, at most Max.
func (d *Delay) Failed() time.Duration {
	d.fails++
	return Wait(d.fails)
}

// Reset notes a success: the next failure waits Min again.
func (d *Delay) Reset() { d.fails = 0 }

// Wait is the wait after n failures in a row (n >= 1): Min times 2^(n-1),
// at most Max; 0 for n < 1.
func Wait(n int) time.Duration {
	if n < 1 {
		return 0
	}
	w := Min
	for i := 1; i < n && w < Max; i++ {
		w *= 2
	}
	return min(w, Max)
}

// Tries is the most set-up attempts one slot can make in a window of
// length d that begins with its first attempt, failing every time: the
// first, and one after each wait that ends within d. Waits run at least as
// long as asked, so a slot never makes more.
func Tries(d time.Duration) int {
	tries := 1
	for elapsed := Wait(1); elapsed <= d; elapsed += Wait(tries) {
		tries++
	}
	return tries
}

// Sleep waits d, or until ctx ends; it says whether d passed.
func Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
