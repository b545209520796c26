package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/httpvs/httpvs/units"
)

// Response headers /echo adds about the request it received.
const (
	headerRequestHeaderCount = "X-Request-Header-Count" // number of request header field values, Host excluded
	headerRequestHeaderBytes = "X-Request-Header-Bytes" // sum of len(name)+len(value) over them
)

// budget bounds the bytes of request bodies held in memory at once,
// across every request: a reservation that would pass the limit fails.
type budget struct {
	limit int64
	used  atomic.Int64
}

// take reserves n bytes, or reports false, reserving nothing, when they
// would pass the limit.
func (b *budget) take(n int64) bool {
	for {
		u := b.used.Load()
		if u+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// give returns n reserved bytes.
func (b *budget) give(n int64) { b.used.Add(-n) }

// echoChunk is the step in which a body of unknown length is read and
// reserved.
const echoChunk = 64 << 10

// errEchoTooLarge and errBudget say why readEcho refused a body.
var (
	errEchoTooLarge = errors.New("above the echo limit")
	errBudget       = errors.New("over the server's buffered-body budget")
)

// readEcho reads r's body into memory, holding its bytes against the
// server's budget: the caller gives back held once the body is written.
// A declared length above the echo limit is refused before a byte is read.
func (s *Server) readEcho(r *http.Request) (body []byte, held int64, err error) {
	if r.ContentLength > int64(s.maxEcho) {
		return nil, 0, errEchoTooLarge
	}
	if r.ContentLength >= 0 {
		if !s.buffered.take(r.ContentLength) {
			return nil, 0, errBudget
		}
		body = make([]byte, r.ContentLength)
		_, err = io.ReadFull(r.Body, body)
		if err == nil {
			// A body longer than it declared (the transports check
			// this for h1 and h2; this holds it for any of them).
			var extra [1]byte
			if n, _ := r.Body.Read(extra[:]); n > 0 {
				err = fmt.Errorf("the body is longer than its Content-Length %d", r.ContentLength)
			}
		}
		return body, r.ContentLength, err
	}
	for {
		if len(body) == cap(body) {
			step := int64(min(echoChunk, int(s.maxEcho)+1-len(body)))
			if !s.buffered.take(step) {
				return body, held, errBudget
			}
			held += step
			grown := make([]byte, len(body), int64(len(body))+step)
			copy(grown, body)
			body = grown
		}
		n, err := r.Body.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		if int64(len(body)) > int64(s.maxEcho) {
			// Checked before EOF: a read may return a body's last bytes
			// and its end together (quic-go's HTTP/3 bodies do), and
			// those bytes may pass the limit.
			return body, held, errEchoTooLarge
		}
		if err == io.EOF {
			return body, held, nil
		}
		if err != nil {
			return body, held, err
		}
	}
}

func (s *Server) handleEcho(w http.ResponseWriter, r *http.Request) {
	c := s.counter(r)
	c.requests.Add(1)
	body, held, err := s.readEcho(r)
	defer s.buffered.give(held)
	c.bodyReads.Add(1)
	c.bodyReceived.Add(int64(len(body)))
	if err != nil {
		c.aborted.Add(1)
		s.refuseEcho(w, r, err)
		return
	}
	count, size := headerSize(r.Header)
	h := w.Header()
	h.Set(headerRequestHeaderCount, strconv.Itoa(count))
	h.Set(headerRequestHeaderBytes, strconv.Itoa(size))
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	// Counted before the write, as /bytes counts: a client that has the
	// body and then reads /stats must find it counted.
	c.bodyWrites.Add(1)
	c.bodySent.Add(int64(len(body)))
	if n, err := w.Write(body); err != nil {
		c.bodySent.Add(int64(n - len(body)))
		c.aborted.Add(1)
	}
}

// refuseEcho answers a body readEcho refused, saying why and what would
// be right.
func (s *Server) refuseEcho(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, errEchoTooLarge):
		declared := ""
		if r.ContentLength >= 0 {
			declared = fmt.Sprintf(" of %d bytes", r.ContentLength)
		}
		http.Error(w, fmt.Sprintf("echo body%s is above this server's echo limit %s (%d bytes); use /sink for large uploads",
			declared, s.maxEcho, s.maxEcho), http.StatusRequestEntityTooLarge)
	case errors.Is(err, errBudget):
		w.Header().Set("Retry-After", "1")
		http.Error(w, fmt.Sprintf("the server holds %s of request bodies in memory, its limit %s for all requests at once; retry later",
			units.Bytes(s.buffered.used.Load()).Human(), units.Bytes(s.buffered.limit).Human()), http.StatusServiceUnavailable)
	default:
		http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
	}
}

// headerSize returns the number of r's header field values and the sum of
// their names' and values' lengths.
func headerSize(h http.Header) (count, size int) {
	for name, values := range h {
		for _, v := range values {
			count++
			size += len(name) + len(v)
		}
	}
	return count, size
}
