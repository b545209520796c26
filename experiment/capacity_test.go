package experiment_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// slowTarget is httpvs's payload server on loopback whose /slow sleeps
// 20 ms before answering as /small.
func slowTarget(t *testing.T) plan.Target {
	t.Helper()
	payload := server.New(server.Options{})
	opts := server.Loopback()
	opts.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(20 * time.Millisecond)
			r.URL.Path = "/small"
		}
		payload.Handler().ServeHTTP(w, r)
	})
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return plan.Target{Plain: srv.Transport.URL(transport.H1)}
}

func capacityOptions(t *testing.T, objective string) (experiment.Options, experiment.CapacityOptions) {
	t.Helper()
	obj, err := analysis.ParseObjective(objective)
	if err != nil {
		t.Fatal(err)
	}
	var o experiment.Options
	o.Target = slowTarget(t)
	o.Matrix.Protocols = []transport.Protocol{transport.H1, transport.H2C}
	return o, experiment.CapacityOptions{Objective: obj, Request: results.Request{Method: "GET", Path: "/slow"}, Step: 300 * time.Millisecond, Start: 20, InFlight: 2}
}

// TestCapacityBracketsTheLimit: two requests in flight at most against a
// handler that takes at least 20 ms carry at most 100 req/s, so a search
// from 20 req/s doubling must miss by 160 req/s (an upper bound that no
// machine's speed changes); what it met lies below what it missed, the
// steps double then bisect, each rate tried once in a search (met or
// missed alike), the server's CPU is read from its counters, and each
// transport has a ratio to h1 when both met the objective.
func TestCapacityBracketsTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a capacity search: not under -short")
	}
	o, c := capacityOptions(t, "p99<2s")
	c.Refine, c.Budget = 2, 15*time.Second // a search of 6 steps at most: about 4.5 s on two transports
	res, notRun, err := experiment.Capacity(context.Background(), o, c)
	if err != nil || len(notRun) != 0 {
		t.Fatal(err, notRun)
	}
	if res.Request != "GET /slow" || len(res.Transports) != 2 || res.ServerCPU != "" {
		t.Fatalf("%+v", res)
	}
	for _, tr := range res.Transports {
		checkBracket(t, tr)
	}
	if h2c := res.Transports[1]; res.Baseline == "h1" && res.Transports[0].Met > 0 && h2c.Met > 0 && (h2c.VsBaseline == nil || h2c.VsBaseline.Ratio <= 0) {
		t.Errorf("h2c: no ratio to h1: %+v", h2c.VsBaseline)
	}
}

// checkBracket checks one transport's searches: each complete one a
// bracket under 160 req/s, its steps from 20 req/s, each rate once, each
// judged with its reason, the server's CPU where it met a rate.
func checkBracket(t *testing.T, tr results.CapacityResult) {
	t.Helper()
	if len(tr.Searches) == 0 || tr.Searches[0].Cut {
		t.Fatalf("%s: searches %+v: want the first complete", tr.Protocol, tr.Searches)
	}
	for n, b := range tr.Searches {
		if !b.Cut {
			checkSearch(t, tr, n, b)
		}
	}
	for i, st := range tr.Steps {
		if st.Search < 1 || st.Search > len(tr.Searches) || st.Requests == 0 || (st.Met != (st.Why == "")) {
			t.Errorf("%s step %d: %+v", tr.Protocol, i, st)
		}
	}
	if tr.Met > 0 && tr.ServerCores == nil {
		t.Errorf("%s: no server CPU at %.0f req/s", tr.Protocol, tr.Met)
	}
}

// checkSearch checks search n (from 0) of tr, complete: its bracket, its
// rates each tried once from 20 req/s (four doublings and two bisections
// at most: Refine 2), the server's CPU where it met one.
func checkSearch(t *testing.T, tr results.CapacityResult, n int, b results.CapacityBracket) {
	t.Helper()
	var rates []float64
	for _, st := range tr.Steps {
		if st.Search == n+1 {
			rates = append(rates, st.Rate)
		}
	}
	if len(rates) == 0 || b.Missed <= 0 || b.Missed > 160 || (b.Met > 0 && b.Met >= b.Missed) || len(rates) > 4+2 || rates[0] != 20 {
		t.Errorf("%s search %d: met %.0f, missed %.0f, rates %v: want a bracket under 160 req/s from 20", tr.Protocol, n+1, b.Met, b.Missed, rates)
	}
	for i := range rates {
		if slices.Contains(rates[:i], rates[i]) {
			t.Errorf("%s search %d: rate %.0f tried twice: %v", tr.Protocol, n+1, rates[i], rates)
		}
	}
	if b.Met > 0 && b.ServerCores == nil {
		t.Errorf("%s search %d: no server CPU at %.0f req/s", tr.Protocol, n+1, b.Met)
	}
}

// TestCapacityObjectiveNeverMet: a p50 under 5 ms from a handler that
// sleeps 20 ms is missed at the first rate, tried once (a miss is not
// retried, as a met rate is not), said so, with no capacity and no ratio;
// the budget holds every repetition of so short a search, so the search
// is made five times.
func TestCapacityObjectiveNeverMet(t *testing.T) {
	t.Parallel() // see TestMain: no budget but the default's
	o, c := capacityOptions(t, "p50<5ms")
	res, _, err := experiment.Capacity(context.Background(), o, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range res.Transports {
		if tr.Met != 0 || tr.Missed != 20 || len(tr.Searches) != 5 || len(tr.Steps) != 5 || tr.VsBaseline != nil {
			t.Errorf("%s: %+v", tr.Protocol, tr)
		}
		for _, b := range tr.Searches {
			// The handler's 20 ms miss the p50, or on a loaded machine
			// no request finishes within the step: a miss either way.
			if b.Met != 0 || b.Missed != 20 || !strings.Contains(b.MissedBecause, "p50") && b.MissedBecause != "no request finished" {
				t.Errorf("%s search: %+v", tr.Protocol, b)
			}
		}
		for i, st := range tr.Steps {
			if st.Search != i+1 || st.Rate != 20 || st.Met {
				t.Errorf("%s step %d: %+v", tr.Protocol, i, st)
			}
		}
	}
	if res.Baseline != "" || res.Stopped != "" {
		t.Errorf("baseline %q with nothing met, stopped %q", res.Baseline, res.Stopped)
	}
}

// TestCapacityWithinBudget: a search whose budget holds one turn of steps
// (two transports, 0.36 s each at least) takes that turn and no other, and
// says it was cut.
func TestCapacityWithinBudget(t *testing.T) {
	o, c := capacityOptions(t, "p99<2s")
	c.Budget = time.Second
	res, _, err := experiment.Capacity(context.Background(), o, c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Stopped, "budget of 1s ran out") {
		t.Errorf("stopped %q", res.Stopped)
	}
	for _, tr := range res.Transports {
		if len(tr.Steps) != 1 || len(tr.Searches) != 1 || !tr.Searches[0].Cut {
			t.Errorf("%s: %d steps, want the one turn the budget holds", tr.Protocol, len(tr.Steps))
		}
	}
}

// TestCapacityServerCPUFromProc: with the counters turned off, the
// server's CPU at every rate met is read from /proc, for the child
// server's process (another than this one), over TCP and QUIC alike, and
// the search says so once.
func TestCapacityServerCPUFromProc(t *testing.T) {
	if _, err := os.Stat("/proc/net/udp"); err != nil {
		t.Skip("no /proc/net/udp:", err)
	}
	obj, err := analysis.ParseObjective("p99<2s")
	if err != nil {
		t.Fatal(err)
	}
	var o experiment.Options
	o.Matrix.Protocols = []transport.Protocol{transport.H1, transport.H3}
	o.Matrix.NoServerStats = true
	c := experiment.CapacityOptions{Objective: obj, Request: results.Request{Method: "GET", Path: "/small"},
		Step: 200 * time.Millisecond, Start: 20, MaxRate: 80, InFlight: 2, Budget: 3 * time.Second}
	res, notRun, err := experiment.Capacity(context.Background(), o, c)
	if err != nil || len(notRun) != 0 {
		t.Fatal(err, notRun)
	}
	pid := regexp.MustCompile(`^server CPU read from /proc for \S+ \(pid (\d+)\)$`).FindStringSubmatch(res.ServerCPU)
	if pid == nil || pid[1] == strconv.Itoa(os.Getpid()) {
		t.Fatalf("server CPU %q: want the child's process named once", res.ServerCPU)
	}
	for _, tr := range res.Transports {
		met := 0
		for _, st := range tr.Steps {
			if st.Met {
				met++
			}
			if st.Met && (st.ServerCores == nil || *st.ServerCores < 0) {
				t.Errorf("%s at %.0f req/s: server cores %v", tr.Protocol, st.Rate, st.ServerCores)
			}
		}
		if met == 0 || tr.ServerCores == nil {
			t.Errorf("%s: %d rates met, server cores %v at %.0f req/s", tr.Protocol, met, tr.ServerCores, tr.Met)
		}
	}
}

// TestCapacityRefusesNegative: a negative bound is refused naming its
// field, before any server starts: zero is the default, never less.
func TestCapacityRefusesNegative(t *testing.T) {
	for field, c := range map[string]experiment.CapacityOptions{
		"InFlight": {InFlight: -1},
		"Step":     {Step: -time.Second},
		"Refine":   {Refine: -2},
		"Budget":   {Budget: -time.Minute},
	} {
		_, _, err := experiment.Capacity(context.Background(), experiment.Options{}, c)
		var fe *config.FieldError
		if !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: %v, want a *config.FieldError for it", field, err)
		}
	}
}
