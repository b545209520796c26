//go:build measured

package experiment_test

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestRunLossyLinkAgainstModels runs one download over h1 and h3 across a
// 20 ms, 20 Mbit/s link that drops 3% of packets, TCP on Reno, each
// transfer sized to see 30 losses, and holds every cell to the link and
// to its controller's loss model: no cell above the link's bound (the
// rate less framing, not the calibration's Reno transfer); each cell at
// the link, at its controller's loss bound (within the model's tolerance
// of it) or printed as unexplained or held by the machine; the loss
// sizing said before the cells; the repetitions carried the losses they
// were sized for.
func TestRunLossyLinkAgainstModels(t *testing.T) {
	o := rounds(2)
	o.Matrix.MaxRepeat, o.Matrix.LossEvents = 2, 30
	res, stdout, said := acrossLink(t, o, "rtt=20ms,rate=20mbit,loss=3%,cc=reno", "download", "h1,h3")
	if !strings.Contains(said, "each transfer sized to see 30 loss events") {
		t.Errorf("the plan does not say how the transfers were sized for the loss:\n%s", said)
	}
	n := res.Settings.Net
	if n.Calibration.DownRateBitsPerSecond < 19e6 || n.Calibration.DownRateBitsPerSecond > 21e6 {
		t.Errorf("paced UDP read %.3g bit/s down, want 20 Mbit/s within 5%%", n.Calibration.DownRateBitsPerSecond)
	}
	if len(res.Cells) != 2 {
		t.Fatalf("%d cells, want 2", len(res.Cells))
	}
	for i := range res.Cells {
		checkLossyCell(t, &res.Cells[i], res, stdout)
	}
	if !strings.Contains(stdout, "loss model") {
		t.Errorf("the report prints no loss model beside the link:\n%s", stdout)
	}
}

// checkLossyCell holds a transfer across a lossy link to the link's bound
// and its controller's loss model, as TestRunLossyLinkAgainstModels says.
func checkLossyCell(t *testing.T, c *results.Cell, res *results.Results, stdout string) {
	t.Helper()
	b := c.Bound
	if b == nil || b.Loss == nil {
		t.Fatalf("%s/%s: bound %+v, want the link's with the controller's loss model beside", c.Scenario, c.Protocol, b)
	}
	t.Logf("%s/%s: %.0f%% of %s; %s's model %.2f Mbit/s, %.0f%% of it; %s (%s)", c.Scenario, c.Protocol, 100*b.Share, b.Basis, b.Loss.Controller, b.Loss.Value*8/1e6, 100*b.Loss.Share, analysis.BoundClass(b), b.Explained)
	if rate := 20e6 / 8; b.Value > rate || b.Value < 0.95*rate {
		t.Errorf("%s: bound %.0f B/s, want the rate less framing", c.Protocol, b.Value)
	}
	if b.Faster || b.Share > 1.05 {
		t.Errorf("%s: %.0f%% of the link's bound: above it (a measurement defect)", c.Protocol, 100*b.Share)
	}
	switch class := analysis.BoundClass(b); {
	case class == analysis.ClassAtLossBound:
		if b.Loss.Share < 0.5 || b.Loss.Share > 2 {
			t.Errorf("%s: at its loss bound at %.0f%% of it: outside the model's tolerance", c.Protocol, 100*b.Loss.Share)
		}
	case class == analysis.ClassAtLink:
	case class == analysis.ClassUndecided:
		if !strings.Contains(stdout, "undetermined") {
			t.Errorf("%s: undetermined but not printed as such:\n%s", c.Protocol, stdout)
		}
	case class == analysis.ClassUnexplained:
		if !strings.Contains(stdout, c.Scenario+"/"+c.Protocol) || !strings.Contains(stdout, "unexplained") {
			t.Errorf("%s: unexplained but not printed as such:\n%s", c.Protocol, stdout)
		}
	case analysis.MachineBound(c, res):
		t.Logf("%s: held by the machine: %s", c.Protocol, b.Explained)
	default:
		t.Errorf("%s: class %q", c.Protocol, class)
	}
	checkLossesSeen(t, c)
}

// checkLossesSeen checks that each completed repetition of c lost about
// the packets its transfer was sized for (30 loss events).
func checkLossesSeen(t *testing.T, c *results.Cell) {
	t.Helper()
	for _, r := range c.Repetitions {
		if r.Link != nil && !r.Interrupted && r.Link.Down.Lost < 15 {
			t.Errorf("%s round %d: %d packets lost down, want about 30 or more", c.Protocol, r.Round, r.Link.Down.Lost)
		}
	}
}
