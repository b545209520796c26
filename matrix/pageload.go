package matrix

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/webpage"
)

// pageConns is how many HTTP/1.1 connections page-load opens at most per
// page, as browsers do per host (HTTP/2 and HTTP/3 use one).
const pageConns = 6

// PageObject is one object of page-load's page.
type PageObject = webpage.Object

// Page is page-load's page, webpage.Median's: 50 objects, 704,512 body
// bytes (688 KiB), the HTTP Archive's median page's mix at about a third of
// its size. The document comes first, alone (its response is what a
// browser parses to find the rest), then the other 49 at once.
var Page = webpage.Median().Objects

// pageLoad measures one repetition of page-load: whole pages, one after
// another, each on a new client's new connections (h1 and h1-tls: up to
// pageConns; h2c, h2, h3: one). Value is the median page load time, from
// the document's request to the last object's last byte; ObjectLatency is
// each object's time from the page's start. A page with a failed object
// is a failure, not a time.
func (r *runner) pageLoad(ctx context.Context, sc Scenario, col column) results.Repetition {
	opts := r.clientOptions(sc, col.proto)
	opts.MaxConnsPerHost = pageConns
	base := r.opts.Target.base(col.proto) + "/bytes/"
	n := r.beginNet(ctx, col, len(Page)-1)
	n.minUnits = pageMinUnits
	objects := stats.NewHistogram()
	var (
		conns      int64
		negotiated string
	)
	for n.more(ctx) {
		d, proto, ok := r.onePage(ctx, n, opts, base, objects, &conns)
		if !ok {
			n.unitFailed()
			continue
		}
		negotiated = proto
		n.unit(d)
	}
	m := n.end(ctx, conns, negotiated)
	obj := objects.Summary()
	m.ObjectLatency = &obj
	return m
}

// onePage loads Page once with a new client; ok is false when an object
// failed (counted in n).
func (r *runner) onePage(ctx context.Context, n *netRep, opts transport.ClientOptions, base string, objects *stats.Histogram, conns *int64) (took time.Duration, proto string, ok bool) {
	c, err := transport.NewClient(opts)
	if err != nil {
		n.fail(err)
		return 0, "", false
	}
	defer func() {
		c.Close()
		*conns += c.Connections()
	}()
	ctx, cancel := context.WithTimeout(ctx, r.requestTimeout())
	defer cancel()
	start := time.Now()
	var (
		mu     sync.Mutex
		failed bool
	)
	fetch := func(o PageObject) {
		f, err := get(ctx, c, "GET", base+strconv.FormatInt(o.Bytes, 10))
		d := time.Since(start)
		if err != nil {
			n.fail(err)
			mu.Lock()
			failed = true
			mu.Unlock()
			return
		}
		n.ok(f.bytes)
		mu.Lock()
		objects.Record(d)
		proto = f.negotiated
		mu.Unlock()
	}
	fetch(Page[0])
	if failed {
		return 0, "", false
	}
	var wg sync.WaitGroup
	for _, o := range Page[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fetch(o)
		}()
	}
	wg.Wait()
	return time.Since(start), proto, !failed
}
