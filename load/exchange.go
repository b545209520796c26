package load

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/httpvs/httpvs/internal/lean"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// exchange is one request's outcome, before it is judged.
type exchange struct {
	status   int
	length   int64         // Content-Length, or -1
	got      int64         // response body bytes
	sent     int64         // request body bytes
	answered bool          // a response arrived over the transport asked for
	ttfb     time.Duration // to the response's first byte; 0 if unknown
	err      error
}

// failure judges an exchange: nil for a success, else why it failed and
// the kind of failure.
func (x exchange) failure() (stats.ErrorKind, error) {
	switch {
	case x.err != nil:
		return transport.Classify(x.err), x.err
	case x.status/100 != 2:
		return stats.ErrStatus, fmt.Errorf("status %d %s", x.status, http.StatusText(x.status))
	case x.length >= 0 && x.got != x.length:
		return stats.ErrShort, fmt.Errorf("body has %d bytes, Content-Length said %d", x.got, x.length)
	}
	return 0, nil
}

// heard is when the server was last heard from in an exchange with a
// response that started at start and ended at end: its end for a success;
// for a failure, its first byte (a body cut off by a server that died ends
// when the client gives up, which is not when the server last spoke; its
// last bytes are not timed).
func (x exchange) heard(start, end time.Time, failure error) time.Time {
	if failure == nil {
		return end
	}
	return start.Add(x.ttfb)
}

func (w *worker) stdExchange(traced context.Context, start time.Time) exchange {
	reqCtx, cancel := context.WithTimeout(traced, w.r.cfg.RequestTimeout)
	defer cancel()
	req := w.base.WithContext(reqCtx)
	if n := len(w.r.body); n > 0 {
		req.Body = io.NopCloser(bytes.NewReader(w.r.body))
		req.ContentLength = int64(n)
	}
	w.reqStart.Store(start.UnixNano())
	w.ttfb.Store(0)
	x := exchange{sent: req.ContentLength, length: -1}
	resp, err := w.client.Do(req)
	if err != nil {
		x.err = err
		return x
	}
	x.answered, x.status, x.length = true, resp.StatusCode, resp.ContentLength
	x.ttfb = time.Duration(w.ttfb.Load()) // GotFirstResponseByte ran before Do returned
	if x.got, err = w.drain(resp); err != nil {
		x.err = fmt.Errorf("body failed after %d bytes: %w", x.got, err)
	}
	return x
}

func (w *worker) callExchange(runCtx context.Context) exchange {
	ctx, cancel := context.WithTimeout(runCtx, w.r.cfg.RequestTimeout)
	defer cancel()
	got, sent, err := w.caller.Call(ctx)
	x := exchange{status: http.StatusOK, got: got, sent: sent, length: -1, err: err}
	x.answered = err == nil
	return x
}

func (w *worker) leanExchange(start time.Time) exchange {
	resp, err := w.stream.Do(w.r.cfg.RequestTimeout)
	return leanOutcome(resp, err, int64(len(w.r.body)), start)
}

// leanOutcome is the exchange of a fast-engine request that started at
// start and sent bodyLen body bytes: the lean client checks the body's
// length itself.
func leanOutcome(resp lean.Response, err error, bodyLen int64, start time.Time) exchange {
	x := exchange{status: resp.Status, got: resp.BodyBytes, length: -1, err: err}
	if !resp.FirstByte.IsZero() {
		x.ttfb = max(resp.FirstByte.Sub(start), 1) // a zero would read as unknown
	}
	if resp.Status != 0 {
		x.answered, x.sent = true, bodyLen
	}
	return x
}

// drain reads the body to its end and closes it.
func (w *worker) drain(resp *http.Response) (int64, error) {
	defer resp.Body.Close()
	var n int64
	for {
		m, err := resp.Body.Read(w.buf)
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// stripURLError drops the method and URL that net/http's *url.Error
// repeats; the first-error line names them once.
func stripURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
