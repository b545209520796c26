package matrix

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// sizingProbes is how many times SizeRequests sends each request to time
// it, the fastest counting (the first pays for the connection), each
// within sizingTimeout.
const (
	sizingProbes  = 2
	sizingTimeout = 30 * time.Second
)

// probe is what sizeRequests found of one request line.
type probe struct {
	took time.Duration
	req  *results.Request // the request with its response's size
	// each and failed are a transfer's times over each transport
	// (timeEach).
	each   map[transport.Protocol]time.Duration
	failed []string
}

// sizeRequests times each of the user's requests among o's scenarios
// (one at a time, over o's first transport with a target) and sizes their
// rounds from it, so that a slow request is neither cut off nor allowed
// to run past budget: a round lasts long enough for minRequests of it to
// finish, and, when the run's first rounds would then end past budget
// (counted from now; zero: no bound), the slowest requests' scenarios get
// fewer rounds than Repeat, at least one, and one whose single round
// would take more than its share of the budget is left out (fitBudget). A request found to be a
// transfer is then fetched once over each other transport the target
// serves, and each transport's round is estimated from its own time. It
// returns o so sized, a line for each scenario it changed, saying how
// and why, and the scenarios it left out. Requests it cannot time (an error, an error status) are left
// as they are: their check says what is wrong.
func sizeRequests(ctx context.Context, o Options, budget time.Duration) (Options, []string, []results.NotRun) {
	f := o // with defaults, to work with; o is returned as given, but for its scenarios
	if err := f.fill(); err != nil {
		return o, nil, nil
	}
	p, ok := firstServed(f)
	if !ok {
		return o, nil, nil
	}
	o.Scenarios = slices.Clone(o.Scenarios)
	probes := map[string]probe{} // by request line
	var notes []string
	for i := range o.Scenarios {
		sc := &o.Scenarios[i]
		if spec(sc).Req == nil {
			continue
		}
		key := spec(sc).Req.String()
		pr, seen := probes[key]
		if !seen {
			pr = sizeProbe(ctx, f, p, *sc)
			probes[key] = pr
		}
		t := pr.took
		spec(sc).Req = pr.req
		if pr.req.Transfer {
			notes = append(notes, shapeTransfer(f, sc, pr.req, t, pr.each)+eachText(f, p, pr))
			continue
		}
		// A closed loop counts the requests that start and end in its
		// window: with the streams sharing the bandwidth (a big body),
		// those in flight when it opens, the next ones, then minRequests.
		need := time.Duration(2*spec(sc).Streams+minRequests) * t
		if t > 0 && need > f.Duration {
			spec(sc).Duration = min(need, f.Timeout/2)
			notes = append(notes, fmt.Sprintf("%s: one %s takes %v here: each round measures %v, not %v, to count %d requests", sc.Name, key, t.Round(time.Microsecond), spec(sc).Duration.Round(time.Millisecond), f.Duration, minRequests))
		}
	}
	f.Scenarios = o.Scenarios // shared: fitBudget sets rounds in both
	out, left := dropUnholdable(&f, budget)
	o.Scenarios = f.Scenarios
	return o, append(append(notes, out...), fitBudget(&f, budget)...), left
}

// sizeProbe times sc's request over p (timeRequest), decides whether
// it is a transfer, and if so times one response of it over each
// transport o's target serves (timeEach).
func sizeProbe(ctx context.Context, o Options, p transport.Protocol, sc Scenario) probe {
	t, size := timeRequest(ctx, o, p, sc)
	req := *spec(&sc).Req // the caller's is left as it was
	req.ResponseBytes, req.Transfer = size, t > 0 && transferCandidate(&req, size)
	pr := probe{took: t, req: &req}
	if req.Transfer {
		pr.each, pr.failed = timeEach(ctx, o, p, t, sc)
	}
	return pr
}

// firstServed is the first of o's transports the target has a URL for.
func firstServed(o Options) (transport.Protocol, bool) {
	for _, p := range o.Protocols {
		if targetBase(o.Target, p) != "" {
			return p, true
		}
	}
	return 0, false
}

// timeRequest is the fastest of sizingProbes sends of sc's request over p,
// body read, and the length of the first's body; zeros when one fails or
// answers an error status.
func timeRequest(ctx context.Context, o Options, p transport.Protocol, sc Scenario) (time.Duration, int64) {
	var (
		best time.Duration
		size int64
	)
	for i := range sizingProbes {
		d, n, err := fetchOnce(ctx, o, p, sc)
		if err != nil {
			return 0, 0
		}
		if best == 0 || d < best {
			best = d
		}
		if i == 0 {
			size = n
		}
	}
	return best, size
}

// timeEach is how long one response to sc's request took over each of
// o's transports the target serves: first's is t (timeRequest's), each
// other's one fetch of it within sizingTimeout. A transport whose fetch
// failed holds t, and failed says which and why ("h3 (...)").
func timeEach(ctx context.Context, o Options, first transport.Protocol, t time.Duration, sc Scenario) (each map[transport.Protocol]time.Duration, failed []string) {
	each = map[transport.Protocol]time.Duration{first: t}
	for _, p := range o.Protocols {
		if _, done := each[p]; done || targetBase(o.Target, p) == "" {
			continue
		}
		d, _, err := fetchOnce(ctx, o, p, sc)
		if err != nil {
			d = t
			failed = append(failed, fmt.Sprintf("%s (%v)", p, err))
		}
		each[p] = d
	}
	return each, failed
}

// fetchOnce sends sc's request over p once, within sizingTimeout, reads
// its body, and returns how long that took and the body's length; an
// error for a failure or an error status.
func fetchOnce(ctx context.Context, o Options, p transport.Protocol, sc Scenario) (time.Duration, int64, error) {
	ep := endpoint{method: spec(&sc).Method, path: spec(&sc).Path, body: spec(&sc).Req.Body}
	if ep.body == nil && scenariospec.Of(&sc).Body > 0 {
		ep.body = make([]byte, scenariospec.Of(&sc).Body)
	}
	began := time.Now()
	resp, n, err := sendOnce(ctx, withHeader(o, spec(&sc).Req.Header), p, ep, sizingTimeout, 1<<62)
	switch {
	case err != nil:
		return 0, 0, err
	case resp.StatusCode >= http.StatusBadRequest:
		return 0, 0, fmt.Errorf("status %s", resp.Status)
	}
	return time.Since(began), n, nil
}

// eachText says how long one response of pr's transfer took over each
// transport, in o's order, and which fetches failed and so count at
// first's time.
func eachText(o Options, first transport.Protocol, pr probe) string {
	if len(pr.each) == 0 {
		return ""
	}
	var parts []string
	for _, p := range o.Protocols {
		if d, ok := pr.each[p]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", p, roundTook(d)))
		}
	}
	text := "; one response took " + strings.Join(parts, ", ") + ", a round estimated at that many times each"
	if len(pr.failed) > 0 {
		text += fmt.Sprintf("; its fetch failed over %s: counted at %s's time", strings.Join(pr.failed, ", "), first)
	}
	return text
}

// roundTook is d rounded for a line: to the millisecond from one, to the
// microsecond below.
func roundTook(d time.Duration) time.Duration {
	if d >= time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// withHeader is o sending h beside its own headers.
func withHeader(o Options, h http.Header) Options {
	o.Header = mergeHeaders(o.Header, h)
	return o
}
