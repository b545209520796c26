package analysis_test

import (
	"cmp"
	"context"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/internal/analysis"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Every rule whose fix is a setting is held to it by the measured
// checks (fixes_measured_test.go, -tags measured): a fix must move its
// figure and a control knob must not. What is here is what those checks
// and the unit tests share: a setup (client, server, engine), measured
// as real cells on loopback.

// setup is one side of a fix test: what the client, server and engine are.
type setup struct {
	client config.Client
	server config.Server
	engine load.Engine
	// rounds is the rounds of each cell: 3 (a median to compare) when
	// zero; a behaviour check needs one.
	rounds int
}

// measure runs scenario over h1 and p with su, against a server of its
// own, and returns p's cell.
func (su setup) measure(t *testing.T, scenario string, p transport.Protocol, size units.Bytes) results.Cell {
	t.Helper()
	srv := su.start(t)
	defer srv.Close()
	return su.run(t, srv, scenario, size, transport.H1, p)
}

// start starts a loopback server with su's server settings.
func (su setup) start(t *testing.T) *server.Running {
	t.Helper()
	opts := server.Loopback()
	opts.Config = su.server
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// run measures scenario over protocols against srv with su's client and
// engine, diagnoses the cells, and returns the last protocol's.
func (su setup) run(t *testing.T, srv *server.Running, scenario string, size units.Bytes, protocols ...transport.Protocol) results.Cell {
	t.Helper()
	ts := srv.Transport
	res, err := matrix.Run(context.Background(), matrix.Options{Options: plan.Options{
		Protocols: protocols,
		Scenarios: parseScenarios(t, scenario),
		Repeat:    cmp.Or(su.rounds, 3),
		Size:      size,
		Duration:  150 * time.Millisecond,
		Client:    su.client,
		Engine:    su.engine,
	}, Wiring: matrix.Wiring{Target: plan.Target{Plain: ts.URL(transport.H1), TLS: ts.URL(transport.H2), RootCAs: transport.CertPool(ts.Cert())}}})
	if err != nil {
		t.Fatal(err)
	}
	res.Settings.Server = &su.server
	analysis.Diagnose(res)
	p := protocols[len(protocols)-1]
	c := res.Cell(scenario, p.String())
	if c == nil || c.Skipped != "" || c.Errors.Total != 0 {
		t.Fatalf("%s/%s not measured cleanly: %+v", scenario, p, c)
	}
	return *c
}

func finding(c results.Cell, rule string) *results.Finding {
	for i := range c.Findings {
		if c.Findings[i].Rule == rule {
			return &c.Findings[i]
		}
	}
	return nil
}

// fixed applies f's knobs to a copy of su.
func (su setup) fixed(t *testing.T, f *results.Finding) setup {
	t.Helper()
	if len(f.Knobs) == 0 {
		t.Fatalf("%s: no knobs to apply: %s", f.Rule, f)
	}
	out := su
	if err := (knobs.Setup{Client: &out.client, Server: &out.server, Engine: &out.engine}).Apply(f.Knobs...); err != nil {
		t.Fatalf("%s: applying %v: %v", f.Rule, f.Knobs, err)
	}
	return out
}

// TestConcurrencyFixRaisesConcurrency: the fix of concurrency-lowered
// promises the scenario's concurrency, not speed.
func TestConcurrencyFixRaisesConcurrency(t *testing.T) {
	broken := setup{server: config.Server{HTTP2: config.HTTP2{MaxConcurrentStreams: 10}}, rounds: 1}
	before := broken.measure(t, "small-concurrent", transport.H2C, 0)
	f := finding(before, "concurrency-lowered")
	if f == nil || analysis.MedianRepetition(&before).Streams != 10 {
		t.Fatalf("rule did not fire or streams %d, want 10; findings %v", analysis.MedianRepetition(&before).Streams, before.Findings)
	}
	after := broken.fixed(t, f).measure(t, "small-concurrent", transport.H2C, 0)
	if m := analysis.MedianRepetition(&after); m.Streams != 50 || m.Lowered != "" || finding(after, "concurrency-lowered") != nil {
		t.Errorf("after %v: %d streams, lowered %q, want the scenario's 50", f.Knobs, m.Streams, m.Lowered)
	}
}

func parseScenarios(t *testing.T, list string) []plan.Scenario {
	t.Helper()
	s, err := plan.ParseScenarios(list)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
