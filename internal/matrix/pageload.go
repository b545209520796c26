package matrix

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/webpage"
)

// pageLoad measures one repetition of page-load: whole pages, one after
// another, each on a new client's new connections (h1 and h1-tls: up to
// linkmodel.PageConns; h2c, h2, h3: one). Value is the median page load time, from
// the document's request to the last object's last byte; ObjectLatency is
// each object's time from the page's start. A page with a failed object
// is a failure, not a time.
func (r *runner) pageLoad(ctx context.Context, sc Scenario, col column) results.Repetition {
	opts := r.clientOptions(sc, col.proto)
	opts.MaxConnsPerHost = linkmodel.PageConns
	base := targetBase(r.opts.Target, col.proto) + "/bytes/"
	page := r.page()
	n := r.beginNet(ctx, col, len(page.Objects)-1)
	n.minUnits = pageMinUnits
	objects := histogram.New()
	var (
		conns      int64
		negotiated string
	)
	for n.more(ctx) {
		d, proto, ok := r.onePage(ctx, n, opts, base, page, objects, &conns)
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

// page is the page page-load loads: the one the run serves the browser
// (BrowserOptions.Page, a user's HAR or directory), else linkmodel.Page.
func (r *runner) page() webpage.Page {
	if bo := r.opts.Browser; bo != nil && bo.Page != nil {
		return *bo.Page
	}
	return webpage.Page{Objects: linkmodel.Page}
}

// onePage loads page once with a new client, as a browser does: the
// document, then what it references at once, and each object's own
// dependents (Object.Parent) once it has arrived; ok is false when an
// object failed (counted in n).
func (r *runner) onePage(ctx context.Context, n *netRep, opts transport.ClientOptions, base string, page webpage.Page, objects *histogram.Histogram, conns *int64) (took time.Duration, proto string, ok bool) {
	c, err := transport.NewClient(opts)
	if err != nil {
		n.fail(err)
		return 0, "", false
	}
	defer func() {
		c.Close()
		*conns += c.Counters().Connections
	}()
	ctx, cancel := context.WithTimeout(ctx, r.requestTimeout())
	defer cancel()
	start := time.Now()
	var (
		mu     sync.Mutex
		failed bool
	)
	fetch := func(o linkmodel.PageObject) bool {
		f, err := get(ctx, c, "GET", base+strconv.FormatInt(o.Bytes, 10))
		d := time.Since(start)
		if err != nil {
			n.fail(err)
			mu.Lock()
			failed = true
			mu.Unlock()
			return false
		}
		n.ok(f.bytes)
		mu.Lock()
		objects.Record(d)
		proto = f.negotiated
		mu.Unlock()
		return true
	}
	kids := make([][]int, len(page.Objects))
	for i := 1; i < len(page.Objects); i++ {
		kids[page.Objects[i].Parent] = append(kids[page.Objects[i].Parent], i)
	}
	var wg sync.WaitGroup
	var tree func(i int)
	tree = func(i int) { // each object once: a page's parents come before it
		defer wg.Done()
		if !fetch(page.Objects[i]) {
			return
		}
		for _, k := range kids[i] {
			wg.Add(1)
			go tree(k)
		}
	}
	wg.Add(1)
	tree(0)
	wg.Wait()
	return time.Since(start), proto, !failed
}
