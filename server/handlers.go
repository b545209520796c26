package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/httpvs/httpvs/units"
)

// SinkResult is the JSON body /sink replies with.
type sinkResult struct {
	Bytes   int64   `json:"bytes"`   // request body bytes read
	Seconds float64 `json:"seconds"` // time spent reading them
	// SteadyBytes are the body bytes read after the request's ?omit=
	// duration had passed since its headers arrived, SteadySeconds the
	// time from then to the last byte: the receiver's steady rate, as
	// iperf3 measures it at the receiver. Absent without ?omit= or when
	// the body ended within it.
	SteadyBytes   int64   `json:"steady_bytes,omitempty"`
	SteadySeconds float64 `json:"steady_seconds,omitempty"`
}

func (s *Server) handleBytes(w http.ResponseWriter, r *http.Request) {
	size, err := units.ParseBytes(r.PathValue("size"))
	if err != nil {
		http.Error(w, fmt.Sprintf("bad size in %s: %v", r.URL.Path, err), http.StatusBadRequest)
		return
	}
	if size > s.maxSize {
		http.Error(w, fmt.Sprintf("size %d is above this server's size limit %s (%d bytes)", size, s.maxSize, s.maxSize), http.StatusRequestEntityTooLarge)
		return
	}
	c := s.counter(r)
	c.requests.Add(1)
	h := w.Header()
	h.Set("Content-Length", strconv.FormatInt(int64(size), 10))
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	start := time.Now()
	for remaining := int64(size); remaining > 0; {
		n := min(remaining, int64(len(s.chunk)))
		// Count before writing: a client that has every byte and then
		// reads /stats must find them counted.
		c.bodyWrites.Add(1)
		c.bodySent.Add(n)
		m, err := w.Write(s.chunk[:n])
		remaining -= int64(m)
		if err != nil {
			c.bodySent.Add(int64(m) - n)
			c.aborted.Add(1)
			break
		}
	}
	c.transferNanos.Add(int64(time.Since(start)))
}

func (s *Server) handleSink(w http.ResponseWriter, r *http.Request) {
	c := s.counter(r)
	c.requests.Add(1)
	if r.ContentLength > int64(s.maxSize) {
		// The declared length says it already: refuse before reading a byte.
		c.aborted.Add(1)
		http.Error(w, fmt.Sprintf("upload of %d bytes is above this server's size limit %s (%d bytes)", r.ContentLength, s.maxSize, s.maxSize), http.StatusRequestEntityTooLarge)
		return
	}
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	bp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bp)
	buf := *bp
	start := time.Now()
	omit, err := sinkOmit(r)
	if err != nil {
		c.aborted.Add(1)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var (
		total   int64
		readErr error
		steady  steadySink
	)
	steady.from = start.Add(omit)
	for {
		n, err := r.Body.Read(buf)
		c.bodyReads.Add(1)
		c.bodyReceived.Add(int64(n))
		total += int64(n)
		if omit > 0 {
			steady.read(n, total)
		}
		if total > int64(s.maxSize) {
			readErr = fmt.Errorf("upload is above this server's size limit %s (%d bytes)", s.maxSize, s.maxSize)
			break
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			readErr = err
			break
		}
	}
	elapsed := time.Since(start)
	c.transferNanos.Add(int64(elapsed))
	if readErr != nil {
		c.aborted.Add(1)
		status := http.StatusBadRequest
		if total > int64(s.maxSize) {
			status = http.StatusRequestEntityTooLarge
		}
		http.Error(w, "upload failed after "+strconv.FormatInt(total, 10)+" bytes: "+readErr.Error(), status)
		return
	}
	res := sinkResult{Bytes: total, Seconds: elapsed.Seconds()}
	if omit > 0 && steady.began {
		res.SteadyBytes, res.SteadySeconds = total-steady.before, steady.last.Sub(steady.from).Seconds()
	}
	writeJSON(w, res)
}

var okBody = []byte("ok")

// maxSmallBody bounds what /small reads of an unexpected request body.
const maxSmallBody = 64 << 10

func (s *Server) handleSmall(w http.ResponseWriter, r *http.Request) {
	c := s.counter(r)
	c.requests.Add(1)
	// A GET has no body (r.Body is http.NoBody: free). One that does is
	// read, up to a bound, so that HTTP/2 checks its content-length as
	// RFC 9113 8.1.1 asks (h2spec http2/8.1.2.6).
	if r.Body != http.NoBody {
		n, _ := io.Copy(io.Discard, io.LimitReader(r.Body, maxSmallBody))
		c.bodyReads.Add(1)
		c.bodyReceived.Add(n)
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain")
	h.Set("Content-Length", "2")
	// Counted before the write, as /bytes counts: a client that has the
	// body and then reads /stats must find it counted.
	c.bodyWrites.Add(1)
	c.bodySent.Add(int64(len(okBody)))
	if _, err := w.Write(okBody); err != nil {
		// A client gone away is not the server's error, but its body
		// was not sent.
		c.bodySent.Add(-int64(len(okBody)))
		c.aborted.Add(1)
	}
}

// settleWait bounds how long /stats waits for body handlers still running.
const settleWait = 250 * time.Millisecond

// settle waits, up to settleWait, for body handlers whose client may already
// have every byte but whose handler time is not yet added.
func (s *Server) settle() {
	deadline := time.Now().Add(settleWait)
	for s.inflight.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

func (s *Server) handleStats(w http.ResponseWriter, _ *http.Request) {
	s.settle()
	writeJSON(w, s.Stats())
}

func (s *Server) handleReset(w http.ResponseWriter, _ *http.Request) {
	s.settle()
	writeJSON(w, s.Reset())
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "encoding JSON: "+err.Error(), http.StatusInternalServerError)
		return
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b) // a client gone away is not the server's error
}

const indexText = `httpvs payload server
GET  /bytes/{size}, /{size}   exactly size bytes: 10000000000, 10g, 100MB, 64Ki
PUT  /sink, POST /sink        reads the body, replies {"bytes":N,"seconds":S}
GET  /small                   a 2-byte response
GET  /page/                   a page for a browser: its document, then its objects under /page/
POST /echo                    the request body back, with X-Request-Header-Count/-Bytes
GET  /stats                   server counters as JSON; POST /stats/reset zeroes them
`

func handleIndex(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, indexText)
}
