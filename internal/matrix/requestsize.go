package matrix

import (
	"context"
	"fmt"
	"net/http"
	"slices"
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

// SizeRequests times each of the user's requests among o's scenarios
// (one at a time, over o's first transport with a target) and sizes their
// rounds from it, so that a slow request is neither cut off nor allowed
// to run past budget: a round lasts long enough for minRequests of it to
// finish, and, when the run's first rounds would then end past budget
// (counted from now; zero: no bound), the slowest requests' scenarios get
// fewer rounds than Repeat, at least one. It returns o so sized and a line
// for each scenario it changed, saying how and why. Requests it cannot
// time (an error, an error status) are left as they are: their check says
// what is wrong.
func SizeRequests(ctx context.Context, o Options, budget time.Duration) (Options, []string) {
	return sizeRequests(ctx, o, budget)
}

// sizeRequests is SizeRequests with the runner's methods on its options.
func sizeRequests(ctx context.Context, o Options, budget time.Duration) (Options, []string) {
	f := o // with defaults, to work with; o is returned as given, but for its scenarios
	if err := f.fill(); err != nil {
		return o, nil
	}
	p, ok := firstServed(f)
	if !ok {
		return o, nil
	}
	o.Scenarios = slices.Clone(o.Scenarios)
	type probe struct {
		took time.Duration
		req  *results.Request // the request with its response's size
	}
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
			t, size := timeRequest(ctx, f, p, *sc)
			req := *spec(sc).Req // the caller's is left as it was
			req.ResponseBytes, req.Transfer = size, t > 0 && transferCandidate(&req, size)
			pr = probe{t, &req}
			probes[key] = pr
		}
		t := pr.took
		spec(sc).Req = pr.req
		if pr.req.Transfer {
			notes = append(notes, shapeTransfer(f, sc, pr.req, t))
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
	return o, append(notes, fitBudget(&f, budget)...)
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
	ep := endpoint{method: spec(&sc).Method, path: spec(&sc).Path, body: spec(&sc).Req.Body}
	if ep.body == nil && scenariospec.Of(&sc).Body > 0 {
		ep.body = make([]byte, scenariospec.Of(&sc).Body)
	}
	var (
		best time.Duration
		size int64
	)
	for i := range sizingProbes {
		began := time.Now()
		resp, n, err := sendOnce(ctx, withHeader(o, spec(&sc).Req.Header), p, ep, sizingTimeout, 1<<62)
		if err != nil || resp.StatusCode >= http.StatusBadRequest {
			return 0, 0
		}
		if d := time.Since(began); best == 0 || d < best {
			best = d
		}
		if i == 0 {
			size = n
		}
	}
	return best, size
}

// withHeader is o sending h beside its own headers.
func withHeader(o Options, h http.Header) Options {
	o.Header = mergeHeaders(o.Header, h)
	return o
}

// fitBudget cuts the rounds of the user's slowest scenarios, costliest
// first, until the run's first rounds are estimated to end within budget
// (each keeps one at least), and says so for each.
func fitBudget(o *Options, budget time.Duration) []string {
	if budget <= 0 {
		return nil
	}
	est, err := estimateRun(*o)
	if err != nil || est.Time <= budget {
		return nil
	}
	over := est.Time - budget
	r := &runner{opts: *o}
	type slow struct {
		i     int
		round time.Duration // one round over every column
	}
	var list []slow
	for i, sc := range o.Scenarios {
		if spec(&sc).Req != nil && spec(&sc).Duration > 0 {
			var d time.Duration
			for _, col := range r.columns(sc) {
				d += o.roundCost(sc, col.proto)
			}
			list = append(list, slow{i, d})
		}
	}
	slices.SortFunc(list, func(a, b slow) int { return int(b.round - a.round) })
	var notes []string
	for _, s := range list {
		if over <= 0 {
			break
		}
		sc := &o.Scenarios[s.i]
		rounds := o.repeat(*sc)
		cut := min(rounds-1, int((over+s.round-1)/s.round))
		if cut <= 0 {
			continue
		}
		spec(sc).Rounds = rounds - cut
		over -= time.Duration(cut) * s.round
		notes = append(notes, fmt.Sprintf("%s: %d round(s), not %d: a round of every transport takes about %v, and %v is left of the run's budget",
			sc.Name, spec(sc).Rounds, rounds, s.round.Round(time.Millisecond), budget.Round(time.Second)))
	}
	return notes
}
