package matrix

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/webpage"
)

// TestPageLoadFollowsTheTree: page-load loads the run's own page (here a
// HAR's, with dependencies) as a browser does: an object that depends on
// another is asked for only once that one has arrived, which the server
// delays by 60 ms; the others at once after the document.
func TestPageLoadFollowsTheTree(t *testing.T) {
	const delay = 60 * time.Millisecond
	page := webpage.Page{Source: "tree", Objects: []webpage.Object{
		{Kind: webpage.KindHTML, Bytes: 1000},
		{Kind: webpage.KindJS, Bytes: 1001},
		{Kind: webpage.KindImage, Bytes: 1002, Parent: 1},
		{Kind: webpage.KindCSS, Bytes: 1003},
		{Kind: webpage.KindCSS, Bytes: 1004, Parent: 3},
		{Kind: webpage.KindImage, Bytes: 1005, Parent: 4},
	}}
	var mu sync.Mutex
	started := map[int64][]time.Time{} // by size: each request's arrival
	payload := server.New(server.Options{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if size, ok := strings.CutPrefix(r.URL.Path, "/bytes/"); ok {
			n, _ := strconv.ParseInt(size, 10, 64)
			mu.Lock()
			started[n] = append(started[n], time.Now())
			mu.Unlock()
			if n == 1001 || n == 1003 || n == 1004 { // the parents
				time.Sleep(delay)
			}
		}
		payload.Handler().ServeHTTP(w, r)
	})
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "page-load"),
		Repeat:    1,
		Duration:  50 * time.Millisecond,
		Browser:   &BrowserOptions{Path: "/nonexistent/chromium", Page: &page, Rounds: 1},
	}, Wiring: Wiring{Target: target(t, h)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cells {
		if m := c.Repetitions[0]; c.Skipped != "" || m.Errors.Total != 0 || m.Bytes == 0 {
			t.Fatalf("%s/%s: %q, errors %v %s", c.Scenario, c.Protocol, c.Skipped, m.Errors, m.FirstError)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	loads := len(started[1000])
	for i, o := range page.Objects {
		if len(started[o.Bytes]) != loads || loads == 0 {
			t.Fatalf("object %d asked %d times, the document %d", i, len(started[o.Bytes]), loads)
		}
		if o.Parent == 0 {
			continue
		}
		for k, at := range started[o.Bytes] {
			// Each load's requests of the parent and child, in order.
			if gap := at.Sub(started[page.Objects[o.Parent].Bytes][k]); gap < delay {
				t.Errorf("load %d: object %d asked %v after its parent, want at least %v", k, i, gap, delay)
			}
		}
	}
}
