package load

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/stats"
)

// An open loop by duration sends the requests due in its window, then
// waits for them: one still in flight, or queued behind busy connections,
// when the window closes was due inside it, and its latency (from when it
// was due) is the figure that matters most on a server falling behind.
// Dropping it, as a cancelled run would, reads p99 low and the rate a
// server carries high. The wait ends when the last due request has ended,
// at RequestTimeout past the window (every request still unanswered, or
// never sent, has then waited that long since it was due: a timeout), or
// early when the server has stopped answering (stall.go), so that a dead
// server costs no more than its silence. The rates are over the window
// and the wait, as vegeta's are over the attack and its wait.

// drains says whether the run waits for its due requests after the
// window: an open loop by duration. (An open loop by count ends with its
// last request; a closed loop counts what ended in its window, as wrk.)
func (r *run) drains() bool { return r.open && !r.byCount }

// stopTime is when the run is stopped, ready or not: the window's end,
// or RequestTimeout past it for a run that drains.
func (r *run) stopTime() time.Time {
	if r.drains() {
		return r.endTime().Add(r.cfg.RequestTimeout)
	}
	return r.endTime()
}

// stopAtBound is the run's timer: it marks a drain that reached its bound
// and stops the run.
func (r *run) stopAtBound() {
	if r.drains() {
		r.drainedOut.Store(true)
	}
	r.halt()
}

// halt stops the run and notes when.
func (r *run) halt() {
	r.haltedAt.CompareAndSwap(0, time.Now().UnixNano())
	r.stopRun()
}

// intended is when the open loop's ticket t is due.
func (r *run) intended(t int64) time.Time {
	return r.start.Add(time.Duration(float64(t) * r.interval))
}

// dueBefore is the number of tickets due before at.
func (r *run) dueBefore(at time.Time) int64 {
	k := max(int64(float64(at.Sub(r.start))/r.interval), 0)
	for k > 0 && !r.intended(k-1).Before(at) {
		k--
	}
	for r.intended(k).Before(at) {
		k++
	}
	return k
}

// unsent is the number of measured tickets, due in the window, that no
// worker took.
func (r *run) unsent() int64 {
	first, end := r.dueBefore(r.measureAt), r.dueBefore(r.endTime())
	return max(end-max(r.tickets.Load(), first), 0)
}

// watchSilence ends a drain early once a server that has answered stops:
// nothing for the stall threshold (stall.go). Until done or ctx ends. A
// server not yet heard from is looked at again each stallAfter: a slow
// first answer is not silence, but one that comes after the window (a
// starved machine's) starts the watch as any other, rather than leaving
// the drain to RequestTimeout.
func (r *run) watchSilence(ctx context.Context, done <-chan struct{}) {
	if !r.drains() {
		return
	}
	go func() {
		t := time.NewTimer(time.Until(r.endTime()))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-done:
				return
			case <-t.C:
			}
			last, slowest := r.heard()
			wait := max(stallAfter, stallFactor*slowest) - time.Since(last)
			switch {
			case last.IsZero():
				t.Reset(stallAfter)
				continue
			case wait > 0:
				t.Reset(wait)
				continue
			}
			r.silenced.Store(true)
			r.halt()
			return
		}
	}()
}

// gaveUp counts the due requests a drain gave up on: when it reached its
// bound, every measured request cut off; when it was ended by the
// server's silence, none here (judgeCutOffs counts them); in both cases
// every due request never sent, each as a timeout.
func (r *run) gaveUp(sl *silence) {
	if !r.drainedOut.Load() && !r.silenced.Load() {
		return
	}
	var cut int64
	if r.drainedOut.Load() {
		for _, s := range r.shards {
			s.mu.Lock()
			n := int64(len(s.cutOff))
			s.requests += n
			s.errors.Add(timeouts(n))
			s.cutOff = nil
			s.mu.Unlock()
			cut += n
		}
	}
	unsent := r.unsent()
	r.neverSent = unsent
	s := r.shards[0]
	s.mu.Lock()
	s.requests += unsent
	s.errors.Add(timeouts(unsent))
	s.mu.Unlock()
	switch {
	case r.drainedOut.Load() && cut+unsent > 0:
		sl.drainErr = fmt.Sprintf("%s %s: %d requests due in the window had no response %v after it ended (%d of them never sent: every connection was busy)",
			r.cfg.Method, r.cfg.URL, cut+unsent, r.cfg.RequestTimeout, unsent)
	case unsent > 0:
		sl.drainErr = fmt.Sprintf("%s %s: %d requests due in the window were never sent: every connection waited on a server that had stopped answering",
			r.cfg.Method, r.cfg.URL, unsent)
	}
}

// timeouts is n failures of kind timeout.
func timeouts(n int64) stats.ErrorCounts {
	return stats.ErrorCounts{Total: n, Timeout: n}
}
