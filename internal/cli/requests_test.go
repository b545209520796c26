package cli

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// startH2O starts h2o serving its file tree (/small holds "ok"), skipping
// the test where h2o is not installed unless CI=true (CI installs it).
func startH2O(t *testing.T) *peers.Server {
	t.Helper()
	if testing.Short() {
		t.Skip("a reference peer: not under -short")
	}
	p, err := peers.Lookup("h2o")
	if err != nil || !p.Installed() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("h2o is not installed: %v", err)
		}
		t.Skip("h2o is not installed (apt-get install h2o)")
	}
	srv, err := peers.Start(context.Background(), "h2o", peers.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return srv
}

// TestRunUserRequestsAgainstH2O measures the user's own requests against
// a server that is not httpvs's: one it serves (a file of h2o's tree),
// measured over h1 and h2c with a verdict, and one it answers 404, whose
// cells fail with the status named while the others still measure. No
// budget: on a starved machine the request's timing would rightly give
// its scenarios fewer first rounds than the two checked here.
func TestRunUserRequestsAgainstH2O(t *testing.T) {
	t.Parallel() // see TestMain
	srv := startH2O(t)
	out := t.TempDir()
	code, stdout, stderr := runMain(t, "run", "--target", srv.URL(transport.H1), "--scenarios", "requests",
		"--request", "GET /small", "--request", "GET /no/such/file", "--protocols", "h1,h2c", "--repeat", "2", "--duration", "200ms", "--budget", "0", "--detail", "--out", out)
	if code != exitFailure || !strings.Contains(stderr, "could not be measured") {
		t.Fatalf("exit %d, want %d for the failed cells: %s", code, exitFailure, stderr)
	}
	res, _ := readResults(t, out)
	if len(res.Settings.Requests) != 2 || res.Settings.Requests[1].String() != "GET /no/such/file" {
		t.Errorf("settings' requests %+v", res.Settings.Requests)
	}
	checkServedRequest(t, res)
	checkFailedRequest(t, res)
	if !strings.Contains(stdout, "request-2      failed") || !strings.Contains(stdout, "GET /small, one at a time (your request)") {
		t.Errorf("report:\n%s", stdout)
	}
}

// checkServedRequest checks the cells of the request h2o serves: measured
// over both transports, every repetition negotiated as asked, with a verdict.
func checkServedRequest(t *testing.T, res *results.Results) {
	t.Helper()
	for _, name := range []string{"request-1", "request-1-x50"} {
		for _, p := range []string{"h1", "h2c"} {
			c := res.Cell(name, p)
			if c == nil || c.Skipped != "" || len(c.Repetitions) != 2 || c.Errors.Total != 0 || c.ResponseBytes != 2 || c.ResponsesDiffer != "" {
				t.Fatalf("%s/%s: %+v", name, p, c)
			}
			// At least one request: a starved machine's repetition that
			// stays under the matrix's 20 after its third try is kept,
			// few but measured (seen: 17).
			if m := c.Repetitions[0]; m.Negotiated != p || m.Requests == 0 || m.Latency.Count != m.Requests {
				t.Errorf("%s/%s: over %s, %d requests", name, p, m.Negotiated, m.Requests)
			}
		}
		if c := res.Cell(name, "h2c"); c.VsBaseline == nil || c.VsBaseline.Pairs != 2 {
			t.Errorf("%s/h2c: no verdict: %+v", name, c.VsBaseline)
		}
	}
}

// checkFailedRequest checks the cells of the request h2o answers 404:
// failed, with the status named.
func checkFailedRequest(t *testing.T, res *results.Results) {
	t.Helper()
	for _, name := range []string{"request-2", "request-2-x50"} {
		for _, p := range []string{"h1", "h2c"} {
			if c := res.Cell(name, p); c == nil || !c.Failed || !strings.Contains(c.Skipped, "404") {
				t.Errorf("%s/%s: %+v, want failed with its 404", name, p, c)
			}
		}
	}
}

// TestRunRequestsBadInput: one line and exit 2 for a request line
// without a path, a targets file that cannot be read or holds no request,
// --body without --request, and the requests group with no request.
func TestRunRequestsBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := dir + "/empty.txt"
	if err := os.WriteFile(empty, []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--request", "GET"},
		{"--request", "get /x"},
		{"--requests", dir + "/none.txt"},
		{"--requests", empty},
		{"--body", "10"},
		{"--scenarios", "requests"},
	} {
		code, _, stderr := runMain(t, append([]string{"run", "--quick", "--no-files"}, args...)...)
		if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
