package load

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/lean"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// worker sends one request at a time. Its trace hooks may run on the
// transport's goroutines, so what they share with it is atomic or guarded
// by the shard's mutex.
type worker struct {
	r      *run
	client *transport.Client // std engine
	lean   *lean.Client      // fast engine
	stream *lean.Stream      // fast engine: made when the loop starts
	caller Caller            // Config.NewCaller's
	shard  *shard
	base   *http.Request
	buf    []byte
	warmed bool // it has finished a request (run.warm); its goroutine's alone

	reqStart     atomic.Int64 // unix nanoseconds the current request started
	ttfb         atomic.Int64 // nanoseconds to its first response byte; 0 if none yet
	connectStart atomic.Int64
	tlsStart     atomic.Int64
}

func newWorker(r *run, c connClient, s *shard) *worker {
	w := &worker{r: r, shard: s}
	if r.cfg.NewCaller != nil {
		w.caller = c.(Caller)
		return w
	}
	if lc, ok := c.(*lean.Client); ok {
		w.lean = lc
		return w
	}
	w.client = c.(stdClient).Client
	w.buf = make([]byte, w.client.ReadSize())
	w.base = &http.Request{
		Method:     r.cfg.Method,
		URL:        r.url,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     r.header,
		Host:       r.host,
	}
	return w
}

func (w *worker) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		ConnectStart: func(string, string) { w.connectStart.Store(time.Now().UnixNano()) },
		ConnectDone: func(_, _ string, err error) {
			if start := w.connectStart.Load(); err == nil && start != 0 {
				w.record(func(s *shard) { s.connect.Record(time.Duration(time.Now().UnixNano() - start)) })
			}
		},
		TLSHandshakeStart: func() { w.tlsStart.Store(time.Now().UnixNano()) },
		TLSHandshakeDone: func(_ tls.ConnectionState, err error) {
			if start := w.tlsStart.Load(); err == nil && start != 0 {
				w.record(func(s *shard) { s.tls.Record(time.Duration(time.Now().UnixNano() - start)) })
			}
		},
		GotFirstResponseByte: func() {
			w.ttfb.Store(time.Now().UnixNano() - w.reqStart.Load())
		},
	}
}

func (w *worker) record(fn func(*shard)) {
	w.shard.mu.Lock()
	fn(w.shard)
	w.shard.mu.Unlock()
}

// loop sends requests until the run's count or time is used up.
func (w *worker) loop(ctx context.Context) {
	r := w.r
	var (
		traced context.Context
		redial dial.Redial
	)
	if w.lean != nil {
		w.stream = w.lean.NewStream(ctx)
	} else {
		traced = httptrace.WithClientTrace(ctx, w.trace())
	}
	for ctx.Err() == nil {
		var intended time.Time
		measuring := true
		if r.open {
			t := r.tickets.Add(1) - 1
			intended = r.intended(t)
			if (r.byCount && t >= r.maxTickets) || (!r.byCount && !intended.Before(r.endTime())) {
				return
			}
			if waitUntil(ctx, intended) != nil {
				return
			}
			measuring = !intended.Before(r.measureAt)
		} else {
			var ok bool
			if measuring, ok = r.claim(ctx); !ok {
				return
			}
		}
		if !w.once(ctx, traced, intended, measuring) {
			redial.Reset()
		} else if !dial.RedialSleep(ctx, redial.Failed()) {
			return
		}
	}
}

// claim takes a closed loop's next request slot: ok false when the run is
// over, measuring false until the measured phase has begun (the warmup,
// then MeasureStart: a request claimed while the server's counters are
// being read is not counted, since they may not include it). A run by
// duration is over at its end by the clock, even before a starved timer
// has cancelled ctx: a request claimed then would be counted in a window
// that has ended.
func (r *run) claim(ctx context.Context) (measuring, ok bool) {
	if ctx.Err() != nil || (!r.byCount && !time.Now().Before(r.endTime())) {
		return false, false
	}
	measuring = r.measuring.Load()
	if measuring && r.byCount && r.tickets.Add(1) > r.maxTickets {
		return false, false
	}
	return measuring, true
}

// countsByEnd says a closed loop's request that was claimed before its
// measured phase began counts all the same: it ended inside the phase. A
// closed loop by duration counts requests by when they end, as wrk does:
// counting only those that both start and end inside the window reads low
// by the requests in flight as it starts over those it holds (across a
// link, one round trip of a window of n: 1/n). measuredFrom is written
// before measuring turns true, so it is read only after.
func (r *run) countsByEnd(end time.Time) bool {
	return !r.open && !r.byCount && r.measuring.Load() && !end.Before(r.measuredFrom)
}

// once sends one request and records it if measuring. It says whether
// the request failed for want of a connection (exchange.setupFailed).
func (w *worker) once(runCtx, traced context.Context, intended time.Time, measuring bool) (setupFailed bool) {
	start := time.Now()
	var x exchange
	switch {
	case w.caller != nil:
		x = w.callExchange(runCtx)
	case w.stream != nil:
		x = w.leanExchange(start)
	default:
		x = w.stdExchange(traced, start)
	}
	w.settle(runCtx, x, intended, start, time.Now(), measuring)
	return x.setupFailed()
}

// leanLoop runs one of the fast engine's closed loops, planned by
// leanLoops: each request starts as another ends, on the loop's goroutine.
func (w *worker) leanLoop(ctx context.Context, l lean.Loop) {
	bodyLen := int64(len(w.r.body))
	l.Timeout = w.r.cfg.RequestTimeout
	l.HoldP = w.r.cfg.Engine.holdsP()
	l.Next = func() (bool, bool) { return w.r.claim(ctx) }
	l.Done = func(measuring bool, start, end time.Time, resp lean.Response, err error) {
		w.settle(ctx, leanOutcome(resp, err, bodyLen, start), time.Time{}, start, end, measuring)
	}
	err := w.lean.RunLoop(ctx, l)
	if err != nil && ctx.Err() == nil {
		// The loop could not start (an address that does not resolve,
		// say): that is a failed request, counted and reported, not silence.
		w.record(func(s *shard) {
			s.requests++
			s.errors.Count(transport.Classify(err))
			if s.firstErr == "" {
				s.firstErr = fmt.Sprintf("%s %s: %v", w.r.cfg.Method, w.r.cfg.URL, err)
			}
		})
	}
}

// settle judges one request's exchange and records it if measuring.
func (w *worker) settle(runCtx context.Context, x exchange, intended, start, end time.Time, measuring bool) {
	if !w.warmed && w.r.warm != nil {
		w.warmed = true
		w.r.warm.finished()
	}
	measuring = measuring || w.r.countsByEnd(end)
	kind, failure := x.failure()
	if cutOff := w.judge(runCtx, kind, failure, end); !measuring || cutOff {
		switch {
		case x.answered:
			w.record(func(s *shard) { s.answered(x.heard(start, end, failure), failure == nil, end.Sub(start)) })
		case measuring:
			w.record(func(s *shard) { s.cutOff = append(s.cutOff, cutOffReq{start, end}) })
		}
		return
	}
	w.record(func(s *shard) { w.tally(s, x, kind, failure, intended, start, end) })
}

// judge notes a request's outcome for the watch on a server gone
// (noteOutcome) and says whether the request, which ended at end, was
// cut off.
func (w *worker) judge(runCtx context.Context, kind stats.ErrorKind, failure error, end time.Time) (cutOff bool) {
	// A request cut off by the run's end or an interrupt is no result
	// here. (Some stacks, grpc-go among them, time out on the context's
	// deadline a little before the context itself reports it.) But the
	// failures that showed the server gone, and stopped the run, are
	// results; and one with no response is judged once the run is over
	// (judgeCutOffs): a server that had stopped answering makes it a
	// timeout.
	ctxDone, late := runCtx.Err() != nil, !w.r.byCount && !w.r.open && !end.Before(w.r.endTime())
	if failure == nil || !(ctxDone || late) {
		w.r.noteOutcome(kind, failure != nil, end)
	}
	goneFailure := w.r.gone.Load() && (kind == stats.ErrRefused || kind == stats.ErrTimeout) && !errors.Is(failure, context.Canceled)
	return failure != nil && ((ctxDone && !goneFailure) || late)
}

// tally adds one measured request to s: its lateness on an open loop,
// then either its failure, counted by kind, or its latency (from when it
// was intended on an open loop, else from its start), time to first byte
// and bytes.
func (w *worker) tally(s *shard, x exchange, kind stats.ErrorKind, failure error, intended, start, end time.Time) {
	s.requests++
	from := start
	if w.r.open {
		from = intended
		late := start.Sub(intended)
		s.late.Record(late)
		if late > lateThreshold {
			s.lateCount++
		}
	}
	if x.answered {
		s.negotiated = true
		s.answered(x.heard(start, end, failure), failure == nil, end.Sub(start))
	}
	if failure != nil {
		// A failure is counted by kind, never as throughput or latency.
		s.errors.Count(kind)
		if s.firstErr == "" {
			s.firstErr = fmt.Sprintf("%s %s: %v", w.r.cfg.Method, w.r.cfg.URL, stripURLError(failure))
		}
		return
	}
	s.succeeded++
	s.latency.Record(end.Sub(from))
	if x.ttfb > 0 {
		s.ttfb.Record(x.ttfb)
	}
	s.bytesIn += x.got
	s.bytesOut += x.sent
}

// counts sums the measured requests and failures so far over the shards.
// (Workers count into their shards, under locks they already take, rather
// than into shared counters whose cache line the cores would pass back and
// forth on every request.)
func (r *run) counts() (done, failed int64) {
	for _, s := range r.shards {
		s.mu.Lock()
		done += s.requests
		failed += s.errors.Total
		s.mu.Unlock()
	}
	return done, failed
}
