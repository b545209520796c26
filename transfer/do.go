package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// outcome is one transfer's result before aggregation.
type outcome struct {
	stream     transferresult.Stream
	reads      int64 // body Read calls
	negotiated bool  // a response arrived over the transport asked for
	failed     bool
	cutOff     bool // failed because the run's context ended: an interrupted measurement, not a failure of the server
	kind       stats.ErrorKind
	setup      bool // failed for want of a connection: a *transport.SetupTimeoutError
	// received is an upload's steady part as its receiver counted it
	// (an httpvs /sink asked for ?omit=); nil when it did not say.
	received *receipt
}

// receipt is the receiver's count of an upload's steady part: bytes read
// after the omitted start, and the time from its end to the last byte.
type receipt struct {
	bytes   int64
	seconds float64
}

func (o *outcome) fail(kind stats.ErrorKind, err error) {
	var st *transport.SetupTimeoutError
	o.setup = errors.As(err, &st)
	err = serverctl.WithoutURL(err)
	o.failed = true
	o.kind = kind
	o.stream.Error = err.Error()
	o.stream.ErrorKind = kind.String()
}

func (o *outcome) finish(ctx context.Context, start time.Time) {
	o.cutOff = o.failed && ctx.Err() != nil
	o.stream.Seconds = time.Since(start).Seconds()
	o.stream.BitsPerSecond = float64(units.Rate(units.Bytes(o.stream.Bytes), o.stream.Seconds))
}

func download(ctx context.Context, c *transport.Client, url string, header http.Header, st *steady) (out outcome) {
	start := time.Now()
	defer out.finish(ctx, start)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		out.fail(stats.ErrOther, err)
		return out
	}
	addHeader(req, header)
	resp, err := c.Do(req)
	if err != nil {
		out.fail(transport.Classify(err), fmt.Errorf("GET %s: %w", url, err))
		return out
	}
	defer resp.Body.Close()
	out.negotiated = true
	if resp.StatusCode != http.StatusOK {
		out.fail(stats.ErrStatus, fmt.Errorf("GET %s: %s%s", url, resp.Status, snippet(resp.Body)))
		return out
	}
	buf := make([]byte, c.ReadSize())
	for {
		n, err := resp.Body.Read(buf)
		out.reads++
		out.stream.Bytes += int64(n)
		st.moved(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			out.fail(transport.Classify(err), fmt.Errorf("GET %s: body failed after %d bytes: %w", url, out.stream.Bytes, err))
			return out
		}
	}
	if resp.ContentLength >= 0 && out.stream.Bytes != resp.ContentLength {
		out.fail(stats.ErrShort, fmt.Errorf("GET %s: body has %d bytes, Content-Length said %d", url, out.stream.Bytes, resp.ContentLength))
	}
	return out
}

func upload(ctx context.Context, c *transport.Client, url string, p Plan, st *steady) (out outcome) {
	start := time.Now()
	defer out.finish(ctx, start)
	size := int64(p.Size)
	body := &patternReader{remaining: size, chunk: p.WriteSize, st: st}
	if p.Body != nil {
		body.src = io.NewSectionReader(p.Body, 0, size)
	}
	var r io.Reader = body
	if p.WriteSize > 0 {
		r = chunkWriter{body}
	}
	if p.Omit > 0 {
		// httpvs's /sink counts the steady part as it receives it: the
		// sender's own count runs ahead by what its buffers hold (4 MiB of
		// TCP send buffer is seconds of a slow link).
		url += sinkQuery(url) + "omit=" + p.Omit.String()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, r)
	if err != nil {
		out.fail(stats.ErrOther, err)
		return out
	}
	addHeader(req, p.Header)
	req.ContentLength = size
	resp, err := c.Do(req)
	out.stream.Bytes = body.sent.Load()
	if err != nil {
		out.fail(transport.Classify(err), fmt.Errorf("PUT %s: failed after %d bytes: %w", url, body.sent.Load(), err))
		return out
	}
	defer resp.Body.Close()
	out.negotiated = true
	if resp.StatusCode/100 != 2 {
		out.fail(stats.ErrStatus, fmt.Errorf("PUT %s: %s%s", url, resp.Status, snippet(resp.Body)))
		return out
	}
	// An httpvs /sink says how much it received; check it.
	var sink struct {
		Bytes         *int64  `json:"bytes"`
		SteadyBytes   int64   `json:"steady_bytes"`
		SteadySeconds float64 `json:"steady_seconds"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&sink) == nil && sink.Bytes != nil {
		if *sink.Bytes != size {
			out.fail(stats.ErrShort, fmt.Errorf("PUT %s: server received %d of %d bytes", url, *sink.Bytes, size))
		}
		if sink.SteadyBytes > 0 && sink.SteadySeconds > 0 {
			out.received = &receipt{sink.SteadyBytes, sink.SteadySeconds}
		}
	}
	if body.sent.Load() != size {
		out.fail(stats.ErrShort, fmt.Errorf("PUT %s: sent %d of %d bytes", url, body.sent.Load(), size))
	}
	return out
}

// snippet returns ": " and the first line of an error body, if any.
func snippet(r io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(r, 300))
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if line == "" {
		return ""
	}
	return ": " + line
}

// fill is what upload bodies are made of.
var fill = func() []byte {
	b := make([]byte, 256<<10)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}()

// addHeader adds h to req's headers.
func addHeader(req *http.Request, h http.Header) {
	for k, vs := range h {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
}

// patternReader yields remaining bytes of src (nil: of fill), at most
// chunk at a time when chunk is positive, and counts what was read.
// HTTP/2 and HTTP/3 clients read request bodies in a goroutine of their own
// that can outlive the round trip (a response before the body ends), so
// the count is atomic.
type patternReader struct {
	remaining int64
	chunk     int
	src       io.Reader
	sent      atomic.Int64
	st        *steady // told of each byte handed over
}

func (r *patternReader) Read(p []byte) (int, error) {
	if r.remaining <= 0 {
		return 0, io.EOF
	}
	n := len(p)
	if r.chunk > 0 && n > r.chunk {
		n = r.chunk
	}
	if int64(n) > r.remaining {
		n = int(r.remaining)
	}
	if r.src != nil {
		var err error
		if n, err = r.src.Read(p[:n]); err != nil && err != io.EOF {
			return n, err
		}
		if n == 0 {
			return 0, io.ErrUnexpectedEOF // the file is shorter than it was
		}
	} else {
		n = copy(p[:n], fill)
	}
	r.remaining -= int64(n)
	r.sent.Add(int64(n))
	r.st.moved(n)
	return n, nil
}

// chunkWriter makes an HTTP/1.1 client, which copies a body with
// WriteTo when it can, write it in chunks of the reader's size.
type chunkWriter struct{ r *patternReader }

func (c chunkWriter) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c chunkWriter) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, c.r.chunk)
	var total int64
	for {
		n, err := io.ReadFull(c.r, buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF && c.r.remaining <= 0 {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
