package experiment_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
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
	obj, err := results.ParseObjective(objective)
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
// steps double then bisect, the server's CPU is read from its counters,
// and each transport has a ratio to h1 when both met the objective.
func TestCapacityBracketsTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a capacity search: not under -short")
	}
	o, c := capacityOptions(t, "p99<2s")
	res, notRun, err := experiment.Capacity(context.Background(), o, c)
	if err != nil || len(notRun) != 0 {
		t.Fatal(err, notRun)
	}
	if res.Request != "GET /slow" || len(res.Transports) != 2 {
		t.Fatalf("%+v", res)
	}
	for _, tr := range res.Transports {
		checkBracket(t, tr)
	}
	if h2c := res.Transports[1]; res.Baseline == "h1" && res.Transports[0].Met > 0 && h2c.Met > 0 && (h2c.VsBaseline == nil || h2c.VsBaseline.Ratio <= 0) {
		t.Errorf("h2c: no ratio to h1: %+v", h2c.VsBaseline)
	}
}

// checkBracket checks one transport's search: a bracket under 160 req/s,
// steps from 20 req/s, each judged with its reason, the server's CPU.
func checkBracket(t *testing.T, tr results.CapacityResult) {
	t.Helper()
	if tr.Missed <= 0 || tr.Missed > 160 || (tr.Met > 0 && tr.Met >= tr.Missed) || len(tr.Steps) > 2*(4+experiment.DefaultCapacityRefine) {
		t.Errorf("%s: met %.0f, missed %.0f in %d steps: want a bracket under 160 req/s", tr.Protocol, tr.Met, tr.Missed, len(tr.Steps))
	}
	for i, st := range tr.Steps {
		if i == 0 && st.Rate != 20 || st.Requests == 0 || (st.Met != (st.Why == "")) {
			t.Errorf("%s step %d: %+v", tr.Protocol, i, st)
		}
	}
	if tr.Met > 0 && tr.ServerCores == nil {
		t.Errorf("%s: no server CPU at %.0f req/s", tr.Protocol, tr.Met)
	}
}

// TestCapacityObjectiveNeverMet: a p50 under 5 ms from a handler that
// sleeps 20 ms is missed at the first rate, said so, with no capacity and
// no ratio.
func TestCapacityObjectiveNeverMet(t *testing.T) {
	o, c := capacityOptions(t, "p50<5ms")
	res, _, err := experiment.Capacity(context.Background(), o, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range res.Transports {
		if tr.Met != 0 || tr.Missed != 20 || len(tr.Steps) != 2 || !strings.Contains(tr.MissedBecause, "p50") || tr.VsBaseline != nil {
			t.Errorf("%s: %+v", tr.Protocol, tr)
		}
	}
	if res.Baseline != "" {
		t.Errorf("baseline %q with nothing met", res.Baseline)
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
		if len(tr.Steps) != 1 {
			t.Errorf("%s: %d steps, want the one turn the budget holds", tr.Protocol, len(tr.Steps))
		}
	}
}
