package cli

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// startPeer starts the server peer name, skipping the test where it is not
// installed unless CI=true (CI installs nginx, caddy and h2o).
func startPeer(t *testing.T, name string) *peers.Server {
	t.Helper()
	return startPeerWith(t, name, peers.ServerOptions{})
}

// startPeerWith is startPeer serving what opts says.
func startPeerWith(t *testing.T, name string, opts peers.ServerOptions) *peers.Server {
	t.Helper()
	if testing.Short() {
		t.Skip("a reference peer: not under -short")
	}
	p, err := peers.Lookup(name)
	if err != nil || !p.Installed() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed: %v", name, err)
		}
		t.Skipf("%s is not installed (apt-get install %s)", name, name)
	}
	srv, err := peers.Start(context.Background(), name, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return srv
}

// runTarget runs httpvs run with args, one quick round a cell, and
// returns its results, failing the test unless it exits 0.
func runTarget(t *testing.T, args ...string) (*results.Results, string) {
	t.Helper()
	out := t.TempDir()
	code, stdout, stderr := runMain(t, append([]string{"run", "--quick", "--out", out}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d, want 0: %s\n%s", code, stderr, stdout)
	}
	res, _ := readResults(t, out)
	return res, stdout
}

// onlyCells checks that res's cells are exactly scenarios x protos, each
// measured without an error.
func onlyCells(t *testing.T, res *results.Results, scenarios, protos []string) {
	t.Helper()
	if len(res.Cells) != len(scenarios)*len(protos) {
		var got []string
		for _, c := range res.Cells {
			got = append(got, c.Scenario+"/"+c.Protocol)
		}
		t.Fatalf("cells %v, want %v over %v", got, scenarios, protos)
	}
	for _, c := range res.Cells {
		if !slices.Contains(scenarios, c.Scenario) || !slices.Contains(protos, c.Protocol) {
			t.Errorf("cell %s/%s not asked for", c.Scenario, c.Protocol)
		}
		if c.Skipped != "" || c.Failed || c.Errors.Total != 0 || len(c.Repetitions) != 1 || c.Repetitions[0].Negotiated != c.Protocol {
			t.Errorf("%s/%s: skipped %q, failed %v, %d errors, %d repetitions", c.Scenario, c.Protocol, c.Skipped, c.Failed, c.Errors.Total, len(c.Repetitions))
		}
	}
}

// notRun returns what res says was not run, by scenario or transport.
func notRun(res *results.Results) map[string]string {
	m := map[string]string{}
	for _, n := range res.NotRun {
		m[n.Scenario+n.Protocol] = n.Reason
	}
	return m
}

var requestScenarios = []string{"request-1", "request-1-x50"}

// TestRunTargetNginx: against nginx (h1 on one port, h1-tls and h2 on
// another, no h2c there and no QUIC) the user's request (from a targets
// file) alone is measured, over the transports nginx speaks, with exit 0;
// h2c and h3 are each one line in the words users look for, and none of
// httpvs's own scenarios runs.
func TestRunTargetNginx(t *testing.T) {
	t.Parallel() // see TestMain
	srv := startPeer(t, "nginx")
	file := filepath.Join(t.TempDir(), "targets.txt")
	if err := os.WriteFile(file, []byte("GET /small\nAccept: text/plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, stdout := runTarget(t, "--target", srv.URL(transport.H1), "--tls-target", srv.URL(transport.H2), "-k", "--requests", file)
	onlyCells(t, res, requestScenarios, []string{"h1", "h1-tls", "h2"})
	nr := notRun(res)
	if len(nr) != 2 || !strings.Contains(nr["h2c"], "h2c prior knowledge refused by this server") || !strings.Contains(nr["h3"], "no QUIC on the port") {
		t.Errorf("not run: %v", nr)
	}
	if !strings.Contains(stdout, "not run:\n  h2c: h2c prior knowledge refused") || strings.Contains(stdout, ":tuned rows") {
		t.Errorf("report:\n%s", stdout)
	}
}

// TestRunTargetCaddy: Caddy speaks every transport (h2c on its cleartext
// port, h3 on the TLS port's UDP): the request file's requests are
// measured over all five, nothing left out.
func TestRunTargetCaddy(t *testing.T) {
	t.Parallel() // see TestMain
	srv := startPeer(t, "caddy")
	file := filepath.Join(t.TempDir(), "targets.txt")
	if err := os.WriteFile(file, []byte("# Caddy's tree\nGET "+srv.URL(transport.H1)+"/small\nAccept: */*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := runTarget(t, "--target", srv.URL(transport.H1), "--tls-target", srv.URL(transport.H3), "-k", "--requests", file)
	onlyCells(t, res, requestScenarios, []string{"h1", "h2c", "h1-tls", "h2", "h3"})
	if len(res.NotRun) != 0 {
		t.Errorf("not run: %v", res.NotRun)
	}
}

// TestRunTargetH2OScenarios: httpvs's own scenarios named beside the
// user's request run where h2o has their endpoint (/small) and are one
// line each where it has not (gRPC's GetBook, /echo): no failed cell,
// exit 0.
func TestRunTargetH2OScenarios(t *testing.T) {
	t.Parallel() // see TestMain
	srv := startPeer(t, "h2o")
	res, _ := runTarget(t, "--target", srv.URL(transport.H1), "--scenarios", "small-sequential,grpc-1,headers-body,requests", "--request", "GET /small")
	onlyCells(t, res, []string{"small-sequential", "request-1", "request-1-x50"}, []string{"h1", "h2c"})
	nr := notRun(res)
	if len(nr) != 2 || !strings.Contains(nr["grpc-1"], "404") || !strings.Contains(nr["headers-body"], "POST /echo") {
		t.Errorf("not run: %v", nr)
	}
}

// TestRunRequestsFileNamesTheTarget: a targets file naming its server
// and no --target measures that server, not the child (as vegeta sends
// each request to its URL); its requests follow one another without blank
// lines, one with a Host header and a body read from the working
// directory (not the file's), as vegeta reads them.
func TestRunRequestsFileNamesTheTarget(t *testing.T) {
	srv := startPeer(t, "h2o")
	file, work := filepath.Join(t.TempDir(), "targets.txt"), t.TempDir()
	text := "GET " + srv.URL(transport.H1) + "/small\nPUT " + srv.URL(transport.H1) + peers.SinkPath + "\nHost: api.example\n@body.txt\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "body.txt"), []byte("Hello world!"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	res, _ := runTarget(t, "--requests", file)
	onlyCells(t, res, append(requestScenarios, "request-2", "request-2-x50"), []string{"h1", "h2c"})
	if r := res.Settings.Requests; len(r) != 2 || r[1].BodyBytes != 12 || !slices.Equal(r[1].HeaderNames, []string{"Host"}) {
		t.Errorf("requests %+v", r)
	}
	if res.Settings.Target != srv.URL(transport.H1) || res.Settings.TLSTarget != "" {
		t.Errorf("target %q, TLS target %q; want %s", res.Settings.Target, res.Settings.TLSTarget, srv.URL(transport.H1))
	}
}

// TestRunTargetRefusals: one line and exit 2, before anything is dialed,
// for a transport whose target is not given, a targets file naming
// another server than --target, and one naming two servers.
func TestRunTargetRefusals(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.txt")
	two := filepath.Join(dir, "two.txt")
	for name, text := range map[string]string{other: "GET http://127.0.0.1:1/x\n", two: "GET http://127.0.0.1:1/x\nGET http://127.0.0.1:2/y\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "http://127.0.0.1:9", "--protocols", "h1,h1-tls", "--request", "GET /"}, "--tls-target none: want a TLS base URL https://host:port: h1-tls needs it"},
		{[]string{"--tls-target", "https://127.0.0.1:9", "--protocols", "h2c", "--request", "GET /"}, "--target none: want a cleartext base URL http://host:port: h2c needs it"},
		{[]string{"--target", "http://127.0.0.1:9", "--requests", other}, "names the server http://127.0.0.1:1/x, not the target"},
		{[]string{"--request", "GET http://localhost:2/y", "--target", "http://127.0.0.1:9"}, "not the target"},
		{[]string{"--requests", two}, "names 2 servers"},
	} {
		code, _, stderr := runMain(t, append([]string{"run", "--quick", "--no-files"}, tc.args...)...)
		if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// TestRunTargetServerStats: against a target, the run says up front that
// it reads the target's GET /stats, and does; with --no-server-stats it
// sends none, and it refuses --no-server-stats without a target.
func TestRunTargetServerStats(t *testing.T) {
	t.Parallel() // see TestMain
	var statsHits atomic.Int64
	payload := server.New(server.Options{})
	opts := server.Loopback()
	opts.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stats" {
			statsHits.Add(1)
		}
		payload.Handler().ServeHTTP(w, r)
	})
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	args := []string{"run", "--no-files", "--quick", "--target", srv.Transport.URL(transport.H1), "--request", "GET /small", "--protocols", "h1,h2c"}
	code, _, stderr := runMain(t, args...)
	if code != 0 || !strings.Contains(stderr, "reading the target's counters too: GET /stats") || statsHits.Load() == 0 {
		t.Fatalf("exit %d, %d /stats requests: %s", code, statsHits.Load(), stderr)
	}
	statsHits.Store(0)
	code, _, stderr = runMain(t, append(args, "--no-server-stats")...)
	if code != 0 || strings.Contains(stderr, "/stats") || statsHits.Load() != 0 {
		t.Errorf("--no-server-stats: exit %d, %d /stats requests: %s", code, statsHits.Load(), stderr)
	}
	code, _, stderr = runMain(t, "run", "--no-files", "--no-server-stats")
	if code != exitUsage || !strings.Contains(stderr, "--no-server-stats goes with --target") {
		t.Errorf("--no-server-stats without a target: exit %d, %s", code, stderr)
	}
}

// TestRunTLSTargetUntrusted: a TLS target whose certificate does not
// verify measures nothing, and the run says so and exits 1 (it exited 0).
func TestRunTLSTargetUntrusted(t *testing.T) {
	ts, _ := testServer(t)
	code, _, stderr := runMain(t, "run", "--quick", "--no-files", "--protocols", "h1-tls,h2",
		"--scenarios", "small-sequential", "--tls-target", ts.URL(transport.H2))
	if code != exitFailure || !strings.Contains(stderr, "2 cells could not be measured") || !strings.Contains(stderr, "certificate") {
		t.Fatalf("exit %d, stderr %q; want %d and the TLS failure", code, stderr, exitFailure)
	}
	// With -k the same run measures both cells.
	if code, _, stderr := runMain(t, "run", "--quick", "--no-files", "--protocols", "h1-tls,h2",
		"--scenarios", "small-sequential", "--tls-target", ts.URL(transport.H2), "-k"); code != 0 {
		t.Fatalf("-k: exit %d: %s", code, stderr)
	}
}
