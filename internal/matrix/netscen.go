package matrix

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// Bounds of the network scenarios (cold-start, page-load, head-of-line):
// each repetition repeats its unit of work until Options.Duration has
// passed and it has done at least netMinUnits, at most netMaxUnits, and
// stops early after netMaxFailures failures in a row.
const (
	netMinUnits = 3
	netMaxUnits = 200
	// pageMinUnits is page-load's netMinUnits: a page is many requests
	// whose load time varies little from one to the next (a few percent
	// across a link), and takes a second or more on a slow link.
	pageMinUnits   = 2
	netMaxFailures = 3
)

// netRep is a network scenario's repetition in the making: its figures,
// the latencies of its units of work, and the client's and server's
// counters when it started. Its methods are safe for concurrent use.
type netRep struct {
	r     *runner
	col   column
	mu    sync.Mutex
	m     results.Repetition
	units *histogram.Histogram // the metric's durations: one per unit of work
	// done counts the units of work started, inARow the failures since the
	// last one that succeeded.
	done, inARow int
	// minUnits is the fewest units of work a repetition does
	// (netMinUnits unless the scenario says otherwise).
	minUnits int
	start    time.Time
	proc     stats.ProcessStats
	alloc    [2]uint64
	// before and note are the server's counters at the start, or why
	// there are none; after, those at the end when settle read them (else
	// end reads them).
	before, after *stats.ServerStats
	note          string
	settled       bool // after and note were read by settle
}

// network measures one repetition of a network scenario.
func (r *runner) network(ctx context.Context, sc Scenario, col column) results.Repetition {
	switch {
	case scenariospec.Of(&sc).ColdStart():
		return r.coldStart(ctx, sc, col)
	case scenariospec.Of(&sc).PageLoad():
		return r.pageLoad(ctx, sc, col)
	}
	return r.headOfLine(ctx, sc, col)
}

// beginNet reads the server's counters and starts the clock.
func (r *runner) beginNet(ctx context.Context, col column, streams int) *netRep {
	n := &netRep{r: r, col: col, units: histogram.New(), minUnits: netMinUnits}
	n.m.Streams = streams
	n.before, n.note = r.serverStats(ctx, col, serverctl.StatsTimeout)
	n.proc = procstat.Sample()
	n.alloc[0], n.alloc[1] = procstat.Allocated()
	n.start = time.Now()
	return n
}

// more says whether another unit of work may start: the context is live,
// fewer than netMaxUnits ran, fewer than netMaxFailures failed in a row,
// and either fewer than minUnits ran or Duration has not passed; all
// within the repetition's Timeout.
func (n *netRep) more(ctx context.Context) bool {
	n.mu.Lock()
	done, failed := n.done, n.inARow
	n.mu.Unlock()
	elapsed := time.Since(n.start)
	switch {
	case ctx.Err() != nil, done >= netMaxUnits, failed >= netMaxFailures, elapsed >= n.r.opts.Timeout:
		return false
	}
	return done < n.minUnits || elapsed < n.r.opts.Duration
}

// unit records one unit of work that succeeded and took d.
func (n *netRep) unit(d time.Duration) {
	n.mu.Lock()
	n.units.Record(d)
	n.done++
	n.inARow = 0
	n.mu.Unlock()
}

// unitFailed counts one unit of work that failed (its requests' errors
// counted by fail).
func (n *netRep) unitFailed() {
	n.mu.Lock()
	n.done++
	n.inARow++
	n.mu.Unlock()
}

// fail counts a failed request (err classified), keeping the first error.
func (n *netRep) fail(err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.m.Requests++
	n.m.Errors.Count(transport.Classify(err))
	if n.m.FirstError == "" {
		n.m.FirstError = err.Error()
	}
}

// ok counts a successful request that moved bytes of body.
func (n *netRep) ok(bytes int64) {
	n.mu.Lock()
	n.m.Requests++
	n.m.Bytes += bytes
	n.mu.Unlock()
}

// end stops the clock, reads the server's counters and returns the
// repetition: Value is the median unit of work, Latency their spread.
func (n *netRep) end(ctx context.Context, conns int64, negotiated string) results.Repetition {
	n.mu.Lock()
	defer n.mu.Unlock()
	m := n.m
	m.Seconds = time.Since(n.start).Seconds()
	proc := procstat.Sample().Sub(n.proc)
	a1, o1 := procstat.Allocated()
	after, note := n.after, n.note
	if !n.settled {
		after, note = n.readAfter(ctx)
	}
	m.Interrupted = ctx.Err() != nil
	m.Connections, m.Negotiated = conns, negotiated
	m.Latency = n.units.Summary()
	m.Value = m.Latency.P50
	if n.units.Count() > 0 {
		m.LatencyHistogram, _ = n.units.Encode() // to memory: cannot fail
	}
	if m.Requests > 0 {
		m.AllocBytesPerRequest = float64(a1-n.alloc[0]) / float64(m.Requests)
		m.AllocsPerRequest = float64(o1-n.alloc[1]) / float64(m.Requests)
	}
	n.r.cpu(&m, n.col.name, proc, n.before, after, note, float64(m.Requests-m.Errors.Total)/1000)
	return m
}

// settle reads the server's counters at the end of the measured work,
// before the caller cuts off work still running (head-of-line's download):
// the server counts a body write before making it and takes back what a
// failed write left unsent, so counters read after the cut-off could be
// lower than at the start, and read as reset. Call it with n unlocked.
func (n *netRep) settle(ctx context.Context) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.after, n.note = n.readAfter(ctx)
	n.settled = true
}

// readAfter reads the server's counters at the end, or says why not;
// n.mu is held.
func (n *netRep) readAfter(ctx context.Context) (*stats.ServerStats, string) {
	if n.before == nil || ctx.Err() != nil {
		return nil, n.note
	}
	return n.r.serverStats(ctx, n.col, serverctl.StatsTimeoutAfter(n.m.Errors.Total))
}

// statusError is a response whose status is not 2xx.
type statusError struct{ status string }

func (e statusError) Error() string         { return "status " + e.status }
func (e statusError) Kind() stats.ErrorKind { return stats.ErrStatus }

// fetched is what get saw of a response.
type fetched struct {
	bytes      int64  // body bytes read
	negotiated string // the transport the response came over
	resumed    bool   // its TLS session was resumed
}

// get sends method to url over c and reads the whole body.
func get(ctx context.Context, c *transport.Client, method, url string) (fetched, error) {
	var f fetched
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return f, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return f, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	f.negotiated = transport.OfResponse(resp).String()
	f.resumed = resp.TLS != nil && resp.TLS.DidResume
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return f, fmt.Errorf("%s %s: %w", method, url, statusError{resp.Status})
	}
	f.bytes, err = io.CopyBuffer(io.Discard, resp.Body, make([]byte, c.ReadSize()))
	if err == nil && resp.ContentLength >= 0 && f.bytes != resp.ContentLength {
		err = fmt.Errorf("body of %d bytes, %d announced: %w", f.bytes, resp.ContentLength, io.ErrUnexpectedEOF)
	}
	if err != nil {
		return f, fmt.Errorf("%s %s: %w", method, url, err)
	}
	return f, nil
}

// requestTimeout bounds one request or page of the network scenarios.
func (r *runner) requestTimeout() time.Duration { return max(10*time.Second, r.opts.Duration) }
