package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// bigResponse is the large response of the peer tests: past
// defaults.TransferResponse, small enough that 50 of it at once over every
// transport stays a test's cost (the 50 MB is measured by hand,
// docs/requests.md).
const bigResponse = 4 * units.MiB

// checkBigRequest checks res, a run of a small request (request-1) and
// a big one (request-2) against a server that spoke protos: the big one
// recorded with its size and measured as a transfer (bytes per second,
// CPU per GB, a whole number of responses a repetition, never the
// small-request advice), the small one as requests, every cell of both.
func checkBigRequest(t *testing.T, res *results.Results, protos []string, big units.Bytes) {
	t.Helper()
	onlyCells(t, res, []string{"request-1", "request-1-x50", "request-2", "request-2-x50"}, protos)
	if r := res.Settings.Requests; len(r) != 2 || r[0].Transfer || !r[1].Transfer || r[1].ResponseBytes != int64(big) {
		t.Errorf("requests %+v, want the second a transfer of %d bytes", r, big)
	}
	for _, c := range res.Cells {
		transfer := c.Scenario == "request-2" || c.Scenario == "request-2-x50"
		metric, unit := results.MetricRequestsPerSecond, "1000 requests"
		if transfer {
			metric, unit = results.MetricBytesPerSecond, "GB"
		}
		if c.Metric != metric || c.CPUUnit != unit {
			t.Errorf("%s/%s: %s per %s, want %s per %s", c.Scenario, c.Protocol, c.Metric, c.CPUUnit, metric, unit)
		}
		if !transfer || len(c.Repetitions) != 1 {
			continue
		}
		m := c.Repetitions[0]
		if m.Requests < 1 || m.Bytes != m.Requests*int64(big) || c.ResponseBytes != int64(big) {
			t.Errorf("%s/%s: %d bytes in %d responses, want %d each", c.Scenario, c.Protocol, m.Bytes, m.Requests, big)
		}
		for _, f := range c.Findings {
			if f.Rule == "allocations" {
				t.Errorf("%s/%s: small-request advice: %s", c.Scenario, c.Protocol, f)
			}
		}
	}
}

// spoken is transport.All without what res says was not run.
func spoken(res *results.Results) []string {
	var out []string
	for _, p := range transport.All {
		if !slices.ContainsFunc(res.NotRun, func(n results.NotRun) bool { return n.Protocol == p.String() }) {
			out = append(out, p.String())
		}
	}
	return out
}

// TestRunTargetPeersBigResponse: against servers no one here wrote (h2o,
// nginx, Caddy by IP address), a small request and a big one: the big
// one measured as a transfer over every transport the server speaks.
// No budget (--quick's one round bounds the run): under the race suite's
// load the x50 round's estimate can pass the default budget, and what
// is left out then is TestRunSlowRequestPastBudget's to check.
func TestRunTargetPeersBigResponse(t *testing.T) {
	for _, name := range []string{"h2o", "nginx", "caddy"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // see TestMain
			srv := startPeerWith(t, name, peers.ServerOptions{Sizes: []units.Bytes{bigResponse}})
			args := []string{"--budget", "0", "--target", srv.URL(transport.H1), "--request", "GET /small", "--request", "GET " + peers.PayloadPath(bigResponse)}
			if tls := srv.URL(transport.H2); tls != "" {
				args = append(args, "--tls-target", tls, "-k")
			}
			res, _ := runTarget(t, args...)
			protos := spoken(res)
			if len(protos) < 2 {
				t.Fatalf("%s spoke %v", name, protos)
			}
			checkBigRequest(t, res, protos, bigResponse)
		})
	}
}

// TestRunTargetCaddyByNameBigResponse: Caddy's site named localhost,
// reached by IP address, serves a small and a big response over all
// five transports, the big one measured as a transfer.
func TestRunTargetCaddyByNameBigResponse(t *testing.T) {
	t.Parallel() // see TestMain
	plain, secure, www := startCaddyByName(t)
	f, err := os.Create(filepath.Join(www, "big"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(bigResponse)); err != nil { // sparse: zeros, no disk I/O
		t.Fatal(err)
	}
	f.Close()
	res, _ := runTarget(t, "--budget", "0", "--no-server-stats", "--target", plain, "--tls-target", secure, "-k", "--request", "GET /small", "--request", "GET /big")
	checkBigRequest(t, res, []string{"h1", "h2c", "h1-tls", "h2", "h3"}, bigResponse)
	if res.Settings.ServerName != "localhost" {
		t.Errorf("server name %q", res.Settings.ServerName)
	}
}
