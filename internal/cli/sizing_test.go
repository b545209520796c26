package cli

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// TestRunSlowRequestWithinBudget: a request that takes at least 40 ms,
// with --budget 2s: the cost is printed up front and said to be past the
// budget, each of the request's scenarios gets one round instead of six,
// said on stderr and in the results, and the run exits 0 with every round
// counting at least the 20 requests a repetition needs.
func TestRunSlowRequestWithinBudget(t *testing.T) {
	payload := server.New(server.Options{})
	opts := server.Loopback()
	opts.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(40 * time.Millisecond)
			r.URL.Path = "/small"
		}
		payload.Handler().ServeHTTP(w, r)
	})
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	out := t.TempDir()
	code, _, stderr := runMain(t, "run", "--target", srv.Transport.URL(transport.H1), "--protocols", "h1", "--request", "GET /slow",
		"--repeat", "6", "--budget", "2s", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2 cells on loopback", "past --budget 2s", "request-1: 1 round(s), not 6", "request-1-x50: 1 round(s), not 6", "request-1: one GET /slow takes"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	res, _ := readResults(t, out)
	if len(res.Sizing) != 4 {
		t.Errorf("sizing %q, want 4 lines", res.Sizing)
	}
	for _, c := range res.Cells {
		if len(c.Repetitions) != 1 || c.Repetitions[0].Requests < 20 || c.Errors.Total != 0 {
			t.Errorf("%s/%s: %d repetitions, errors %v", c.Scenario, c.Protocol, len(c.Repetitions), c.Errors)
		}
	}
}
