package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/results"
)

// TestRunNetAtTheLinksBound runs one download and 50 small requests at a
// time across a 50 ms, 100 Mbit/s link with the link's default rounds
// (under the race detector 100 ms and 20 Mbit/s: quic-go's h3 would need
// about three cores to carry 100 Mbit/s, and 50 requests per 50 ms round
// trip held h2c and h3 at 84-89% of the bound on CI's busy two cores,
// where the instrumented client's and server's time adds to each round
// trip),
// and holds every cell to the link's physics: each download moves at
// 80-105% of the calibrated goodput (its handshakes and slow start
// omitted, and recorded apart), small-concurrent reads within 10% of 50
// requests per round trip, nothing departs from its bound unexplained,
// and the verdict is ≈ h1 for every transport on both, as the link binds
// them all. The time printed before the cells is met within a fifth.
func TestRunNetAtTheLinksBound(t *testing.T) {
	needLink(t)
	out := t.TempDir()
	began := time.Now()
	spec := "rtt=50ms,rate=100mbit"
	if raceBuild {
		spec = "rtt=100ms,rate=20mbit"
	}
	code, stdout, stderr := runMain(t, "run", "--net", spec, "--scenarios", "download,small-concurrent",
		"--protocols", "h1,h2c,h2,h3", "--repeat", "3", "--out", out)
	took := time.Since(began)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, _ := readResults(t, out)
	busy := 0
	for i := range res.Cells {
		c := &res.Cells[i]
		if machineBound(c) || machineBound(res.Cell(c.Scenario, "h1")) {
			// The run found the machine, not the link, held this cell (a
			// busy CI machine under -race): it says so, which is right.
			t.Logf("%s/%s: %.0f%% of its bound, explained: %s", c.Scenario, c.Protocol, 100*c.Bound.Share, c.Bound.Explained)
			busy++
			continue
		}
		checkAtBound(t, c)
	}
	if busy > len(res.Cells)/2 {
		t.Errorf("%d of %d cells were held by the machine, not the link: nothing left to check", busy, len(res.Cells))
	}
	if len(res.Cells) != 8 {
		t.Errorf("%d cells, want 8", len(res.Cells))
	}
	if !strings.Contains(stdout, "against the link") || !strings.Contains(stdout, "in words:") {
		t.Errorf("the verdict does not hold the cells against the link:\n%s", stdout)
	}
	if len(res.Crossover) != 4 || res.Crossover[0].BytesPerSecond <= res.Settings.Net.Calibration.DownGoodputBitsPerSecond/8 {
		t.Errorf("crossover %+v: want every transport's loopback speed, above the link's", res.Crossover)
	}
	if est := res.Settings.EstimatedSeconds; est <= 0 || !strings.Contains(stderr, "about ") {
		t.Errorf("estimate %.1f s; stderr %s", est, stderr)
	}
	t.Logf("took %v, estimated %.1f s for the rounds; stderr: %s", took, res.Settings.EstimatedSeconds, stderr)
}

// machineBound says c departs from its bound for a reason of the
// machine's (its CPU, or the emulator falling behind), as the run found.
func machineBound(c *results.Cell) bool {
	if c == nil || c.Bound == nil || !c.Bound.Departs {
		return false
	}
	return strings.HasPrefix(c.Bound.Explained, "emulator-behind") || strings.HasPrefix(c.Bound.Explained, "cpu-bound")
}

// checkAtBound checks that c, a download or small-concurrent cell of
// three rounds across a link, read at its bound: not departing from it (its
// interval reaches 80% of the goodput, or 90% of the requests in flight per
// round trip, and its median is not beyond it by 5%), ≈ h1 (under -race
// a ratio within that tolerance may read otherwise), with a
// download's slow start omitted. The median itself is not held to the
// tolerance: under -race beside other packages' tests the server's time
// adds to each round trip (84-87% of 50/RTT seen in CI's rounds, 96-99%
// on a quiet machine).
func checkAtBound(t *testing.T, c *results.Cell) {
	t.Helper()
	if c.Skipped != "" || len(c.Repetitions) != 3 || c.Errors.Total != 0 || c.Bound == nil {
		t.Errorf("%s/%s: skipped %q, %d repetitions, errors %v, bound %+v", c.Scenario, c.Protocol, c.Skipped, len(c.Repetitions), c.Errors, c.Bound)
		return
	}
	b := c.Bound
	t.Logf("%s/%s: %.4g (%.0f%% of %s), vs h1 %+v", c.Scenario, c.Protocol, c.Median, 100*b.Share, b.Basis, c.VsH1)
	lo, hi := 0.90, 1.05
	if c.Scenario == "download" {
		lo = 0.80
		for _, m := range c.Repetitions {
			if m.Omit == nil || m.Omit.SteadySeconds <= 0 || m.Omit.Seconds < 0.3 || m.FirstByteSeconds < 0.05 {
				t.Errorf("download/%s: omitted %+v, first byte %.3f s: want slow start omitted (at least 6 round trips) and the first byte after a round trip", c.Protocol, m.Omit, m.FirstByteSeconds)
			}
		}
	}
	if b.Departs || b.Share > hi || b.Unexplained {
		t.Errorf("%s/%s: %.0f%% of %s (unexplained %v: %s), want %.0f-%.0f%%", c.Scenario, c.Protocol, 100*b.Share, b.Basis, b.Unexplained, b.Explained, 100*lo, 100*hi)
	}
	if c.Protocol == "h1" {
		return
	}
	if c.VsH1 == nil {
		t.Errorf("%s/%s: no verdict, want ≈ h1: the link binds every transport", c.Scenario, c.Protocol)
		return
	}
	checkLinkVerdict(t, c, lo)
}

// checkLinkVerdict checks that c, at its link's bound, reads ≈ h1, or
// undetermined, or within the machine's tolerance of h1 (lo under -race).
func checkLinkVerdict(t *testing.T, c *results.Cell, lo float64) {
	t.Helper()
	if v := c.VsH1; v.Verdict == results.VerdictUndetermined {
		// Three rounds on a busy machine may not tell: the run says it
		// cannot, which is no claim against the link's physics.
		t.Logf("%s/%s: undetermined %s", c.Scenario, c.Protocol, boundsOf(v))
		return
	}
	if v := c.VsH1; v.Verdict != results.VerdictSimilar {
		// quic-go's per-packet CPU adds to each round trip where the
		// machine is busy (beside the in-process link's ferries, other
		// packages' tests, -race): h3's download read 0.89-0.95x h1 at
		// 89-95% of the bound there, and 0.99x on a quiet machine. Such a
		// difference of this machine's passes within 15% of h1, or the
		// bound's tolerance under -race where that is wider.
		tol := 0.85
		if raceBuild {
			tol = min(tol, lo)
		}
		if v.Ratio >= tol && v.Ratio <= 1/tol {
			t.Logf("%s/%s: %s %.3fx, within %.0f%% of h1 (the machine's, not the link's)", c.Scenario, c.Protocol, v.Verdict, v.Ratio, 100*(1-tol))
			return
		}
		t.Errorf("%s/%s: verdict %+v, want ≈ h1: the link binds every transport", c.Scenario, c.Protocol, v)
	}
}

// TestRunNetShortRoundsUnexplained plants the artefact link runs used to
// print as a verdict: downloads sized for loopback (--duration 100ms) with
// nothing omitted (--omit 0) across a 100 ms, 100 Mbit/s link, whose
// rates are then their handshakes and slow start. The run must mark the
// cells unexplained, not give a confident verdict.
func TestRunNetShortRoundsUnexplained(t *testing.T) {
	needLink(t)
	out := t.TempDir()
	code, stdout, stderr := runMain(t, "run", "--net", "rtt=100ms,rate=100mbit", "--scenarios", "download",
		"--protocols", "h1,h2c", "--repeat", "2", "--duration", "100ms", "--omit", "0", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, _ := readResults(t, out)
	for _, c := range res.Cells {
		if c.Bound == nil || !c.Bound.Unexplained || c.Bound.Share >= transferBelowForTest {
			t.Errorf("%s: bound %+v: want unexplained, below its bound", c.Protocol, c.Bound)
		}
	}
	if !strings.Contains(stdout, "unexplained") {
		t.Errorf("the verdict does not say unexplained:\n%s", stdout)
	}
}

// transferBelowForTest is matrix's tolerance under a transfer's bound: a
// share under it departs.
const transferBelowForTest = 0.80

// TestRunBaselineAllTLS measures only the web's TLS transports: the
// baseline is then h1-tls, named in the verdict's title, and every cell
// of h2 and h3 is compared with it.
func TestRunBaselineAllTLS(t *testing.T) {
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
		if c.Protocol != "h1-tls" && (c.Baseline != "h1-tls" || c.RatioToH1 <= 0) {
			t.Errorf("%s: ratio %.2f to %q, want a ratio to h1-tls", c.Protocol, c.RatioToH1, c.Baseline)
		}
	}
	if strings.Contains(stdout, "no h1") || !strings.Contains(stdout, "baseline h1-tls") {
		t.Errorf("the verdict does not compare with h1-tls:\n%s", stdout)
	}
}

func boundsOf(v *results.Interval) string {
	return fmt.Sprintf("%.2fx [%.2f, %.2f]", v.Ratio, v.Low, v.High)
}
