package load

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/stats"
)

// maxShards bounds the histogram shards; workers beyond it share them.
// A shard's five histograms take 860 KB (1 µs to 10 min at 3 digits):
// one per worker made 50 workers allocate 43 MB a run, 16 ms before the
// first request and collections during it. shardsPerP a processor keep
// a lock rarely contended: a request holds it for a few records.
const (
	maxShards  = 64
	shardsPerP = 4
)

// run is the state of one load run shared by its workers.
type run struct {
	cfg     Config
	url     *url.URL
	open    bool
	byCount bool

	start     time.Time // workers start
	measureAt time.Time // warmup ends
	// measuring turns true when the measured phase begins: at the start
	// without a warmup, else once MeasureStart has returned and the
	// client's figures are read (measuredFrom), so that counters read in
	// MeasureStart cover every request a closed loop counts.
	measuring    atomic.Bool
	measuredFrom time.Time // written before measured is closed
	// endAt is when measuring ends, in unix nanoseconds (endTime): by
	// duration, Duration after the measured phase began on a closed loop
	// (set then: math.MaxInt64 until), after measureAt on an open one; by
	// count, the hard bound MaxDuration after measureAt.
	endAt      atomic.Int64
	endTimer   *time.Timer // cancels the run at endAt
	interval   float64     // open loop: nanoseconds between intended sends
	maxTickets int64       // count mode: last ticket + 1 (open loop includes warmup tickets)

	tickets atomic.Int64 // claimed request slots

	shards []*shard
	body   []byte      // every request's body
	header http.Header // every request's extra headers, Host and hop-by-hop ones out; read-only
	host   string      // the request's host: a Host header's, or the URL's

	askedStreams     int    // Config.Streams as asked
	serverMaxStreams int    // the server's SETTINGS_MAX_CONCURRENT_STREAMS; 0 if unknown or none
	lowered          string // why Streams was lowered; "" if it was not

	warm *warmth // a closed loop with a Warmup: its workers' first requests

	lastOK  atomic.Int64 // unix nanoseconds of the last success (or the start)
	gone    atomic.Bool  // the server refused or timed out everything for GoneAfter: stop
	stopRun context.CancelFunc

	drainedOut atomic.Bool  // an open loop's wait for its due requests reached its bound (drain.go)
	silenced   atomic.Bool  // that wait was ended by the server's silence (drain.go)
	haltedAt   atomic.Int64 // unix nanoseconds the run was stopped by halt; 0 if not
	neverSent  int64        // due requests counted as timeouts without being sent (drain.go)
}

// GoneAfter is how long a run goes on while every request is refused (no
// server listens any more) before it stops and says so.
const goneAfter = time.Second

// noteOutcome tracks whether the server is still there: a success resets
// the clock, and refusals with no success for GoneAfter stop the run.
func (r *run) noteOutcome(kind stats.ErrorKind, failed bool, at time.Time) {
	switch {
	case !failed:
		// Every worker lands here on every success: store rarely, so that
		// the cores do not pass the cache line back and forth.
		if now := at.UnixNano(); now-r.lastOK.Load() > int64(goneAfter/10) {
			r.lastOK.Store(now)
		}
	case (kind == stats.ErrRefused || kind == stats.ErrTimeout) && at.UnixNano()-r.lastOK.Load() > int64(goneAfter):
		// Refusals are a TCP server that is gone; timeouts with no success
		// since are what a gone HTTP/3 server leaves (UDP has no reset:
		// the client's QUIC idle timeout ends its connections).
		if r.gone.CompareAndSwap(false, true) {
			r.halt()
		}
	}
}

// withDefaults returns c with its zero fields given their defaults.
func (c Config) withDefaults() Config {
	if c.Method == "" {
		c.Method = "GET"
	}
	if c.Duration == 0 {
		c.Duration = defaults.LoadDuration
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = defaults.LoadRequestTimeout
	}
	if c.MaxDuration == 0 {
		c.MaxDuration = defaults.LoadMaxDuration
	}
	if c.Client.Config.ReadSize == 0 && c.Engine.isFast() {
		// The std engine reads as Go as shipped does; the fast one is
		// httpvs's own generator.
		c.Client.Config.ReadSize = defaults.LoadReadSize
	}
	return c
}

// newRun prepares a run of cfg (with defaults) against u: its request
// body, headers and histogram shards.
func newRun(cfg Config, u *url.URL) *run {
	r := &run{cfg: cfg, url: u, open: cfg.Rate > 0, byCount: cfg.Requests > 0, header: cfg.Headers.header()}
	for k, vs := range cfg.Header {
		r.header[k] = append(r.header[k], vs...)
	}
	r.host = requestHost(r.header, cfg.Client.Authority(u))
	dropHopByHop(r.header, cfg.Client.Protocol)
	r.body = cfg.Body
	if r.body == nil {
		r.body = make([]byte, cfg.BodySize)
		for i := range r.body {
			r.body[i] = byte('a' + i%26)
		}
	}
	for i := 0; i < min(cfg.Conns*cfg.Streams, shardsPerP*runtime.GOMAXPROCS(0), maxShards); i++ {
		r.shards = append(r.shards, newShard())
	}
	return r
}

// schedule sets the run's clock from its start: when measuring begins and
// ends, and the open loop's interval and ticket count.
func (r *run) schedule(start time.Time) {
	cfg := r.cfg
	warmup := r.openWarmup()
	r.start = start
	r.measureAt = r.start.Add(warmup)
	r.measuredFrom = r.measureAt
	r.measuring.Store(warmup == 0)
	switch {
	case r.byCount:
		r.endAt.Store(r.measureAt.Add(cfg.MaxDuration).UnixNano())
		r.maxTickets = cfg.Requests
	case r.open:
		r.endAt.Store(r.measureAt.Add(cfg.Duration).UnixNano())
	default:
		// A closed loop's window is Duration long from when it began,
		// however long MeasureStart took to read the server's counters
		// (on a loaded machine, longer than a 100 ms window: the window
		// was then empty and its rate read 0).
		r.endAt.Store(math.MaxInt64)
	}
	if r.open {
		r.interval = 1e9 / cfg.Rate
		if r.byCount {
			r.maxTickets += int64(math.Ceil(warmup.Seconds() * cfg.Rate))
		}
	}
}

// Run carries out cfg. Its error is for a run that cannot start (bad
// configuration); request failures are counted in the Result.
func Run(ctx context.Context, cfg Config) (loadresult.Result, error) {
	u, err := cfg.validate()
	if err != nil {
		return loadresult.Result{}, err
	}
	// From here on, Requests and Rate are this generator's part.
	cfg.Requests, cfg.Rate = cfg.Share.requests(cfg.Requests), cfg.Share.rate(cfg.Rate)
	cfg = cfg.withDefaults()
	asked := cfg.Streams
	limit, lowered := streamLimit(ctx, &cfg, u)
	r := newRun(cfg, u)
	r.askedStreams, r.serverMaxStreams, r.lowered = asked, limit, lowered
	workers := cfg.Conns * cfg.Streams
	clients, err := r.newClients()
	if err != nil {
		return loadresult.Result{}, err
	}
	defer closeClients(clients)
	if err := waitUntil(ctx, cfg.StartAt); err != nil {
		return loadresult.Result{}, err
	}
	r.schedule(time.Now())
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.stopRun = cancel
	r.endTimer = time.AfterFunc(time.Until(r.stopTime()), r.stopAtBound)
	defer r.endTimer.Stop()
	r.lastOK.Store(r.start.UnixNano())

	// Figures that bracket the measured phase.
	var (
		before, after sample
		peak          *procstat.GoroutinePeak
	)
	loops := r.leanLoops(clients)
	r.trackWarmth(loops == nil, workers)
	measured := make(chan struct{})
	go func() {
		r.warmUp(runCtx)
		if cfg.MeasureStart != nil && runCtx.Err() == nil {
			cfg.MeasureStart()
		}
		peak = procstat.StartGoroutinePeak()
		before = takeSample()
		if !r.measuring.Load() {
			r.measuredFrom = time.Now()
			r.measuring.Store(true)
		}
		if !r.open && !r.byCount {
			r.setEnd(r.measuredFrom.Add(cfg.Duration))
		}
		close(measured)
	}()
	stopProgress := r.progress(runCtx)

	var wg sync.WaitGroup
	if loops != nil {
		for i, l := range loops {
			wg.Go(func() { newWorker(r, clients[i], r.shards[i%len(r.shards)]).leanLoop(runCtx, l) })
		}
	} else {
		for i := 0; i < workers; i++ {
			wg.Go(func() { newWorker(r, clients[i%cfg.Conns], r.shards[i%len(r.shards)]).loop(runCtx) })
		}
	}
	// The measured phase ends at the deadline (or when the last worker
	// is done), before requests cut off by it are abandoned.
	allDone := make(chan struct{})
	r.watchSilence(runCtx, allDone)
	ended := make(chan struct{})
	go func() {
		select {
		case <-runCtx.Done():
		case <-allDone:
		}
		<-measured
		if cfg.MeasureEnd != nil {
			_, failed := r.counts()
			cfg.MeasureEnd(failed)
		}
		close(ended)
	}()
	wg.Wait()
	finished := time.Now()
	close(allDone)
	cancel()
	<-ended
	after = takeSample()
	if peak != nil {
		after.goroutinesPeak = peak.Take()
		peak.Stop()
	}
	stopProgress()

	sl := r.judgeCutOffs()
	res := r.result(clients, ctx.Err() != nil)
	r.finish(&res, sl, finished, before, after)
	return res, nil
}

// endTime is when measuring ends (see run.endAt); far in the future while
// a closed loop by duration has not begun measuring.
func (r *run) endTime() time.Time { return time.Unix(0, r.endAt.Load()) }

// setEnd sets when measuring ends and the run's timer to end it then.
func (r *run) setEnd(end time.Time) {
	r.endAt.Store(end.UnixNano())
	r.endTimer.Reset(time.Until(end))
}

// waitUntil returns at the wall-clock time at (at once if it is zero or
// past), or with an error when ctx ends first.
func waitUntil(ctx context.Context, at time.Time) error {
	d := time.Until(at)
	if at.IsZero() || d <= 0 {
		return nil
	}
	if !dial.RedialSleep(ctx, d) {
		return fmt.Errorf("waiting to start at %s: %w", at.Format(time.RFC3339), ctx.Err())
	}
	return nil
}

// progress reports to cfg.Progress twice a second until the returned stop
// function is called.
func (r *run) progress(ctx context.Context) (stop func()) {
	if r.cfg.Progress == nil {
		return func() {}
	}
	quit := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		var last int64
		lastAt := time.Now()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				if now.Before(r.measureAt) {
					continue
				}
				done, failed := r.counts()
				r.cfg.Progress(Progress{
					Elapsed:           now.Sub(r.measureAt),
					Done:              done,
					Errors:            failed,
					RequestsPerSecond: float64(done-failed-last) / now.Sub(lastAt).Seconds(),
				})
				last, lastAt = done-failed, now
			}
		}
	}()
	return func() { close(quit); <-stopped }
}
