package transport

import (
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// floorBody holds a request body to the floor: from the handler's first
// read, a timer looks, each time the bytes read so far would have fallen
// under the floor (and at Grace at the earliest), whether they have; if
// not, it drops the peer's connection and the read fails with ErrTooSlow.
type floorBody struct {
	io.ReadCloser
	rate  float64
	grace time.Duration
	drop  func()

	mu      sync.Mutex
	got     int64
	start   time.Time
	timer   *time.Timer
	stopped bool
	dropped bool
}

func (b *floorBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	if b.timer == nil && !b.stopped {
		b.start = time.Now()
		b.timer = time.AfterFunc(b.grace, b.check)
	}
	b.mu.Unlock()
	n, err := b.ReadCloser.Read(p)
	b.mu.Lock()
	b.got += int64(n)
	dropped := b.dropped
	b.mu.Unlock()
	if dropped && err != nil && !errors.Is(err, io.EOF) {
		err = slowError{}
	}
	if err != nil {
		b.stop()
	}
	return n, err
}

// due is when the bytes read so far fall under the floor.
func (b *floorBody) due() time.Time {
	return b.start.Add(max(b.grace, time.Duration(float64(b.got)/b.rate*float64(time.Second))))
}

// check runs on the timer: it waits again while the body keeps to the
// floor, and drops the peer when it does not.
func (b *floorBody) check() {
	b.mu.Lock()
	if b.stopped {
		b.mu.Unlock()
		return
	}
	if wait := time.Until(b.due()); wait > 0 {
		b.timer.Reset(wait)
		b.mu.Unlock()
		return
	}
	b.dropped, b.stopped = true, true
	b.mu.Unlock()
	b.drop()
}

// stop ends the watch: the body ended, or its handler returned.
func (b *floorBody) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopped = true
	if b.timer != nil {
		b.timer.Stop()
	}
}

// Close stops the watch and closes the body.
func (b *floorBody) Close() error {
	b.stop()
	return b.ReadCloser.Close()
}

// floorRequests holds the request bodies h reads to m, dropping the
// connection of a peer that sends slower (connMark.drop), and, over
// HTTP/2 and HTTP/3, the responses h writes (streamFloor); HTTP/1.1's
// responses are held by their connection (floorConn). It also registers
// HTTP/2 handlers with their connection's h2Churn.
func floorRequests(h http.Handler, m MinDataRate) http.Handler {
	r, on := m.resolved()
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mark, ok := req.Context().Value(connMarkKey{}).(*connMark)
		if !ok {
			h.ServeHTTP(w, req)
			return
		}
		if mark.churn != nil && req.ProtoMajor == 2 {
			defer mark.churn.enter(req, w)()
		}
		if mark.floor != nil && req.ProtoMajor >= 2 {
			w = floorWriter{ResponseWriter: w, f: mark.floor}
		}
		if on && mark.drop != nil && req.Body != nil && req.Body != http.NoBody {
			body := &floorBody{ReadCloser: req.Body, rate: float64(r.BytesPerSecond), grace: r.Grace, drop: mark.drop}
			defer body.stop()
			req.Body = body
		}
		h.ServeHTTP(w, req)
	})
}
