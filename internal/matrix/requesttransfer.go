package matrix

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// A user's request answered with a large body (defaults.TransferResponse or
// more) is a transfer: each round fetches it over and over, Streams at a
// time, and its figure is bytes per second.
const (
	// minTransferResponses is the fewest responses a round fetches one
	// at a time: several, so that no one response's set-up or tail
	// decides the figure. Many at a time fetch one each at least, as
	// download-parallel-10 does.
	minTransferResponses = 4
	// maxTransfers bounds the responses of a round.
	maxTransfers = 10000
)

// userTransfer says sc measures one of the user's requests as a
// transfer.
func userTransfer(sc Scenario) bool { return scenariospec.Of(&sc).UserTransfer() }

// transferKind says sc's cells are rates of bytes: a transfer scenario,
// or a user's request measured as one.
func transferKind(sc Scenario) bool { return scenariospec.Transfer(sc.Metric) || userTransfer(sc) }

// transferCandidate says a response of size to req makes req a
// transfer: a GET without a body whose response is large.
func transferCandidate(req *results.Request, size int64) bool {
	return req.Method == http.MethodGet && req.BodyBytes == 0 && size >= int64(defaults.TransferResponse)
}

// shapeTransfer makes sc, a scenario of req (a transfer: req.Transfer),
// fetch its response enough times a round for the round to last o's
// Duration, one response alone taking t: minTransferResponses at least
// one at a time, each stream once at least many at a time, and no more
// than half of o's Timeout holds over the slowest transport of each (one
// response's time over each transport; its streams sharing the
// bandwidth). It keeps each for the estimate and returns the line that
// says so.
func shapeTransfer(o Options, sc *Scenario, req *results.Request, t time.Duration, each map[transport.Protocol]time.Duration) string {
	streams := max(spec(sc).Streams, 1)
	least := streams
	if streams == 1 {
		least = minTransferResponses
	}
	slowest := t
	for _, d := range each {
		slowest = max(slowest, d)
	}
	n := max(least, int((o.Duration+t-1)/max(t, 1)))
	n = (n + streams - 1) / streams * streams // whole waves
	if most := int(o.Timeout / 2 / max(slowest, 1)); n > most {
		n = max(most/streams*streams, streams)
	}
	n = min(n, maxTransfers)
	spec(sc).Transfers, spec(sc).Req, spec(sc).OneResponse = n, req, each
	spec(sc).Duration = max(time.Duration(n)*t, o.Duration)
	at := "one at a time"
	if streams > 1 {
		at = fmt.Sprintf("%d at a time", streams)
	}
	return fmt.Sprintf("%s: %s answers %s (%s or more): measured as a transfer, in bytes per second and CPU per GB, %d responses a round, %s", sc.Name, req, units.Bytes(req.ResponseBytes).Human(), units.Bytes(defaults.TransferResponse).Human(), n, at)
}

// transferRound is the expected time of one round of sc, a user's
// request measured as a transfer, over p: its Transfers responses, each
// as long as one took over p when it was sized (OneResponse), a bound
// when many go at a time (they share the bandwidth); sc's Duration when
// p's time is unknown.
func (o *Options) transferRound(sc Scenario, p transport.Protocol) time.Duration {
	t, ok := spec(&sc).OneResponse[p]
	if !ok {
		return max(o.Duration, spec(&sc).Duration)
	}
	return time.Duration(spec(&sc).Transfers) * t
}

// requestTransfer measures one repetition of sc, a user's request
// measured as a transfer, over p: its Transfers responses, Streams at a
// time; a warm-up round's a warmShare of them (one at least), as many at
// a time.
func (r *runner) requestTransfer(ctx context.Context, sc Scenario, p transport.Protocol, warm bool) results.Repetition {
	n := spec(&sc).Transfers
	if warm {
		n = max(n/warmShare, 1)
	}
	tp := transfer.Plan{
		URL:       targetBase(r.opts.Target, p) + spec(&sc).Path,
		Transfers: n,
		Parallel:  min(spec(&sc).Streams, n),
		Client:    r.clientOptions(sc, p),
		Timeout:   r.opts.Timeout,
		Header:    mergeHeaders(r.opts.Header, spec(&sc).Req.Header),
		Omit:      r.opts.omit(false),
	}
	return r.runTransfer(ctx, sc, p, tp, spec(&sc).Req.ResponseBytes)
}

// runTransfer runs tp, one repetition of sc over p, each transfer per
// bytes, with the server's counters read around it.
func (r *runner) runTransfer(ctx context.Context, sc Scenario, p transport.Protocol, tp transfer.Plan, per int64) results.Repetition {
	m := results.Repetition{Streams: spec(&sc).Streams, SizeBytes: per}
	before, note := r.serverStats(ctx, column{name: p.String(), proto: p}, serverctl.StatsTimeout)
	bytes0, objects0 := procstat.Allocated()
	res, err := transfer.Run(ctx, tp)
	bytes1, objects1 := procstat.Allocated()
	if err != nil {
		m.Errors.Count(stats.ErrOther)
		m.FirstError = err.Error()
		return m
	}
	var after *stats.ServerStats
	if before != nil && ctx.Err() == nil {
		after, note = r.serverStats(ctx, column{name: p.String(), proto: p}, serverctl.StatsTimeoutAfter(res.Errors.Total))
	}
	m.Seconds, m.Bytes, m.Requests = res.Seconds, res.Bytes, int64(res.Streams)
	if res.Seconds > 0 {
		m.Value = float64(res.Bytes) / res.Seconds
	}
	steadyRate(&m, res)
	m.Connections, m.Negotiated = res.Connections, res.Protocol
	m.Interrupted = ctx.Err() != nil
	m.Errors, m.FirstError = res.Errors, res.FirstError
	m.ClientTCP, m.ClientQUIC = res.Client.TCP, res.Client.QUIC
	m.ClientBodyReads, m.ClientReadSize, m.ClientH2 = res.Client.BodyReads, res.Client.ReadSize, res.Client.H2Frames
	h := histogram.New()
	for _, s := range res.PerStream {
		h.Record(time.Duration(s.Seconds * float64(time.Second)))
	}
	m.Latency = h.Summary()
	if h.Count() > 0 {
		m.LatencyHistogram, _ = h.Encode() // to memory: cannot fail
	}
	m.AllocBytesPerRequest = float64(bytes1-bytes0) / float64(tp.Transfers)
	m.AllocsPerRequest = float64(objects1-objects0) / float64(tp.Transfers)
	r.cpu(&m, p.String(), res.Client.Process, before, after, note, float64(res.Bytes)/1e9)
	return m
}
