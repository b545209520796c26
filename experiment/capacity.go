package experiment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
)

// Capacity search defaults, used where CapacityOptions fields are zero.
const (
	DefaultCapacityStep     = time.Second // measured time of each rate tried
	DefaultCapacityStart    = 100.0       // first rate, requests per second
	DefaultCapacityMax      = 1e6         // the search stops there, requests per second
	DefaultCapacityRefine   = 5           // bisections between the last rate met and the first missed
	DefaultCapacityInFlight = 64          // requests in flight at most: h1 connections, h2/h3 streams on one
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
	// Request is what is sent; zero: GET /small.
	Request results.Request
	// Step is the measured time of each rate tried (after a fifth of it
	// of warmup); zero: DefaultCapacityStep.
	Step time.Duration
	// Start and MaxRate bound the rates tried, requests per second; zero:
	// DefaultCapacityStart and DefaultCapacityMax.
	Start, MaxRate float64
	// Refine is the bisections after the doublings; zero:
	// DefaultCapacityRefine.
	Refine int
	// InFlight bounds the requests in flight; zero: DefaultCapacityInFlight.
	InFlight int
	// Budget bounds the search's time, from its first step: no turn of
	// steps starts that would end past it; zero: DefaultCapacityBudget.
	Budget time.Duration
}

// DefaultCapacityBudget bounds a capacity search when
// CapacityOptions.Budget is zero: two minutes.
const DefaultCapacityBudget = 2 * time.Minute

func (c *CapacityOptions) fill() {
	if c.Request.Method == "" {
		c.Request = results.Request{Method: "GET", Path: "/small"}
	}
	if c.Step <= 0 {
		c.Step = DefaultCapacityStep
	}
	if c.Start <= 0 {
		c.Start = DefaultCapacityStart
	}
	if c.MaxRate <= 0 {
		c.MaxRate = DefaultCapacityMax
	}
	if c.Refine <= 0 {
		c.Refine = DefaultCapacityRefine
	}
	if c.InFlight <= 0 {
		c.InFlight = DefaultCapacityInFlight
	}
	if c.Budget <= 0 {
		c.Budget = DefaultCapacityBudget
	}
}

// Capacity finds, per transport of o.Matrix.Protocols, the highest
// open-loop rate of c.Request that meets c.Objective against o's server
// (the child, across o.Link when there is one, or o.Target, whose
// unspoken transports are left out as NotRun): doubling the rate from c.Start until a rate misses, then
// bisecting between the last met and the first missed; a rate is missed
// when two tries at it miss. The transports
// take their steps in turns, in a fresh random order each turn, so that
// drift on the machine lands on all of them alike. Latency is from each
// request's intended send time, so queueing counts (coordinated omission).
func Capacity(ctx context.Context, o Options, c CapacityOptions) (*results.Capacity, []results.NotRun, error) {
	if err := notInChild(); err != nil {
		return nil, nil, err
	}
	c.fill()
	// The one request is the run's scenario: the target is asked only
	// about its transports.
	o.Matrix.Scenarios = plan.RequestScenarios([]results.Request{c.Request})[:1]
	if err := o.fill(); err != nil {
		return nil, nil, &OptionsError{err}
	}
	var link *Link
	if o.Link != nil {
		var err error
		if link, err = OpenLink(*o.Link); err != nil {
			return nil, nil, err
		}
		defer link.Close() // after the child has stopped: deferred before it
	}
	server, stop, err := o.startServer(ctx, link, nil, func(error) {}) // unpinned: a capacity is the server's with every core
	if err != nil {
		return nil, nil, err
	}
	defer stop()
	if link != nil {
		if err := link.Calibrate(ctx); err != nil {
			return nil, nil, err
		}
	}
	notRun, _, err := o.checkTarget(ctx, server == nil)
	if err != nil {
		return nil, notRun, err
	}
	m := o.Matrix
	searches := make([]*capacitySearch, len(m.Protocols))
	for i, p := range m.Protocols {
		searches[i] = &capacitySearch{p: p, rate: c.Start, res: results.CapacityResult{Protocol: p.String()}}
	}
	began, stopped := time.Now(), ""
	for turn := 0; ctx.Err() == nil; turn++ {
		var open []*capacitySearch
		for _, s := range searches {
			if !s.done {
				open = append(open, s)
			}
		}
		if len(open) == 0 {
			break
		}
		if turn := time.Duration(len(open)) * (c.Step + c.Step/5); time.Since(began)+turn > c.Budget {
			stopped = fmt.Sprintf("the search's budget of %v ran out: the brackets are as far as it got", c.Budget)
			break
		}
		rand.Shuffle(len(open), func(i, j int) { open[i], open[j] = open[j], open[i] })
		for _, s := range open {
			s.advance(try(ctx, m, c, s.p, s.rate), c)
		}
	}
	out := &results.Capacity{Objective: c.Objective, Request: c.Request.String(), Net: link.result(), Stopped: stopped}
	for _, s := range searches {
		out.Transports = append(out.Transports, s.res)
	}
	setRatios(out)
	return out, notRun, nil
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
			c.Transports[i].VsBaseline = results.RatioOf(c.Transports[i], c.Transports[base])
		}
	}
}

// capacitySearch is one transport's search under way.
type capacitySearch struct {
	p        transport.Protocol
	rate     float64 // the next rate to try
	refining int     // bisections done
	retried  bool    // the rate missed once and is being tried again
	done     bool
	res      results.CapacityResult
}

// advance records st and picks the next rate: the same again after a
// first miss, then double while rates are met (up to c.MaxRate), then
// bisect (geometrically) until c.Refine bisections or a bracket
// capacityResolution wide.
func (s *capacitySearch) advance(st results.CapacityStep, c CapacityOptions) {
	s.res.Steps = append(s.res.Steps, st)
	if !st.Met && !s.retried {
		// A p99 on a shared machine has hiccups: a rate is missed when a
		// second try at it misses too.
		s.retried = true
		return
	}
	s.retried = false
	if st.Met {
		s.res.Met = st.Rate
		s.res.ServerCores = st.ServerCores
	} else {
		s.res.Missed, s.res.MissedBecause = st.Rate, st.Why
	}
	switch {
	case s.res.Met == 0 && s.res.Missed > 0: // missed at the first rate
		s.done = true
	case s.res.Missed == 0: // doubling
		s.rate = st.Rate * 2
		s.done = s.rate > c.MaxRate
	default: // bisecting
		if s.refining >= c.Refine || s.res.Missed/s.res.Met <= capacityResolution {
			s.done = true
			return
		}
		s.refining++
		s.rate = math.Sqrt(s.res.Met * s.res.Missed)
	}
}

// try runs c's request over p at rate for c.Step and judges it against
// c.Objective.
func try(ctx context.Context, m plan.Options, c CapacityOptions, p transport.Protocol, rate float64) results.CapacityStep {
	base := m.Target.Plain
	if p.TLS() {
		base = m.Target.TLS
	}
	client := transport.ClientOptions{Protocol: p, Config: m.Client, RootCAs: m.Target.RootCAs, Insecure: m.Target.Insecure, Network: m.Network}
	cfg := load.Config{
		URL: base + c.Request.Path, Client: client, Conns: 1, Streams: c.InFlight,
		Duration: c.Step, Warmup: c.Step / 5, Rate: rate, Method: c.Request.Method, Body: c.Request.Body,
		Header: mergeHeader(m.Header, c.Request), Engine: m.Engine.For(p),
		RequestTimeout: max(time.Second, 10*time.Duration(c.Objective.MaxLatency*float64(time.Second))),
	}
	if p.Version() == 1 {
		cfg.Conns, cfg.Streams = c.InFlight, 1
	}
	var before, after *stats.ServerStats
	statsOpts := client
	if m.StatsNetwork != nil {
		statsOpts.Network = m.StatsNetwork // the server's side of the link: its counters do not cross it
	}
	if statsClient, err := transport.NewClient(statsOpts); err == nil {
		defer statsClient.Close()
		statsURL := base + "/stats"
		cfg.MeasureStart = func() { before, _ = transfer.FetchServerStats(ctx, statsClient, statsURL, transfer.StatsTimeout) }
		cfg.MeasureEnd = func(failed int64) {
			if before != nil {
				after, _ = transfer.FetchServerStats(ctx, statsClient, statsURL, transfer.StatsTimeoutAfter(failed))
			}
		}
	}
	st := results.CapacityStep{Rate: rate}
	res, err := load.Run(ctx, cfg)
	if err != nil {
		st.Why = err.Error()
		return st
	}
	st.Achieved, st.Errors, st.Requests = res.RequestsPerSecond, res.Errors.Total, res.Requests
	st.Latency = quantile(res.Latency, c.Objective.Quantile)
	if before != nil && after != nil {
		if d := after.Sub(*before); d.Seconds > 0 {
			cores := d.Process.CPUSeconds() / d.Seconds
			st.ServerCores = &cores
		}
	}
	// Requests still in flight when the window closed are not counted:
	// at most InFlight short of the rate asked is carrying it.
	short := st.Rate*res.Seconds - float64(st.Requests) - float64(c.InFlight)
	st.Met, st.Why = judge(st, short > (1-capacityKeptUp)*st.Rate*res.Seconds, res.FirstError, c.Objective)
	return st
}

// judge says whether st meets obj, and how it missed; behind says the
// requests that ended fell short of the rate asked.
func judge(st results.CapacityStep, behind bool, firstError string, obj results.Objective) (bool, string) {
	switch {
	case st.Requests == 0:
		return false, "no request finished"
	case float64(st.Errors) > obj.MaxErrorRate*float64(st.Requests):
		return false, fmt.Sprintf("%d of %d requests failed (first: %s)", st.Errors, st.Requests, firstError)
	case obj.Quantile > 0 && st.Latency > obj.MaxLatency:
		return false, fmt.Sprintf("p%s %v > %v", quantileName(obj.Quantile), seconds(st.Latency), seconds(obj.MaxLatency))
	case behind:
		return false, fmt.Sprintf("carried %.0f of %.0f req/s asked", st.Achieved, st.Rate)
	}
	return true, ""
}

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(time.Microsecond)
}

func quantileName(q float64) string {
	return map[float64]string{0.5: "50", 0.9: "90", 0.99: "99", 0.999: "999"}[q]
}

// quantile is l's latency at q, seconds (p50, p90, p99, p999).
func quantile(l stats.LatencySummary, q float64) float64 {
	switch q {
	case 0.5:
		return l.P50
	case 0.9:
		return l.P90
	case 0.999:
		return l.P999
	}
	return l.P99
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
