package matrix

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Probe bounds: how long a transfer probe runs, and the smallest body a
// transfer stream gets.
const (
	minProbe = 50 * time.Millisecond
	maxProbe = time.Second
	// minPerStream keeps connection set-up (100 TLS handshakes) from
	// dominating a parallel transfer.
	minPerStream = units.MiB
	// probeSize is what a sizing probe asks for; it is cut off by time.
	probeSize = 100 * units.GB
)

// prepare checks that the target serves sc over p, with one request or a
// short transfer, and returns a transfer scenario's total size: Options.Size,
// or what the probe moved scaled to Duration; for a request scenario, the
// length of the response body the request got. skipped, when set, says why
// the cell cannot be measured.
func (r *runner) prepare(ctx context.Context, sc Scenario, col column) (size units.Bytes, skipped string, failed bool) {
	p := col.proto
	base := targetBase(r.opts.Target, p)
	switch {
	case col.native && r.opts.Target.GRPC == "":
		return 0, "no native gRPC target given", false
	case scenariospec.Of(&sc).RPC && p == transport.H3:
		return 0, "no gRPC binding over HTTP/3 (grpc-go speaks HTTP/2)", false
	case col.native:
	case base == "":
		kind := "cleartext"
		if p.TLS() {
			kind = "TLS"
		}
		return 0, fmt.Sprintf("no %s target URL for %s", kind, p), false
	}
	if why, ok := r.unreachable[p]; ok && !col.native {
		return 0, why, true
	}
	if !scenariospec.Transfer(sc.Metric) {
		return r.probeRequest(ctx, sc, col)
	}
	return r.probeTransfer(ctx, sc, col)
}

// probeRequest sends sc's request once over col and returns the length of
// the response body, or why the cell is skipped or failed.
func (r *runner) probeRequest(ctx context.Context, sc Scenario, col column) (size units.Bytes, skipped string, failed bool) {
	p := col.proto
	res, err := load.Run(ctx, r.loadConfig(sc, col, func(c *load.Config) {
		c.Requests, c.Conns, c.Streams, c.Warmup = 1, 1, 1, 0
		c.Engine = load.Std
	}))
	switch {
	case err != nil:
		return 0, err.Error(), true
	case res.Errors.Total > 0:
		why := fmt.Sprintf("%s %s over %s failed: %s", spec(&sc).Method, spec(&sc).Path, p, res.FirstError)
		r.noteUnreachable(col, res.Protocol, res.Errors, why)
		// httpvs's own endpoint missing skips the cell; the user's
		// request failing is the cell's failure.
		return 0, why, !onlyStatus(res.Errors) || spec(&sc).Req != nil
	case res.Protocol != p.String():
		return 0, fmt.Sprintf("asked for %s, the server answered over %s", p, res.Protocol), true
	}
	return units.Bytes(res.BytesReceived), "", false
}

// probeTransfer checks that the target serves sc's transfer over col's
// protocol and returns its total size (transferSize), or why the cell is
// skipped or failed.
func (r *runner) probeTransfer(ctx context.Context, sc Scenario, col column) (size units.Bytes, skipped string, failed bool) {
	p := col.proto
	// One small transfer per stream checks the endpoint and the protocol
	// (a probe cut off by time may not see a response: uploads).
	res, err := transfer.Run(ctx, r.transferPlan(sc, p, units.Bytes(spec(&sc).Streams)*units.KiB))
	switch {
	case err != nil:
		return 0, err.Error(), true
	case res.Errors.Total > 0:
		why := fmt.Sprintf("%s over %s failed: %s", sc.Name, p, res.FirstError)
		r.noteUnreachable(col, res.Protocol, res.Errors, why)
		return 0, why, !onlyStatus(res.Errors)
	case res.Protocol != p.String():
		return 0, fmt.Sprintf("asked for %s, the server answered over %s", p, res.Protocol), true
	}
	return r.transferSize(ctx, sc, p)
}

// transferSize is a transfer scenario's total size: Options.Size, the
// link's goodput over Duration, or what a short probe moved scaled to
// Duration.
func (r *runner) transferSize(ctx context.Context, sc Scenario, p transport.Protocol) (size units.Bytes, skipped string, failed bool) {
	if r.opts.Size > 0 {
		return r.opts.Size, "", false
	}
	if size := r.opts.linkSize(sc); size > 0 {
		// Across a link its goodput sizes the transfer: a probe of a few
		// round trips would measure slow start.
		return size, "", false
	}
	plan := r.transferPlan(sc, p, probeSize)
	plan.Timeout = max(min(r.opts.Duration/2, maxProbe), minProbe)
	res, err := transfer.Run(ctx, plan)
	if err != nil {
		return 0, err.Error(), true
	}
	size = units.Bytes(spec(&sc).Streams) * minPerStream
	if res.Bytes > 0 && res.Seconds > 0 {
		// A probe that moved nothing (all its time went on set-up: 100 TLS
		// handshakes) leaves the smallest size.
		rate := float64(res.Bytes) / res.Seconds
		size = max(units.Bytes(rate*r.opts.Duration.Seconds())/units.MiB*units.MiB, size)
	}
	return size, "", false
}

// onlyStatus says whether every failure was an HTTP status: the target
// lacks the endpoint, which skips the cell; any other failure (TLS, a
// refused connection, the wrong protocol) means it could not be measured.
func onlyStatus(e stats.ErrorCounts) bool { return e.Total == e.Status }

// transferPlan is a transfer of total bytes split across sc's streams.
func (r *runner) transferPlan(sc Scenario, p transport.Protocol, total units.Bytes) transfer.Plan {
	per := max(total/units.Bytes(spec(&sc).Streams), 1)
	plan := transfer.Plan{
		URL:       targetBase(r.opts.Target, p) + "/bytes/" + strconv.FormatInt(int64(per), 10),
		Transfers: spec(&sc).Streams,
		Client:    r.clientOptions(sc, p),
		Timeout:   r.opts.Timeout,
		Header:    r.opts.Header,
	}
	if scenariospec.Of(&sc).Upload {
		plan.URL = targetBase(r.opts.Target, p) + "/sink"
		plan.Direction = transfer.Upload
		plan.Size = per
	}
	return plan
}

// transfer measures one repetition of a transfer scenario.
func (r *runner) transfer(ctx context.Context, sc Scenario, p transport.Protocol, total units.Bytes) results.Repetition {
	plan := r.transferPlan(sc, p, total)
	plan.Omit = r.opts.omit(scenariospec.Of(&sc).Upload)
	per := max(total/units.Bytes(spec(&sc).Streams), 1)
	return r.runTransfer(ctx, sc, p, plan, int64(per))
}

// loadConfig is sc's load over col, adjusted by edit.
func (r *runner) loadConfig(sc Scenario, col column, edit func(*load.Config)) load.Config {
	p := col.proto
	cfg := load.Config{
		URL:      targetBase(r.opts.Target, p) + spec(&sc).Path,
		Client:   r.clientOptions(sc, p),
		Conns:    1,
		Streams:  spec(&sc).Streams,
		Duration: r.opts.Duration,
		Warmup:   r.opts.Warmup,
		Method:   spec(&sc).Method,
		BodySize: scenariospec.Of(&sc).Body,
		Headers:  scenariospec.Of(&sc).Headers,
		Header:   r.opts.Header,
		Engine:   r.opts.Engine,
		// A repetition that cannot finish a request in its own time is
		// failing, not slow.
		RequestTimeout: max(10*time.Second, r.opts.Duration, spec(&sc).Duration),
	}
	if p.Version() == 1 {
		// HTTP/1.1 has one request in flight per connection.
		cfg.Conns, cfg.Streams = spec(&sc).Streams, 1
	}
	if scenariospec.Of(&sc).RPC {
		r.rpcConfig(&cfg, col)
	}
	if spec(&sc).Req != nil {
		cfg.Body = spec(&sc).Req.Body
		cfg.Header = mergeHeaders(r.opts.Header, spec(&sc).Req.Header)
	}
	if edit != nil {
		edit(&cfg)
	}
	return cfg
}

// minRequests is the fewest completed requests a load repetition needs;
// with fewer (a slow transport, a race-detector build, a link's round
// trips) it is run again for longer, at most twice, as go test -bench
// grows b.N: for as long as the rate seen predicts minRequests take, with
// a fifth more, from 1.5 to 8 times as long (4 times when none finished). A repetition that finished no request at all is grown further,
// as long as the next try still fits in the repetition's Timeout: under
// CPU starvation 50 concurrent h3 echoes can take longer than 1.6 s a round,
// and a closed loop counts only requests that both start and end inside
// the measured window. If none ever finishes the repetition is an error of
// kind timeout saying so, never a silent 0.
const minRequests = 20

// load measures one repetition of a request scenario.
func (r *runner) load(ctx context.Context, sc Scenario, col column) results.Repetition {
	d := r.firstTry(sc)
	var spent time.Duration
	for try := 1; ; try++ {
		m := r.loadOnce(ctx, sc, col, d)
		spent += r.opts.Warmup + d
		switch {
		case unanswered(m) && !m.Interrupted && ctx.Err() == nil && 4*d <= maxSilentTry && spent+r.opts.Warmup+4*d <= r.opts.Timeout:
			// Set up, but nothing answered: a starved machine's server,
			// whose requests the load counted as stalled. A longer try
			// tells it from a server that does not answer.
		case m.Interrupted || m.FirstError != "" || ctx.Err() != nil || m.Requests >= minRequests:
			return m
		case m.Requests > 0 && try >= 3:
			return m // few, but measured
		case m.Requests == 0 && spent+r.opts.Warmup+4*d > r.opts.Timeout:
			nothingFinished(&m, col, try, d, r.opts.Warmup)
			return m
		}
		n := m.Requests
		if unanswered(m) {
			n = 0
		}
		d = longer(d, n)
	}
}

// firstTry is a load repetition's first duration: Duration (or the
// longer one SizeRequests gave a slow request) or, across a
// link whose round trip is known (Options.RTT), at least what minRequests
// take, and a fifth more, when each of sc's streams finishes at best one
// request a round trip: a slow link then costs no try too short to count.
func (r *runner) firstTry(sc Scenario) time.Duration {
	d := max(r.opts.Duration, spec(&sc).Duration)
	if r.opts.RTT > 0 && spec(&sc).Streams > 0 {
		d = max(d, time.Duration(1.2*minRequests/float64(spec(&sc).Streams)*float64(r.opts.RTT)))
	}
	return d
}

// maxSilentTry is the longest try after one that nothing answered
// (unanswered): a starved machine answers within seconds, and a server
// that does not answer costs each repetition no more than that.
const maxSilentTry = 10 * time.Second

// unanswered says m set up connections but every request in it was a
// timeout and none succeeded: the load's judgement of requests left
// waiting on a server that had answered nothing since the run began.
func unanswered(m results.Repetition) bool {
	return m.Connections > 0 && m.Requests > 0 && m.Errors.Timeout == m.Requests && m.Latency.Count == 0
}

// longer is the next try's duration after d finished n requests: what n
// predicts minRequests take, plus a fifth, from 1.5x to 8x d (4x for none).
func longer(d time.Duration, n int64) time.Duration {
	if n <= 0 {
		return 4 * d
	}
	f := min(max(1.2*float64(minRequests)/float64(n), 1.5), 8)
	return time.Duration(f * float64(d))
}

// nothingFinished turns a repetition that completed no request and met
// no error into a timeout error that says what was missing.
func nothingFinished(m *results.Repetition, col column, tries int, d, warmup time.Duration) {
	cause := fmt.Sprintf("%d connection(s) set up but no response finished", m.Connections)
	switch {
	case m.Seconds == 0 && m.Connections > 0:
		cause = "the measured phase never began: the server's counters were read after its end"
	case m.Connections == 0:
		switch {
		case col.proto == transport.H3:
			cause = "no QUIC connection set up: the handshake did not complete"
		case col.proto.TLS():
			cause = "no connection set up: TCP connect or TLS handshake did not complete"
		default:
			cause = "no connection set up: TCP connect did not complete"
		}
	}
	m.Errors.Count(stats.ErrTimeout)
	m.FirstError = fmt.Sprintf("%s: no request finished in %d tries, the last %v measured after %v warmup (%s)", col.name, tries, d, warmup, cause)
}

// loadOnce runs one load of sc over col measured for d.
func (r *runner) loadOnce(ctx context.Context, sc Scenario, col column, d time.Duration) results.Repetition {
	var (
		before, after *stats.ServerStats
		note          string
	)
	cfg := r.loadConfig(sc, col, func(c *load.Config) {
		c.Duration = d
		c.MeasureStart = func() { before, note = r.serverStats(ctx, col, serverctl.StatsTimeout) }
		c.MeasureEnd = func(failed int64) {
			switch {
			case before != nil && ctx.Err() == nil:
				after, note = r.serverStats(ctx, col, serverctl.StatsTimeoutAfter(failed))
			case before == nil && note == "":
				// load skips MeasureStart when the run ended first (a
				// starved goroutine): say so rather than leave no reason.
				note = "server counters not read: the run ended before its measured phase began"
			}
		}
	})
	m := results.Repetition{Streams: spec(&sc).Streams}
	res, err := load.Run(ctx, cfg)
	if err != nil {
		m.Errors.Count(stats.ErrOther)
		m.FirstError = err.Error()
		return m
	}
	m.Value, m.Seconds, m.Requests = res.RequestsPerSecond, res.Seconds, res.Requests
	if res.Lowered != "" {
		m.Streams, m.Lowered = res.Concurrency, res.Lowered
	}
	m.Bytes = res.BytesReceived + res.BytesSent
	m.Connections, m.Negotiated = res.Connections, res.Protocol
	m.Interrupted = res.Interrupted
	m.Errors, m.FirstError = res.Errors, res.FirstError
	m.Latency = res.Latency
	if res.Histograms != nil && res.Latency.Count > 0 {
		m.LatencyHistogram = res.Histograms.Latency
	}
	m.AllocsPerRequest, m.AllocBytesPerRequest = res.AllocsPerRequest, res.BytesPerRequest
	m.Engine = res.Engine
	r.cpu(&m, col.name, stats.ProcessStats{CPUUserSeconds: res.ClientCPUSeconds, GCCycles: res.ClientGCCycles, GoroutinesPeak: res.ClientGoroutinesPeak}, before, after, note, float64(res.Succeeded)/1000)
	return m
}

// noteUnreachable remembers a transport whose check got no response and
// failed only in ways a second try would repeat (refused, timed out, TLS),
// so that the run's later cells over it fail at once instead of each
// waiting out the dial timeout (an h3 target with nothing on UDP: 10 s a
// cell).
func (r *runner) noteUnreachable(col column, negotiated string, errs stats.ErrorCounts, why string) {
	if col.native || negotiated != "" {
		return
	}
	for _, k := range []stats.ErrorKind{stats.ErrReset, stats.ErrStatus, stats.ErrShort, stats.ErrProtocol, stats.ErrOther} {
		if errs.Of(k) > 0 {
			return
		}
	}
	if r.unreachable == nil {
		r.unreachable = map[transport.Protocol]string{}
	}
	r.unreachable[col.proto] = why + " (not tried again in this run)"
}
