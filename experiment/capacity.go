package experiment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/servercpu"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// Capacity search defaults, used where CapacityOptions fields are zero.
const (
	defaultCapacityStart  = 100.0 // first rate, requests per second
	defaultCapacityMax    = 1e6   // the search stops there, requests per second
	defaultCapacityRefine = 5     // bisections between the last rate met and the first missed
	// capacityKeptUp is the share of the rate asked that must succeed
	// for a rate to count as carried.
	capacityKeptUp = 0.9
	// capacityResolution ends the bisection once the bracket is this
	// narrow (Missed/Met).
	capacityResolution = 1.05
)

// CapacityOptions are a capacity search (Capacity): the objective, the
// request, and the search's bounds. Every search is bounded: doublings
// from Start up to MaxRate, then Refine bisections, each Step long.
type CapacityOptions struct {
	Objective results.Objective
	// Request is what is sent; zero: the one of Options.Requests, or GET
	// /small.
	Request results.Request
	// Step is the measured time of each rate tried (after a fifth of it
	// of warmup); zero: Options.Matrix.Duration, or 1 s.
	Step time.Duration
	// Start and MaxRate bound the rates tried, requests per second; zero:
	// 100 and 1e6.
	Start, MaxRate float64
	// Refine is the bisections after the doublings; zero: 5.
	Refine int
	// InFlight bounds the requests in flight (h1 connections, h2 and h3
	// streams on one); zero: defaults.CapacityInFlight (64).
	InFlight int
	// Budget bounds the search's time, from its first step: no turn of
	// steps starts that would end past it; zero: Options.Budget when
	// positive, or 2 minutes.
	Budget time.Duration

	warmup time.Duration // each step's: a fifth of Step, across a link at least LinkWarmupRTTs round trips
}

// fill sets the zero fields: from o's where it has them, else the
// search's defaults.
func (c *CapacityOptions) fill(o Options) {
	if c.Request.Method == "" && len(o.Requests) == 1 {
		c.Request = o.Requests[0]
	}
	if c.Step == 0 {
		c.Step = o.Matrix.Duration
	}
	if c.Budget == 0 && o.Budget > 0 {
		c.Budget = o.Budget
	}
	if c.Request.Method == "" {
		c.Request = results.Request{Method: "GET", Path: "/small"}
	}
	if c.Step <= 0 {
		c.Step = defaults.CapacityStep
	}
	if c.Start <= 0 {
		c.Start = defaultCapacityStart
	}
	if c.MaxRate <= 0 {
		c.MaxRate = defaultCapacityMax
	}
	if c.Refine <= 0 {
		c.Refine = defaultCapacityRefine
	}
	if c.InFlight <= 0 {
		c.InFlight = defaults.CapacityInFlight
	}
	if c.Budget <= 0 {
		c.Budget = defaults.CapacityBudget
	}
}

// capacitySearches bounds how many times the whole search is repeated
// (when its budget holds another): enough for a spread, bounded.
const capacitySearches = 5

// Capacity finds, per transport of o.Matrix.Protocols, the highest
// open-loop rate of c.Request that meets c.Objective against o's server
// (the child, across o.Link when there is one, or o.Target, whose
// unspoken transports are left out as NotRun): doubling the rate from
// c.Start until a rate misses, then bisecting between the last met and
// the first missed. Each rate is tried once, met or missed alike. The
// transports take their steps in turns, in a fresh random order each
// turn, so that drift on the machine lands on all of them alike. The
// whole search is repeated while the budget holds another as long as the
// last (up to five), so that the ratios have a spread and a verdict.
// Latency is from each request's intended send time, so queueing counts
// (coordinated omission).
func Capacity(ctx context.Context, o Options, c CapacityOptions) (*results.Capacity, []results.NotRun, error) {
	if err := notInChild(); err != nil {
		return nil, nil, err
	}
	if err := c.validate(); err != nil {
		return nil, nil, &OptionsError{err}
	}
	c.fill(o)
	// The one request is the run's scenario: the target is asked only
	// about its transports.
	o.Matrix.Scenarios = plan.RequestScenarios([]results.Request{c.Request})[:1]
	if err := o.fill(); err != nil {
		return nil, nil, &OptionsError{err}
	}
	var link *emuLink
	if o.Link != nil {
		var err error
		if link, err = openLink(*o.Link); err != nil {
			return nil, nil, err
		}
		defer link.Close() // after the child has stopped: deferred before it
	}
	server, stop, err := o.startServer(ctx, link, nil, func(error) {}) // unpinned: a capacity is the server's with every core
	if err != nil {
		return nil, nil, err
	}
	defer stop()
	c.warmup = c.Step / 5
	if link != nil {
		if err := link.Calibrate(ctx); err != nil {
			return nil, nil, err
		}
		// As the matrix's request scenarios do: handshakes and one
		// connection's window growth (a multiplexed transport's whole
		// load) are not the step's.
		c.warmup = max(c.warmup, defaults.LinkWarmupRTTs*link.RTT())
	}
	notRun, _, err := o.checkTarget(ctx, server == nil)
	if err != nil {
		return nil, notRun, err
	}
	searches := make([]*capacitySearch, len(o.Matrix.Protocols))
	for i, p := range o.Matrix.Protocols {
		searches[i] = &capacitySearch{p: p, res: results.CapacityResult{Protocol: p.String()}}
	}
	out := &results.Capacity{Objective: c.Objective, Request: c.Request.String(), Net: link.result(), InFlight: c.InFlight}
	if link != nil && link.RTT() > 0 {
		out.InFlightBound = float64(c.InFlight) / link.RTT().Seconds()
	}
	var cpu servercpu.Source
	began := time.Now()
	for n, last := 1, time.Duration(0); n <= capacitySearches && ctx.Err() == nil; n++ {
		if n > 1 && time.Since(began)+last > c.Budget {
			break
		}
		start := time.Now()
		if !searchOnce(ctx, o.engine(), c, &cpu, searches, n, began) {
			out.Stopped = fmt.Sprintf("the search's budget of %v ran out: the brackets are as far as it got", c.Budget)
			if n > 1 {
				out.Stopped = fmt.Sprintf("the search's budget of %v ran out during search %d: that search is left out of the ratios", c.Budget, n)
			}
			break
		}
		last = time.Since(start)
	}
	collect(out, searches)
	out.ServerCPU = cpu.Summary()
	return out, notRun, nil
}

// collect puts each transport's searches in out: the median search's
// bracket, whether its miss is past the in-flight bound, and the ratios.
func collect(out *results.Capacity, searches []*capacitySearch) {
	for _, s := range searches {
		s.res.Met, s.res.Missed, s.res.MissedBecause, s.res.ServerCores = median(s.res.Searches)
		s.res.PastBound = out.InFlightBound > 0 && s.res.Missed > out.InFlightBound
		out.Transports = append(out.Transports, s.res)
	}
	setRatios(out)
}

// searchOnce runs search n of every transport in turns, and records its
// brackets; false when the budget (from began) cut it.
func searchOnce(ctx context.Context, m matrix.Options, c CapacityOptions, cpu *servercpu.Source, searches []*capacitySearch, n int, began time.Time) bool {
	for _, s := range searches {
		s.rate, s.refining, s.done, s.cur = c.Start, 0, false, results.CapacityBracket{}
	}
	cut := false
	for ctx.Err() == nil {
		var open []*capacitySearch
		for _, s := range searches {
			if !s.done {
				open = append(open, s)
			}
		}
		if len(open) == 0 {
			break
		}
		var turn time.Duration
		for _, s := range open {
			turn += stepTime(c, s.p, s.rate)
		}
		if time.Since(began)+turn > c.Budget {
			cut = true
			break
		}
		rand.Shuffle(len(open), func(i, j int) { open[i], open[j] = open[j], open[i] })
		for _, s := range open {
			st := try(ctx, m, c, cpu, s.p, s.rate)
			st.Search = n
			s.advance(st, c)
		}
	}
	stepped := false
	for _, s := range searches {
		stepped = stepped || len(s.res.Steps) > 0 && s.res.Steps[len(s.res.Steps)-1].Search == n
	}
	for _, s := range searches {
		if stepped { // one bracket per transport, so that search i pairs with search i
			s.cur.Cut = !s.done
			s.res.Searches = append(s.res.Searches, s.cur)
		}
	}
	return !cut
}

// median is the lower middle of the complete searches by Met (the first
// search when none is complete): its Met, Missed, why and server CPU.
func median(bs []results.CapacityBracket) (met, missed float64, why string, cores *float64) {
	var done []results.CapacityBracket
	for _, b := range bs {
		if !b.Cut {
			done = append(done, b)
		}
	}
	if len(done) == 0 {
		if len(bs) == 0 {
			return 0, 0, "", nil
		}
		done = bs[:1]
	}
	sort.SliceStable(done, func(i, j int) bool { return done[i].Met < done[j].Met })
	b := done[(len(done)-1)/2]
	return b.Met, b.Missed, b.MissedBecause, b.ServerCores
}

// setRatios sets each transport's ratio to the baseline (h1 if it met
// the objective, else the first that did).
func setRatios(c *results.Capacity) {
	base := -1
	for i, t := range c.Transports {
		if t.Met > 0 && (base < 0 || t.Protocol == transport.H1.String()) {
			base = i
		}
	}
	if base < 0 {
		return
	}
	c.Baseline = c.Transports[base].Protocol
	for i := range c.Transports {
		if i != base {
			c.Transports[i].VsBaseline = analysis.RatioOf(c.Transports[i], c.Transports[base])
		}
	}
}

// capacitySearch is one transport's search under way.
type capacitySearch struct {
	p        transport.Protocol
	rate     float64 // the next rate to try
	refining int     // bisections done
	done     bool
	cur      results.CapacityBracket // this search's bracket so far
	res      results.CapacityResult
}

// advance records st and picks the next rate: double while rates are
// met (up to c.MaxRate), then bisect (geometrically) until c.Refine
// bisections or a bracket capacityResolution wide. One try decides a
// rate, met or missed alike: retrying only misses would take the best of
// two for the noisier transport; the repeated searches show the noise.
func (s *capacitySearch) advance(st results.CapacityStep, c CapacityOptions) {
	s.res.Steps = append(s.res.Steps, st)
	b := &s.cur
	if st.Met {
		b.Met, b.ServerCores = st.Rate, st.ServerCores
	} else {
		b.Missed, b.MissedBecause = st.Rate, st.Why
	}
	switch {
	case b.Met == 0 && b.Missed > 0: // missed at the first rate
		s.done = true
	case b.Missed == 0: // doubling
		s.rate = st.Rate * 2
		s.done = s.rate > c.MaxRate
	default: // bisecting
		if s.refining >= c.Refine || b.Missed/b.Met <= capacityResolution {
			s.done = true
			return
		}
		s.refining++
		s.rate = math.Sqrt(b.Met * b.Missed)
	}
}

// stepTime is how long trying rate over p takes: the step, and its
// warm-up, longer over HTTP/1.1 by the intervals that
// hand each of its connections a first request (load.Config.Warmup).
func stepTime(c CapacityOptions, p transport.Protocol, rate float64) time.Duration {
	d := c.Step + c.warmup
	if p.Version() == 1 {
		d += time.Duration(float64(c.InFlight-1) * float64(time.Second) / rate)
	}
	return d
}

// try runs c's request over p at rate for c.Step and judges it against
// c.Objective, reading the server's CPU with cpu.
func try(ctx context.Context, m matrix.Options, c CapacityOptions, cpu *servercpu.Source, p transport.Protocol, rate float64) results.CapacityStep {
	base := m.Target.Plain
	if p.TLS() {
		base = m.Target.TLS
	}
	client := transport.ClientOptions{Protocol: p, Config: m.Client, RootCAs: m.Target.RootCAs, Insecure: m.Target.Insecure, ServerName: m.Target.ServerName, Network: m.Network}
	cfg := load.Config{
		URL: base + c.Request.Path, Client: client, Conns: 1, Streams: c.InFlight,
		Duration: c.Step, Warmup: c.warmup, Rate: rate, Method: c.Request.Method, Body: c.Request.Body,
		Header: mergeHeader(m.Header, c.Request), Engine: m.Engine,
		RequestTimeout: max(time.Second, 10*time.Duration(c.Objective.MaxLatency*float64(time.Second))),
	}
	if p.Version() == 1 {
		cfg.Conns, cfg.Streams = c.InFlight, 1
	}
	window, done := watch(ctx, cpu, m, client, p, base, &cfg)
	defer done()
	st := results.CapacityStep{Rate: rate}
	res, err := load.Run(ctx, cfg)
	if err != nil {
		st.Why = err.Error()
		return st
	}
	st.Achieved, st.Errors, st.Requests = res.RequestsPerSecond, res.Errors.Total, res.Requests
	st.Latency = quantile(res.Latency, c.Objective.Quantile)
	st.ServerCores = window.cores()
	// Every request due in the window counts, answered or failed, and
	// the window runs on until the last has ended (load.Config.Rate): a
	// server that fell behind served the rate's requests over a longer
	// time. The last InFlight of them may end a latency past the window.
	short := st.Rate*res.Seconds - float64(st.Requests) - float64(c.InFlight)
	st.Met, st.Why = judge(st, short > (1-capacityKeptUp)*st.Rate*res.Seconds, res.FirstError, c.Objective)
	return st
}

// mergeHeader is h with req's own headers added.
func mergeHeader(h map[string][]string, req results.Request) map[string][]string {
	out := map[string][]string{}
	for k, vs := range h {
		out[k] = append(out[k], vs...)
	}
	for k, vs := range req.Header {
		out[k] = append(out[k], vs...)
	}
	return out
}
