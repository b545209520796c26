package matrix

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestBrowserBesidePageLoad runs page-load and the real browser over
// every transport: h2c is skipped by name, every other transport's loads
// agree with the server's counters, and each is held to h1's loads of the
// same rounds (on loopback, not to the model).
func TestBrowserBesidePageLoad(t *testing.T) {
	needBrowser(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the browsers' profiles: none may outlive the run
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: transport.All,
		Scenarios: scenarios(t, "page-load"),
		Repeat:    2,
		Duration:  50 * time.Millisecond,
		Browser:   &BrowserOptions{Rounds: 2},
	}, Wiring: Wiring{Target: target(t, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Browser) != len(transport.All) {
		t.Fatalf("%d browser cells, want %d", len(res.Browser), len(transport.All))
	}
	for _, c := range res.Browser {
		checkBrowserCell(t, c)
	}
	if pids := browser.Running(tmp); len(pids) > 0 {
		t.Errorf("browsers left running: %v", pids)
	}
}

// needBrowser skips the test where no browser is installed, unless
// CI=true (CI installs one).
func needBrowser(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser: not under -short")
	}
	if _, err := browser.Find(""); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %v", err)
		}
		t.Skip(err)
	}
}

// checkBrowserCell checks one transport's browser cell: h2c skipped by
// name; any other loaded every round, its loads agreeing with the server's
// counters, held to h1's and not to the model.
func checkBrowserCell(t *testing.T, c results.BrowserCell) {
	t.Helper()
	if c.Protocol == "h2c" {
		if !strings.Contains(c.Skipped, "h2c") || c.Failed {
			t.Errorf("h2c: skipped %q, failed %v", c.Skipped, c.Failed)
		}
		return
	}
	if c.Skipped != "" || len(c.Loads) != 2 || c.Disagrees != "" {
		t.Fatalf("%s: skipped %q, %d loads, disagrees %q", c.Protocol, c.Skipped, len(c.Loads), c.Disagrees)
	}
	for _, ld := range c.Loads {
		if ld.Objects != 50 || ld.ByTransport[c.Protocol] != 50 || ld.ServerRequests == nil || *ld.ServerRequests != 50 || ld.LoadEventSeconds <= 0 {
			t.Errorf("%s round %d: %+v", c.Protocol, ld.Round, ld)
		}
	}
	checkVsH1(t, c)
}

// checkVsH1 checks that c, loaded on loopback, is held to h1's loads of
// the same rounds and not to the model, which is no yardstick there
// (page-load's time is the two processes' CPU).
func checkVsH1(t *testing.T, c results.BrowserCell) {
	t.Helper()
	if c.Model != nil || c.LoadEvent.N != 2 {
		t.Errorf("%s: model %+v on loopback, load event %+v", c.Protocol, c.Model, c.LoadEvent)
	}
	iv := c.VsBaseline
	switch {
	case c.Protocol == "h1" && (iv != nil || c.Baseline != ""):
		t.Errorf("h1, the baseline: vs baseline %+v (%q)", iv, c.Baseline)
	case c.Protocol != "h1" && (iv == nil || iv.Pairs != 2 || iv.Verdict == "" || c.Baseline != "h1" || !(iv.Low <= iv.Ratio && iv.Ratio <= iv.High)):
		t.Errorf("%s: vs baseline %+v (%q): want two rounds paired with h1's", c.Protocol, iv, c.Baseline)
	}
}
