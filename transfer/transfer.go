// Package transfer runs big downloads and uploads, one or many in
// parallel, over one transport, and measures them from the client's end and,
// when the server is httpvs, from the server's end too (its /stats delta).
// It is the engine behind `httpvs get` and `httpvs put`.
package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/internal/redact"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Direction says which way the bodies go.
type Direction int

// The directions.
const (
	Download Direction = iota // GET, the server sends
	Upload                    // PUT to /sink, the client sends
)

// String returns "download" or "upload", as results record it
// (vocab.Download, vocab.Upload).
func (d Direction) String() string {
	if d == Upload {
		return vocab.Upload
	}
	return vocab.Download
}

// method is the request method of d's transfers.
func (d Direction) method() string {
	if d == Upload {
		return http.MethodPut
	}
	return http.MethodGet
}

// Plan describes one run. Transfers run all at once.
type Plan struct {
	// URL is what each download GETs, or what each upload PUTs to.
	URL string
	// Direction is Download or Upload.
	Direction Direction
	// Size is each upload's body size; ignored for downloads.
	Size units.Bytes
	// Transfers is how many run; at least 1.
	Transfers int
	// Parallel is how many run at once, a transfer starting when another
	// ends; zero means all of them.
	Parallel int
	// Conns is how many connections carry them, each transfer going to
	// connection i mod Conns. Zero means one connection per parallel
	// transfer for HTTP/1.1, one connection in all for HTTP/2 and HTTP/3.
	Conns int
	// Header holds extra request headers sent with every transfer.
	Header http.Header
	// Body, if set, is what each upload sends: its first Size bytes;
	// nil sends a pattern of Size bytes.
	Body io.ReaderAt
	// WriteSize, if positive (up to 1Gi), is the most bytes an upload
	// hands the client at once (each Read of the body, or each Write when
	// the client copies with WriteTo); zero leaves it to the client.
	WriteSize int
	// Client says the transport and its tuning; Client.MaxConnsPerHost is
	// set by Run.
	Client transport.ClientOptions
	// Timeout bounds the whole run; zero means no bound besides ctx.
	Timeout time.Duration
	// RequestTimeout bounds each transfer, its request and body; zero
	// means no bound besides Timeout and ctx.
	RequestTimeout time.Duration
	// ServerStats fetches the server's /stats before and after the run and
	// reports the difference; a server without /stats is noted, not fatal.
	ServerStats bool
	// Omit, if positive, leaves the run's first Omit out of its steady
	// rate (the result's SteadyBytes over SteadySeconds), as iperf3's
	// --omit does: across a link, handshakes and slow start. Bytes and
	// Seconds still cover the whole run.
	Omit time.Duration
}

// Validate reports the first problem with p: a URL that does not fit
// the transport, or a field out of range as a *config.FieldError (the
// client's tuning under "Client.").
func (p Plan) Validate() (*url.URL, error) {
	u, err := p.Client.Protocol.ParseURL(p.URL)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Transfers < 1:
		return nil, fielderr.New("Transfers", p.Transfers, "at least 1")
	case p.Parallel < 0 || p.Parallel > p.Transfers:
		return nil, fielderr.New("Parallel", p.Parallel, "1 to %d, the transfers", p.Transfers)
	case p.Conns < 0 || p.Conns > p.parallel():
		return nil, fielderr.New("Conns", p.Conns, "1 to %d, the transfers at once", p.parallel())
	case p.Direction == Upload && p.Size < 0:
		return nil, fielderr.New("Size", p.Size, "zero or more")
	case p.WriteSize < 0 || p.WriteSize > maxWriteSize:
		return nil, fielderr.New("WriteSize", units.Bytes(p.WriteSize), "1 byte to 1Gi (0: the client's own)")
	}
	if err := p.Client.Config.Validate(); err != nil {
		return nil, fielderr.Within("Client", err)
	}
	return u, nil
}

// maxWriteSize bounds Plan.WriteSize: each write's buffer is held in
// memory.
const maxWriteSize = int(units.GiB)

// Run carries out p. Its error is for a plan that cannot start (bad URL,
// bad tuning); failures of transfers are counted in the Result.
func Run(ctx context.Context, p Plan) (transferresult.Result, error) {
	u, err := p.Validate()
	if err != nil {
		return transferresult.Result{}, err
	}
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}

	res := transferresult.Result{
		URL:         p.URL,
		Direction:   p.Direction.String(),
		Requested:   p.Client.Protocol.String(),
		Streams:     p.Transfers,
		PerStream:   make([]transferresult.Stream, p.Transfers),
		HeaderNames: redact.HeaderNames(p.Header),
	}
	if p.Direction == Upload {
		res.WriteSize = p.WriteSize
	}
	// The server's counters are read over a connection of their own, opened
	// before the first snapshot, so that the transfers' connections show in
	// the difference.
	statsURL := u.Scheme + "://" + u.Host + "/stats"
	var (
		before      *stats.ServerStats
		statsClient *transport.Client
	)
	if p.ServerStats {
		if statsClient, err = transport.NewClient(p.Client); err != nil {
			return transferresult.Result{}, err
		}
		defer statsClient.Close()
		var unreached error
		// Bounded past the dial timeout, so that an unreachable server
		// fails the dial rather than the read's deadline.
		limit := max(serverctl.StatsTimeout, p.Client.Config.Effective().DialTimeout+time.Second)
		before, res.ServerNote, unreached = serverctl.ReachStats(ctx, statsClient, statsURL, limit)
		if k := transport.Classify(unreached); unreached != nil && unreachable(k) && ctx.Err() == nil {
			// The transfers would dial the same way and wait as long again.
			p.unreachable(&res, k, unreached)
			return res, nil
		}
	}
	// Asked once the server is known to answer (a dead one would hold the
	// probe as long as a transfer); a server that cannot be asked shows
	// in the transfers' own errors.
	res.ServerMaxStreams, res.ConnectionsRaised = p.fitStreams(ctx, u)
	clients, err := p.clients()
	if err != nil {
		return transferresult.Result{}, err
	}
	conns := len(clients)
	defer closeAll(clients)
	peak := procstat.StartGoroutinePeak()
	defer peak.Stop()
	procBefore := procstat.Sample()

	var wg sync.WaitGroup
	outcomes := make([]outcome, p.Transfers)
	slots := p.slots(conns)
	start := time.Now()
	st := newSteady(start, p.Omit)
	for i := 0; i < p.Transfers; i++ {
		c := <-slots
		wg.Add(1)
		go func(i, c int) {
			defer func() { slots <- c; wg.Done() }()
			outcomes[i] = p.one(ctx, clients[c], st)
		}(i, c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	procAfter := procstat.Sample()

	res.Seconds = elapsed.Seconds()
	tally(&res, outcomes, p.Client.Protocol)
	res.BitsPerSecond = float64(units.Rate(units.Bytes(res.Bytes), res.Seconds))
	res.Interrupted = ctx.Err() != nil
	st.fill(&res, p.Omit, p.Direction == Upload, outcomes)
	res.Client.ReadSize = clients[0].ReadSize()
	res.Client.Settings = p.Client.Config.Effective()
	res.Client.BlockingSockets = p.Client.BlockingSockets
	res.Client.Process = procAfter.Sub(procBefore)
	res.Client.Process.GoroutinesPeak = peak.Take()
	if res.Bytes > 0 {
		res.Client.CPUSecondsPerGB = res.Client.Process.CPUSeconds() / (float64(res.Bytes) / 1e9)
	}
	addCounts(&res, clients)
	if before != nil && ctx.Err() == nil {
		after, note := serverctl.FetchStats(ctx, statsClient, statsURL, serverctl.StatsTimeoutAfter(res.Errors.Total))
		if after != nil {
			if d, err := after.Delta(*before); err != nil {
				res.ServerNote = err.Error()
			} else {
				res.Server = &d
			}
		} else {
			res.ServerNote = note
		}
	} else if p.ServerStats && res.ServerNote == "" {
		res.ServerNote = "run interrupted before the server's counters were read"
	}
	return res, nil
}

// tally adds the transfers' outcomes over p to res: their streams, bytes,
// body reads and failures.
func tally(res *transferresult.Result, outcomes []outcome, p transport.Protocol) {
	for i, out := range outcomes {
		res.PerStream[i] = out.stream
		if out.failed && !out.cutOff {
			res.FailedBytes += out.stream.Bytes
		} else {
			res.Bytes += out.stream.Bytes
		}
		res.Client.BodyReads += out.reads
		if out.negotiated {
			res.Protocol = p.String()
		}
		if !out.failed {
			continue
		}
		res.Errors.Count(out.kind)
		if out.setup {
			res.SetupTimeouts++
		}
		if res.FirstError == "" {
			res.FirstError = out.stream.Error
		}
	}
}

// unreachable fills res for a server that the first /stats read could not
// reach with err, of kind k: every transfer fails that way, none tried.
func (p Plan) unreachable(res *transferresult.Result, k stats.ErrorKind, err error) {
	for range p.Transfers {
		res.Errors.Count(k)
	}
	var st *transport.SetupTimeoutError
	if errors.As(err, &st) {
		res.SetupTimeouts = int64(p.Transfers)
	}
	// The error is the dial's, which the transfers share: name the URL the
	// user gave, not the /stats read that found it.
	res.FirstError = fmt.Sprintf("%s %s: %v", p.Direction.method(), p.URL, serverctl.WithoutURL(err))
	res.ServerNote = "server unreachable: no transfer attempted"
}

// parallel returns how many transfers run at once.
func (p Plan) parallel() int {
	if p.Parallel > 0 {
		return p.Parallel
	}
	return p.Transfers
}

// one runs one transfer over c, bounded by RequestTimeout, telling st of
// the body bytes it moves.
func (p Plan) one(ctx context.Context, c *transport.Client, st *steady) outcome {
	rctx := ctx
	if p.RequestTimeout > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, p.RequestTimeout)
		defer cancel()
	}
	var out outcome
	if p.Direction == Upload {
		out = upload(rctx, c, p.URL, p, st)
	} else {
		out = download(rctx, c, p.URL, p.Header, st)
	}
	// A transfer cut off by its own timeout failed; one cut off by the
	// run's end was interrupted.
	out.cutOff = out.failed && ctx.Err() != nil
	return out
}

// unreachable reports whether a request that failed with k never reached
// a server that would answer: nothing listened, set-up timed out, or TLS
// failed. A second request over the same transport would fail the same way.
func unreachable(k stats.ErrorKind) bool {
	return k == stats.ErrRefused || k == stats.ErrTimeout || k == stats.ErrTLS
}

// addCounts adds the clients' connection counters to res; how blocking
// sockets waited only when res says the clients had them.
func addCounts(res *transferresult.Result, clients []*transport.Client) {
	var waits stats.ReadWaits
	for _, c := range clients {
		n := c.Counters()
		res.Client.TCP.Add(n.IO)
		res.Client.QUIC.Add(n.QUIC)
		res.Client.H2Frames.Add(n.H2)
		waits.Add(n.Waits)
		res.Connections += n.Connections
	}
	if res.Client.BlockingSockets {
		res.Client.ReadWaits = &waits
	}
}
