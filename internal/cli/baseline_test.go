package cli

import (
	"strings"
	"testing"
)

// TestRunBaselineAllTLS measures only the web's TLS transports: the
// baseline is then h1-tls, named in the verdict's title, and every cell
// of h2 and h3 is compared with it.
func TestRunBaselineAllTLS(t *testing.T) {
	t.Parallel() // see TestMain
	out := t.TempDir()
	code, stdout, stderr := runMain(t, "run", "--quick", "--protocols", "h1-tls,h2,h3", "--scenarios", "small-sequential", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, _ := readResults(t, out)
	if res.Settings.Baseline != "h1-tls" {
		t.Fatalf("baseline %q, want h1-tls", res.Settings.Baseline)
	}
	for _, c := range res.Cells {
		if c.Protocol != "h1-tls" && (c.Baseline != "h1-tls" || c.RatioToBaseline <= 0) {
			t.Errorf("%s: ratio %.2f to %q, want a ratio to h1-tls", c.Protocol, c.RatioToBaseline, c.Baseline)
		}
	}
	if strings.Contains(stdout, "no h1") || !strings.Contains(stdout, "baseline h1-tls") {
		t.Errorf("the verdict does not compare with h1-tls:\n%s", stdout)
	}
}
