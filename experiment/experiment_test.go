package experiment_test

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// TestMain serves as the child server when Run starts this test binary
// as one (Options.Executable "": this program), as any program's main.
//
// Tests marked t.Parallel() run whole runs against a child server or a
// program of their own (across a link of their own too: children start
// from a thread held until they exit, internal/childproc) and check
// counts, settings and lower bounds, not time: the go tool starts them
// once every serial test has returned, so they never run beside the
// serial ones: those that check what a link left behind in this process,
// runs that pin the CPUs or read the machine's load, those that kill
// this process's child servers, and capacity searches held to a budget.
// The parallel ones mostly wait on their children: more of them run at
// once than go test's default.
func TestMain(m *testing.M) {
	if pids := os.Getenv(forgetfulEnv); pids != "" {
		forgetful(pids)
	}
	if experiment.ServeChild() {
		return
	}
	testenv.RaiseParallel(testenv.Waiting)
	testenv.QuickChildExits()
	os.Exit(m.Run())
}

// needLink skips the test where no emulated link can be made (testenv.NeedLink).
func needLink(t *testing.T) {
	t.Helper()
	testenv.NeedLink[*netem.SetupError](t, func() (*netem.Link, error) { return netem.NewLink(netem.Spec{}) })
}

// quick is Quick on two transports and one scenario of each kind, so that
// a test measures a handful of cells.
func quick(t *testing.T, scenarios string) experiment.Options {
	t.Helper()
	o := experiment.Quick()
	o.Matrix.Protocols = []transport.Protocol{transport.H1, transport.H2C}
	var err error
	if o.Matrix.Scenarios, err = plan.ParseScenarios(scenarios); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestRunChild: Run starts the child server with Server's knobs (the
// results record them as the child read them), measures every cell asked
// for against it with Go as shipped, and stops it before returning.
func TestRunChild(t *testing.T) {
	t.Parallel() // see TestMain
	o := quick(t, "download,small-sequential")
	o.Server.WriteSize = 64 * units.KiB
	o.Server.HTTP2.MaxConcurrentStreams = 77
	var plans []experiment.Cost
	o.OnCost = func(p experiment.Cost) { plans = append(plans, p) }
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Partial {
		t.Fatalf("partial: %s", res.PartialReason)
	}
	// download, download:tuned (Go as shipped adds the tuned client's
	// row), small-sequential; two transports each.
	if got, want := len(res.Cells), 6; got != want {
		t.Fatalf("%d cells, want %d", got, want)
	}
	for _, c := range res.Cells {
		if c.Failed || c.Median <= 0 {
			t.Errorf("%s/%s: median %v, failed %v", c.Scenario, c.Protocol, c.Median, c.Failed)
		}
	}
	s := res.Settings
	if s.Target != "child" || s.Server == nil || s.Server.WriteSize != 64*units.KiB || s.Server.HTTP2.MaxConcurrentStreams != 77 {
		t.Errorf("target %q, server %+v: want the child with 64Ki writes and 77 streams", s.Target, s.Server)
	}
	if s.Knobs.Name != knobs.GoDefault.Name || s.Client.ReadSize != 8*units.KiB || s.Client.HTTP2.MaxReadFrameSize != 16*units.KiB {
		t.Errorf("knobs %q, client %+v: want Go as shipped (8Ki reads, 16Ki frames)", s.Knobs.Name, s.Client)
	}
	if s.Alongside == nil || s.Alongside.Name != knobs.Tuned.Name {
		t.Errorf("alongside %+v: want the tuned client's rows", s.Alongside)
	}
	if len(plans) != 1 || plans[0].Estimate.Cells != 6 || plans[0].Link != nil {
		t.Errorf("plans %+v: want one, of 6 cells on loopback", plans)
	}
}

// TestRunTarget: with a Target, Run measures that server and starts none;
// NoTuned leaves the tuned rows out.
func TestRunTarget(t *testing.T) {
	t.Parallel() // see TestMain
	srv, err := server.Start(server.Config{Transport: server.Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(transport.CertPEM(srv.Transport.Cert()))
	o := quick(t, "small-sequential")
	o.Matrix.Protocols = append(o.Matrix.Protocols, transport.H2)
	o.Matrix.Knobs = knobs.Tuned // its server part is the target's own
	o.NoTuned = true
	o.Target = plan.Target{Plain: srv.Transport.URL(transport.H1), TLS: srv.Transport.URL(transport.H2), RootCAs: roots}
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Cells); got != 3 {
		t.Fatalf("%d cells, want 3 (small-sequential on h1, h2c, h2)", got)
	}
	if res.Settings.Target == "child" || res.Settings.Server != nil || res.Settings.Alongside != nil {
		t.Errorf("target %q, server %v, alongside %v: want the external target alone", res.Settings.Target, res.Settings.Server, res.Settings.Alongside)
	}
	if k := res.Settings.Knobs; len(k.Knobs) != 2 || k.Knobs[0].Field != "Client.ReadSize" || k.Knobs[1].Field != "Client.HTTP2.MaxReadFrameSize" || res.Settings.Client.ReadSize != 256*units.KiB {
		t.Errorf("knobs %+v, client %+v: want tuned's client part alone, applied", k, res.Settings.Client)
	}
	for _, c := range res.Cells {
		for _, r := range c.Repetitions {
			// The target's own counters over the repetition: the
			// requests went there. The server counts a request once its
			// handler returns, which may come after the client read the
			// response: its count trails by up to the requests in flight.
			if r.Requests == 0 || r.Server == nil || r.Server.Protocols[c.Protocol].Requests < r.Requests-int64(r.Streams) {
				t.Errorf("%s/%s: %d requests, the target's counters %+v", c.Scenario, c.Protocol, r.Requests, r.Server)
			}
		}
	}
}

// TestRunKnobSetReachesChild: the knob set's server part is applied to
// the child server once, by the experiment: the child reports what it
// read, and over the set a knob of Server wins only where the set is
// silent.
func TestRunKnobSetReachesChild(t *testing.T) {
	t.Parallel() // see TestMain
	o := quick(t, "small-sequential")
	o.Matrix.Protocols = o.Matrix.Protocols[:1]
	o.Matrix.Knobs = results.KnobSet{Name: "mine", Knobs: []results.Knob{{Field: "Server.WriteSize", Value: "96Ki"}, {Field: "Client.ReadSize", Value: "48Ki"}}}
	o.Server.HTTP2.MaxConcurrentStreams = 33
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Settings
	if s.Server == nil || s.Server.WriteSize != 96*units.KiB || s.Server.HTTP2.MaxConcurrentStreams != 33 || s.Client.ReadSize != 48*units.KiB {
		t.Errorf("server %+v, client %+v: want the set's 96Ki writes and 48Ki reads, and Server's 33 streams", s.Server, s.Client)
	}
	o.Matrix.Knobs.Knobs[0].Value = "lots"
	if _, err := experiment.Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "Server.WriteSize=lots") {
		t.Errorf("err %v: want the knob set's bad value named", err)
	}
}

// TestRunOptionsError: options out of range are an *OptionsError before
// anything starts.
func TestRunOptionsError(t *testing.T) {
	o := quick(t, "download")
	o.Matrix.Repeat = -1
	// A child that cannot start: Run must refuse the options before it
	// tries, or its error is the start's.
	o.Executable = filepath.Join(t.TempDir(), "no-httpvs-here")
	_, err := experiment.Run(context.Background(), o)
	var (
		oe *experiment.OptionsError
		fe *config.FieldError
	)
	if !errors.As(err, &oe) || !errors.As(err, &fe) || fe.Field != "Matrix.Repeat" {
		t.Fatalf("err %v (%T), want *experiment.OptionsError naming Matrix.Repeat, before the child starts", err, err)
	}
}

// forgetfulEnv names the file where this test binary, acting as a
// program whose main forgot ServeChild, records its PID before it runs an
// experiment (TestForgottenServeChild).
const forgetfulEnv = "HTTPVS_TEST_FORGETFUL"

// forgetful is such a program's main: it records its PID, runs an
// experiment as the README shows, and prints the error.
func forgetful(pids string) {
	f, err := os.OpenFile(pids, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		fmt.Fprintln(f, os.Getpid())
		f.Close()
	}
	_, err = experiment.Run(context.Background(), experiment.Quick())
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// TestForgottenServeChild: a program that runs an experiment without
// calling ServeChild first starts its child once; the child, seeing it is
// one, refuses at once, and the parent's error names the fix. No second
// level is started.
func TestForgottenServeChild(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), forgetfulEnv+"="+pids)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the forgetful program exited 0:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "if experiment.ServeChild() { return }") || !strings.Contains(lines[0], "Options.Executable") {
		t.Errorf("output %q: want one line naming ServeChild and Options.Executable", out)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n != 2 {
		t.Errorf("%d processes ran the program (%q): want 2, the program and the one child it started", n, b)
	}
}
