package dial

import (
	"context"
	"time"
)

// Redials of a connection slot whose
// connection cannot be set up (nothing listens, the handshake fails): a
// wait that doubles from RedialMin with each failure in a row, up to RedialMax, so
// that a load generator pointed at a closed port makes tens of attempts a
// second per slot instead of tens of thousands, and finds a server that
// comes back within RedialMax.
//
// Bounds of the wait before a redial.
const (
	// RedialMin is the wait after the first failure in a row.
	RedialMin = 5 * time.Millisecond
	// RedialMax is the longest wait, reached after eight failures in a row.
	RedialMax = time.Second
)

// Redial is one connection slot's count of set-up failures in a row. Its
// zero value has none. It is not safe for concurrent use.
type Redial struct {
	fails int
}

// Failed notes a failure and returns the wait before the next try: RedialMin
// after the first failure in a row, twice the last wait after each one
// more, at most RedialMax.
func (d *Redial) Failed() time.Duration {
	d.fails++
	return RedialWait(d.fails)
}

// Reset notes a success: the next failure waits RedialMin again.
func (d *Redial) Reset() { d.fails = 0 }

// Wait is the wait after n failures in a row (n >= 1): RedialMin times 2^(n-1),
// at most RedialMax; 0 for n < 1.
func RedialWait(n int) time.Duration {
	if n < 1 {
		return 0
	}
	w := RedialMin
	for i := 1; i < n && w < RedialMax; i++ {
		w *= 2
	}
	return min(w, RedialMax)
}

// Tries is the most set-up attempts one slot can make in a window of
// length d that begins with its first attempt, failing every time: the
// first, and one after each wait that ends within d. Waits run at least as
// long as asked, so a slot never makes more.
func RedialTries(d time.Duration) int {
	tries := 1
	for elapsed := RedialWait(1); elapsed <= d; elapsed += RedialWait(tries) {
		tries++
	}
	return tries
}

// Sleep waits d, or until ctx ends; it says whether d passed.
func RedialSleep(ctx context.Context, d time.Duration) bool {
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
