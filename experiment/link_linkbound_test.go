//go:build measured

package experiment_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
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
// them all, or, where two cells at the bound still differ, the words say
// the bound is the same and how far each got. The time printed before the cells is met within a fifth.
func TestRunNetAtTheLinksBound(t *testing.T) {
	began := time.Now()
	spec := "rtt=50ms,rate=100mbit"
	if raceBuild {
		spec = "rtt=100ms,rate=20mbit"
	}
	res, stdout, said := acrossLink(t, rounds(3), spec, "download,small-concurrent", "h1,h2c,h2,h3")
	took := time.Since(began)
	busy := 0
	for i := range res.Cells {
		c := &res.Cells[i]
		if departsMachineBound(c, res) || departsMachineBound(res.Cell(c.Scenario, "h1"), res) {
			// The run found the machine, not the link, held this cell (a
			// busy CI machine under -race): it must say so in its words.
			t.Logf("%s/%s: %.0f%% of its bound, explained: %s", c.Scenario, c.Protocol, 100*c.Bound.Share, c.Bound.Explained)
			busy++
		} else {
			checkAtBound(t, c)
		}
		checkWord(t, stdout, c)
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
	if est := res.Settings.EstimatedSeconds; est <= 0 || !strings.Contains(said, "about ") {
		t.Errorf("estimate %.1f s; said before the cells: %s", est, said)
	}
	t.Logf("took %v, estimated %.1f s for the rounds; said before the cells: %s", took, res.Settings.EstimatedSeconds, said)
}

// departsMachineBound says c departs from its bound for a reason of the
// machine's (its CPU, or the emulator falling behind), as the run found.
func departsMachineBound(c *results.Cell, res *results.Results) bool {
	return c != nil && c.Bound != nil && c.Bound.Departs && analysis.MachineBound(c, res)
}

// checkAtBound checks that c, a download or small-concurrent cell of
// three rounds across a link, read at its bound: not departing from it (its
// interval reaches 80% of the goodput, or 90% of the requests in flight per
// round trip, and its median is not beyond it by 5%), with a download's
// slow start omitted; checkWord holds its verdict. The median itself is
// not held to the tolerance: under -race beside other packages' tests the
// server's time adds to each round trip (84-87% of 50/RTT seen in CI's
// rounds, 96-99% on a quiet machine).
func checkAtBound(t *testing.T, c *results.Cell) {
	t.Helper()
	if c.Skipped != "" || len(c.Repetitions) != 3 || c.Errors.Total != 0 || c.Bound == nil {
		t.Errorf("%s/%s: skipped %q, %d repetitions, errors %v, bound %+v", c.Scenario, c.Protocol, c.Skipped, len(c.Repetitions), c.Errors, c.Bound)
		return
	}
	b := c.Bound
	t.Logf("%s/%s: %.4g (%.0f%% of %s), vs h1 %+v", c.Scenario, c.Protocol, c.Median, 100*b.Share, b.Basis, c.VsBaseline)
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
}

// checkWord checks what the product says of c against h1 on a link that
// binds every transport: ≈ h1, or, where the rounds call it slower or
// faster, that this machine held it ("is machine-bound on" its scenario,
// as the report's words put it), never that it lost or won.
func checkWord(t *testing.T, stdout string, c *results.Cell) {
	t.Helper()
	if c.Protocol == "h1" {
		return
	}
	if c.VsBaseline == nil {
		t.Errorf("%s/%s: no verdict, want ≈ h1: the link binds every transport", c.Scenario, c.Protocol)
		return
	}
	if c.VsBaseline.Verdict == results.VerdictSimilar {
		return
	}
	if v := c.VsBaseline; v.Verdict == results.VerdictUndetermined {
		// Three rounds on a busy machine may not tell: the run says it
		// cannot, which is no claim against the link's physics.
		t.Logf("%s/%s: undetermined %s", c.Scenario, c.Protocol, boundsOf(v))
		return
	}
	for _, line := range strings.Split(stdout, "\n") {
		words, ok := strings.CutPrefix(strings.TrimSpace(line), c.Protocol+" against h1: ")
		if !ok {
			continue
		}
		for _, group := range strings.Split(words, "; ") {
			if strings.HasPrefix(group, "is machine-bound on") && strings.Contains(group, c.Scenario+" (") {
				t.Logf("%s/%s: %s %.3fx, in the product's words machine-bound: %s", c.Scenario, c.Protocol, c.VsBaseline.Verdict, c.VsBaseline.Ratio, group)
				return
			}
			// Both at the bound (checkAtBound holds each to 80-105% of
			// it) can still differ: quic-go's Cubic reached 93% where
			// TCP's BBR reached 100%, a tight 0.91x. The run must then
			// say the bound is the same and how far each got.
			if strings.Contains(group, c.Scenario+" (") && strings.Contains(group, "the same bound") && c.Bound != nil && !c.Bound.Departs {
				t.Logf("%s/%s: %s %.3fx at %.0f%% of the shared bound, in the product's words: %s", c.Scenario, c.Protocol, c.VsBaseline.Verdict, c.VsBaseline.Ratio, 100*c.Bound.Share, group)
				return
			}
		}
	}
	t.Errorf("%s/%s: verdict %+v, and the words do not call it machine-bound: want ≈ h1, the link binds every transport\n%s", c.Scenario, c.Protocol, c.VsBaseline, stdout)
}

// TestRunNetShortRoundsUnexplained plants the artefact link runs used to
// print as a verdict: downloads sized for loopback (--duration 100ms) with
// nothing omitted (--omit 0) across a 100 ms, 100 Mbit/s link, whose
// rates are then their handshakes and slow start. The run must mark the
// cells unexplained, or undetermined where two rounds spread as far as
// the link (or put them down to a machine too busy for its emulator),
// not give a confident verdict.
func TestRunNetShortRoundsUnexplained(t *testing.T) {
	o := rounds(2)
	o.Matrix.Duration, o.Matrix.Omit = 100*time.Millisecond, -1 // --omit 0: none
	res, stdout, _ := acrossLink(t, o, "rtt=100ms,rate=100mbit", "download", "h1,h2c")
	judged := 0 // cells not put down to the machine, held to unexplained
	for _, c := range res.Cells {
		if departsMachineBound(&c, res) {
			// A busy machine held the emulator back over this cell (under
			// -race beside other packages): the run puts the departure
			// down to the machine, in its words, which is no verdict.
			t.Logf("%s: %.0f%% of its bound, explained: %s", c.Protocol, 100*c.Bound.Share, c.Bound.Explained)
			continue
		}
		judged++
		b := c.Bound
		// Unexplained: it departs from the link and nothing accounts for
		// it. Undetermined: two rounds on a busy machine can spread so
		// far that the interval still reaches the link, though the median
		// sits at a tenth of it; that too is no verdict, and says so.
		switch {
		case b == nil || b.Share >= transferBelowForTest || (!b.Unexplained && !b.Undetermined):
			if b != nil {
				t.Errorf("%s: bound %s, share %.2f [%.2f, %.2f], departs %v, explained %q: want unexplained or undetermined, below its bound", c.Protocol, b, b.Share, b.Low, b.High, b.Departs, b.Explained)
			} else {
				t.Errorf("%s: no bound: want one, unexplained or undetermined", c.Protocol)
			}
		case !strings.Contains(stdout, strings.Fields(analysis.BoundClass(b))[0]):
			t.Errorf("%s is %s, and the verdict does not say so:\n%s", c.Protocol, analysis.BoundClass(b), stdout)
		}
	}
	// Where the machine explained every cell the run rightly says neither
	// word: they are asked of the cells it left without a verdict.
	if judged == 0 {
		t.Logf("the machine explained every cell: no verdict to hold to unexplained")
	}
}

// transferBelowForTest is matrix's tolerance under a transfer's bound: a
// share under it departs.
const transferBelowForTest = 0.80

func boundsOf(v *results.Interval) string {
	return fmt.Sprintf("%.2fx [%.2f, %.2f]", v.Ratio, v.Low, v.High)
}
