package load

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/stats"
)

// A server that stops answering shows in two ways. Over TCP its kernel
// refuses or resets what comes next, and the run stops GoneAfter later
// (run.noteOutcome). Over QUIC nothing comes back at all: the requests in
// flight wait until the client's QUIC idle timeout ends their connection,
// which may be after the run has ended and cut them off. Such requests are
// failures all the same (h2load counts the requests on a connection that
// dies, or times out, as failed), but a request merely cut off by the end
// of a healthy run is not (h2load and wrk drop those). What tells them
// apart, once the run is over (run.judgeCutOffs): a cut-off request with
// no response counts as a timeout when it had waited, and the server had
// answered nothing to any request, for at least StallAfter and StallFactor
// times the slowest successful request of the run (a server never heard
// from has answered nothing since the run began). A slow server answers
// something while requests wait; a dead one answers nothing to anyone. A
// cut-off request whose response had begun is not counted: its body's
// progress is not timed, so a server that died in the middle of it cannot
// be told from a long body still arriving (its first byte counts as the
// server's last word).

// StallAfter is the least time a request cut off by the end of a run must
// have waited, and the server have answered nothing, to count as a
// timeout (see also StallFactor).
const stallAfter = goneAfter

// StallFactor times the slowest successful request's duration (start to
// end) is also a cut-off request's least wait to count as a timeout, so
// that a run of slow requests ended by its clock loses none of them to
// failures.
const stallFactor = 2

// cutOffReq is a measured request with no response that the run's end, a
// stop or an interrupt cut off: when it was sent and abandoned.
type cutOffReq struct{ start, end time.Time }

// silence is what judgeCutOffs found out about the server's last answers.
type silence struct {
	lastAnswer time.Time     // when the server was last heard from, in a response of any status; zero if never
	slowest    time.Duration // the longest successful request, start to end
	stalled    int64         // cut-off requests counted as timeouts
	waited     time.Duration // the longest wait among them
	firstErr   string        // the first of them, for a result with no other failure
	drainErr   string        // what the requests an open loop's drain gave up on were (drain.go)
}

// answered notes, under s's lock, a request the server answered, last
// heard from at heard (exchange.heard), and, when ok, that succeeded after
// took.
func (s *shard) answered(heard time.Time, ok bool, took time.Duration) {
	if heard.After(s.lastAnswer) {
		s.lastAnswer = heard
	}
	if ok && took > s.slowest {
		s.slowest = took
	}
}

// judgeCutOffs decides, once every worker is done, which cut-off requests
// were waiting on a server that had stopped answering, and counts those
// as timeouts; it drops the others. When an open loop's wait for its due
// requests reached its bound, or was ended by the server's silence, every
// one is a timeout (drain.go).
func (r *run) judgeCutOffs() silence {
	var sl silence
	sl.lastAnswer, sl.slowest = r.heard()
	r.gaveUp(&sl)
	after := max(stallAfter, stallFactor*sl.slowest)
	// A server that never answered has been silent since the run began:
	// over QUIC an absent one is never heard from (a closed UDP port
	// refuses nothing the client sees), and its requests wait for the
	// handshake timeout, perhaps past the run's end.
	silentSince := sl.lastAnswer
	if silentSince.IsZero() {
		silentSince = r.start
	}
	for _, s := range r.shards {
		s.mu.Lock()
		for _, c := range s.cutOff {
			end := c.end
			if runEnd := r.stoppedAt(); !runEnd.IsZero() && end.After(runEnd) {
				end = runEnd // it waited until the run ended, no longer
			}
			waited := end.Sub(c.start)
			// A drain ended by silence cut off no request of a healthy run.
			if end.Sub(silentSince) < after || (waited < after && !r.silenced.Load()) {
				continue
			}
			s.requests++
			s.errors.Count(stats.ErrTimeout)
			if sl.firstErr == "" {
				silence := fmt.Sprintf("the server had answered nothing for %v", end.Sub(silentSince).Round(time.Millisecond))
				if sl.lastAnswer.IsZero() {
					silence = "no server had answered since the run began"
				}
				sl.firstErr = fmt.Sprintf("%s %s: no response in %v, when the run ended; %s",
					r.cfg.Method, r.cfg.URL, waited.Round(time.Millisecond), silence)
			}
			sl.stalled++
			sl.waited = max(sl.waited, waited)
		}
		s.cutOff = nil
		s.mu.Unlock()
	}
	return sl
}

// heard is when the server was last heard from, in a response of any
// status (zero if never), and the slowest successful request.
func (r *run) heard() (last time.Time, slowest time.Duration) {
	for _, s := range r.shards {
		s.mu.Lock()
		if s.lastAnswer.After(last) {
			last = s.lastAnswer
		}
		slowest = max(slowest, s.slowest)
		s.mu.Unlock()
	}
	return last, slowest
}

// stoppedAt is when the run was stopped while requests could still be in
// flight: the window's end on a run by duration that does not drain, when
// halt stopped one that does; zero if neither.
func (r *run) stoppedAt() time.Time {
	if r.drains() {
		if at := r.haltedAt.Load(); at != 0 {
			return time.Unix(0, at)
		}
		return time.Time{}
	}
	if r.byCount {
		return time.Time{}
	}
	return r.endTime()
}

// stoppedAnswering completes res when the server stopped answering: it
// was found gone, or requests were counted as stalled (judgeCutOffs).
// window is the measured phase, from from; it returns the part of it the
// rates are over: up to the server's last answer, when that came within
// the phase.
func (r *run) stoppedAnswering(res *loadresult.Result, sl silence, from time.Time, window time.Duration) time.Duration {
	gone := r.gone.Load()
	if !gone && sl.stalled == 0 {
		return window
	}
	if res.FirstError == "" {
		res.FirstError = sl.firstErr
	}
	of := ""
	if !r.byCount {
		of = fmt.Sprintf(" of the %v run", r.cfg.Duration)
	}
	how := fmt.Sprintf("every request was refused or timed out for over %v, and the run stopped at %.2f s", goneAfter, window.Seconds())
	if !gone {
		how = fmt.Sprintf("%d requests waited up to %.2f s for a response until the run ended (counted as timeouts)", sl.stalled, sl.waited.Seconds())
	} else if sl.stalled > 0 {
		how += fmt.Sprintf("; %d requests with no response by then counted as timeouts", sl.stalled)
	}
	live := sl.lastAnswer.Sub(from)
	if sl.lastAnswer.IsZero() {
		in := ""
		if !r.byCount {
			in = fmt.Sprintf(" in the %v run", r.cfg.Duration)
		}
		res.Stopped = fmt.Sprintf("no server answered%s: %s (is a server listening there?)", in, how)
		return window
	}
	if live <= 0 || live >= window {
		res.Stopped = fmt.Sprintf("the server answered nothing in the measured phase%s: %s (the server is gone?)", of, how)
		return window
	}
	res.StoppedAnswering = live.Seconds()
	res.RanSeconds = window.Seconds()
	res.Stopped = fmt.Sprintf("the server stopped answering at %.2f s%s: %s; rates are over the %.2f s it answered",
		live.Seconds(), of, how, live.Seconds())
	return live
}
