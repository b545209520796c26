package cli

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// TestRunTargetHeader: run -H sends the header with every request of a
// transfer and a request scenario, probes included, to a target that
// answers 401 without it; the results name the header, not its value.
func TestRunTargetHeader(t *testing.T) {
	t.Parallel() // see TestMain
	payload := server.New(server.Options{})
	var with, without atomic.Int64
	guard := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/stats" && r.Header.Get("X-Token") != "secret" {
			without.Add(1)
			http.Error(w, "want X-Token", http.StatusUnauthorized)
			return
		}
		if r.URL.Path != "/stats" {
			with.Add(1)
		}
		payload.Handler().ServeHTTP(w, r)
	})
	opts := server.Loopback()
	opts.Handler = guard
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	target := srv.Transport.URL(transport.H1)

	run := func(extra ...string) results.Results {
		t.Helper()
		args := append([]string{"run", "--target", target, "--no-files", "--quick", "--json",
			"--scenarios", "download,small-sequential", "--protocols", "h1,h2c"}, extra...)
		code, stdout, stderr := runMain(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var res results.Results
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}

	res := run("-H", "X-Token: secret")
	if n := without.Load(); n != 0 {
		t.Errorf("%d requests arrived without the header", n)
	}
	if with.Load() == 0 {
		t.Error("no request arrived")
	}
	if got := res.Settings.HeaderNames; !slices.Equal(got, []string{"X-Token"}) {
		t.Errorf("settings.header_names %q, want [X-Token]", got)
	}
	for _, c := range res.Cells {
		if c.Skipped != "" || c.Failed || len(c.Repetitions) == 0 {
			t.Errorf("%s/%s: skipped %q, failed %v, %d repetitions; want measured", c.Scenario, c.Protocol, c.Skipped, c.Failed, len(c.Repetitions))
		}
	}

	// Without it no cell is measured: each scenario is one line, not
	// run for the 401.
	res = run()
	if without.Load() == 0 {
		t.Error("no request arrived without the header")
	}
	if len(res.NotRun) != 2 || !strings.Contains(res.NotRun[0].Reason, "401") {
		t.Errorf("not run: %+v, want download and small-sequential for their 401", res.NotRun)
	}
	for _, c := range res.Cells {
		if c.Skipped == "" || len(c.Repetitions) > 0 {
			t.Errorf("%s/%s measured without the header the target wants", c.Scenario, c.Protocol)
		}
	}
}
