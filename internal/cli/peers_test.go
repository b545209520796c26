package cli

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/results"
)

// TestRunPeers: run --peers h2o,curl measures the download with curl from
// Go's server and from h2o, over each transport, into results.json.
func TestRunPeers(t *testing.T) {
	t.Parallel() // see TestMain
	if testing.Short() {
		t.Skip("a reference peer: not under -short")
	}
	for _, n := range []string{"h2o", "curl"} {
		if p, _ := peers.Lookup(n); !p.Installed() {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI=true and %s is not installed", n)
			}
			t.Skipf("%s is not installed", n)
		}
	}
	code, stdout, stderr := runMain(t, "run", "--peers", "h2o,curl", "--scenarios", "download", "--protocols", "h1,h2c",
		"--repeat", "2", "--size", "8MiB", "--json", "--no-files")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res results.Results
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range res.References {
		if c.Skipped != "" || len(c.Rounds) != 2 || c.Median <= 0 || c.Client != "curl" {
			t.Errorf("%+v: want two clean rounds with curl", c)
		}
		got[c.Server+"/"+c.Protocol] = true
	}
	if len(res.References) != 4 || !got["go/h1"] || !got["go/h2c"] || !got["h2o/h1"] || !got["h2o/h2c"] {
		t.Fatalf("references %v: want go and h2o over h1 and h2c", got)
	}
}
