package browser

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
)

// settlePoll is how often settle looks for requests still loading.
const settlePoll = 10 * time.Millisecond

// recorder collects a page load's Network events, which chromedp delivers
// on the tab's goroutine: each is kept under a lock and nothing waits.
type recorder struct {
	mu    sync.Mutex
	order []network.RequestID
	reqs  map[network.RequestID]*request
	start float64 // the first request's timestamp, monotonic seconds
}

// request is one request's events so far.
type request struct {
	obj  Object
	done bool
	end  float64 // loadingFinished's timestamp, monotonic seconds
}

func newRecorder() *recorder {
	return &recorder{reqs: map[network.RequestID]*request{}}
}

// event records ev if it is one of the Network events a page load needs.
func (r *recorder) event(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Request == nil || !strings.HasPrefix(ev.Request.URL, "http") {
			return // data: URLs move nothing
		}
		if req := r.reqs[ev.RequestID]; req != nil {
			req.obj.URL = ev.Request.URL // a redirect: the same request goes on
			return
		}
		if len(r.order) == 0 {
			r.start = ev.Timestamp.Float64()
		}
		r.order = append(r.order, ev.RequestID)
		r.reqs[ev.RequestID] = &request{obj: Object{URL: ev.Request.URL}}
	case *network.EventResponseReceived:
		if req := r.reqs[ev.RequestID]; req != nil && ev.Response != nil {
			req.obj.Protocol = ev.Response.Protocol
			req.obj.Connection = int64(ev.Response.ConnectionID)
			req.obj.Status = int(ev.Response.Status)
		}
	case *network.EventLoadingFinished:
		if req := r.reqs[ev.RequestID]; req != nil {
			req.done, req.end = true, ev.Timestamp.Float64()
			req.obj.Bytes = int64(ev.EncodedDataLength)
		}
	case *network.EventLoadingFailed:
		if req := r.reqs[ev.RequestID]; req != nil {
			req.done = true
			req.obj.Failed = ev.ErrorText
			if req.obj.Failed == "" {
				req.obj.Failed = "failed"
			}
		}
	}
}

// settle waits until every request seen has finished or failed: an
// object that does not delay the load event can end after it.
func (r *recorder) settle(ctx context.Context) error {
	t := time.NewTicker(settlePoll)
	defer t.Stop()
	for {
		if r.pending() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// pending is how many requests have neither finished nor failed.
func (r *recorder) pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, req := range r.reqs {
		if !req.done {
			n++
		}
	}
	return n
}

// result is the page load the events describe.
func (r *recorder) result(rawURL string) *PageLoad {
	r.mu.Lock()
	defer r.mu.Unlock()
	load := &PageLoad{URL: rawURL}
	for _, id := range r.order {
		req := r.reqs[id]
		o := req.obj
		if req.done && o.Failed == "" {
			o.Finished = seconds(req.end - r.start)
			load.LastByte = max(load.LastByte, o.Finished)
		}
		load.Objects = append(load.Objects, o)
	}
	return load
}

// seconds is s seconds as a Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
