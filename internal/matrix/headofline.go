package matrix

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// holBulk is the size head-of-line's download asks for: more than it can
// move while the small requests run, cut off when they are done.
const holBulk = 100 << 30

// holWarmRTTs is how many round trips (Options.RTT) head-of-line's
// download runs before the small requests are timed: from TCP's and
// QUIC's initial window of 10 packets, slow start fills 12 Mbit/s at 70 ms
// in about 3, so the small requests meet a download at its pace, whatever
// the transport's handshake cost.
const holWarmRTTs = 6

// headOfLine measures one repetition of head-of-line: one client starts a
// bulk download and, once its response has begun, sends GET /small one at
// a time (h2c, h2: on the download's TCP connection; h3: on its QUIC
// connection, another stream; h1, h1-tls: on a second connection, since
// HTTP/1.1 cannot multiplex). The download first runs for the warm-up
// (Options.Warmup, or holWarmRTTs round trips if longer), which includes
// one unmeasured small request (it opens h1's second connection). Value
// is the median small request's latency; the download is cancelled at the
// end and its bytes over the measured time are BulkBytes. A download that
// fails before then is a failure.
func (r *runner) headOfLine(ctx context.Context, sc Scenario, col column) results.Repetition {
	opts := r.clientOptions(sc, col.proto)
	opts.MaxConnsPerHost = 2
	base := targetBase(r.opts.Target, col.proto)
	c, err := transport.NewClient(opts)
	if err != nil {
		m := results.Repetition{Streams: 2, Requests: 1, FirstError: err.Error()}
		m.Errors.Count(transport.Classify(err))
		return m
	}
	defer c.Close()
	bulkCtx, stop := context.WithCancel(ctx)
	defer stop()
	b := &bulk{started: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.run(bulkCtx, c, base+"/bytes/"+strconv.Itoa(holBulk))
	}()
	warmErr := r.warmHeadOfLine(ctx, c, sc, base, b)
	n := r.beginNet(ctx, col, 2)
	bulkBefore := b.read()
	if warmErr != nil {
		n.fail(warmErr)
	}
	var negotiated string
	for b.flowing() && n.more(ctx) {
		one, cancel := context.WithTimeout(ctx, r.requestTimeout())
		start := time.Now()
		f, err := get(one, c, spec(&sc).Method, base+spec(&sc).Path)
		cancel()
		if err != nil {
			n.fail(err)
			n.unitFailed()
			continue
		}
		negotiated = f.negotiated
		n.ok(f.bytes)
		n.unit(time.Since(start))
	}
	bulkAfter := b.read()
	n.settle(ctx)
	stop()
	wg.Wait()
	if b.err != nil {
		n.fail(b.err)
	}
	m := n.end(ctx, c.Counters().Connections, negotiated)
	m.BulkBytes = bulkAfter - bulkBefore
	return m
}

// warmHeadOfLine waits for head-of-line's download b to begin, sends one
// unmeasured small request, and lets the download run until the warm-up
// has passed since it began. It returns the small request's error, if any.
func (r *runner) warmHeadOfLine(ctx context.Context, c *transport.Client, sc Scenario, base string, b *bulk) error {
	timer := time.NewTimer(r.requestTimeout())
	defer timer.Stop()
	select {
	case <-b.started:
	case <-timer.C:
	case <-ctx.Done():
	}
	began := time.Now()
	var err error
	if b.flowing() {
		one, cancel := context.WithTimeout(ctx, r.requestTimeout())
		_, err = get(one, c, spec(&sc).Method, base+spec(&sc).Path)
		cancel()
	}
	warm := max(r.opts.Warmup, holWarmRTTs*r.opts.RTT) - time.Since(began)
	if warm > 0 {
		timer.Reset(warm)
		select {
		case <-timer.C:
		case <-ctx.Done():
		}
	}
	return err
}

// bulk is head-of-line's download.
type bulk struct {
	started chan struct{} // closed when the response began, or the download ended
	once    sync.Once
	mu      sync.Mutex
	ended   bool
	bytes   int64 // body bytes read
	err     error // how it failed; nil when it was cut off by its context
}

// read returns the body bytes read so far.
func (b *bulk) read() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bytes
}

// flowing says the download is still running.
func (b *bulk) flowing() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.ended
}

// run downloads url over c until ctx ends.
func (b *bulk) run(ctx context.Context, c *transport.Client, url string) {
	defer func() {
		b.mu.Lock()
		b.ended = true
		b.mu.Unlock()
		b.once.Do(func() { close(b.started) })
	}()
	fail := func(err error) {
		if ctx.Err() == nil {
			b.err = err
		}
	}
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		fail(err)
		return
	}
	resp, err := c.Do(req)
	if err != nil {
		fail(err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fail(statusError{resp.Status})
		return
	}
	b.once.Do(func() { close(b.started) })
	buf := make([]byte, c.ReadSize())
	for {
		k, err := resp.Body.Read(buf)
		b.mu.Lock()
		b.bytes += int64(k)
		b.mu.Unlock()
		if errors.Is(err, io.EOF) {
			fail(io.ErrUnexpectedEOF) // 100 GiB cannot end in time
			return
		}
		if err != nil {
			fail(err)
			return
		}
	}
}
