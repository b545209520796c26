package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// manyCells is a run of twelve scenarios, h1 and h2c in each, three
// rounds a cell: h1 with the round's drift, h2c at 0.5x of it times a
// jitter of about 5% a round (log-normal, from seed), and slower times
// that in scenario s0.
func manyCells(seed uint64, slower float64) *results.Results {
	rng := rand.New(rand.NewPCG(seed, 7))
	res := &results.Results{Settings: results.Settings{Protocols: []string{"h1", "h2c"}, Baseline: "h1"}}
	for s := range 12 {
		name := fmt.Sprintf("s%d", s)
		h1 := results.Cell{Scenario: name, Protocol: "h1", Metric: results.MetricBytesPerSecond}
		h2 := results.Cell{Scenario: name, Protocol: "h2c", Metric: results.MetricBytesPerSecond}
		ratio := 0.5
		if s == 0 {
			ratio *= slower
		}
		for r := 1; r <= 3; r++ {
			drift := 1e9 * math.Exp(0.2*rng.NormFloat64())
			h1.Repetitions = append(h1.Repetitions, results.Repetition{Round: r, Value: drift})
			h2.Repetitions = append(h2.Repetitions, results.Repetition{Round: r, Value: drift * ratio * math.Exp(0.05*rng.NormFloat64())})
		}
		res.Cells = append(res.Cells, h1, h2)
	}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	return res
}

// TestModeratedRatios: twelve cells of three rounds, one of them 20%
// slower in the new run. Welch's test of that cell alone, corrected for
// the cells, cannot call it on three rounds a side; the moderated test,
// lent the other cells' spread, calls it and no other cell, and its
// interval lies below 0 as its word says. Of twenty pairs of runs of
// the same build (other draws), at most two fail a cell: the test holds
// its 5% over the cells.
func TestModeratedRatios(t *testing.T) {
	old := manyCells(1, 1)
	new := manyCells(2, 0.8)
	ds := Compare(old, new)
	tested := 0
	for _, d := range ds {
		if d.Tested != "" {
			tested++
		}
	}
	if tested != 24 {
		t.Fatalf("%d cells tested, want 24 (12 ratios, 12 baselines)", tested)
	}
	failing := Gate(ds, FailChanged)
	if len(failing) != 1 || failing[0].Scenario != "s0" || failing[0].Protocol != "h2c" {
		t.Fatalf("gate fails %+v, want s0 h2c alone", failing)
	}
	if d := failing[0]; d.RatioChangeHigh >= 0 || d.RatioChangeLow > -0.2 || d.RatioChangeHigh < -0.2 {
		t.Errorf("s0 h2c: change %+.3f in [%+.3f, %+.3f], want an interval below 0 holding -0.2", d.RatioChange, d.RatioChangeLow, d.RatioChangeHigh)
	}
	ol := pairedLogRatios(old.Cell("s0", "h2c"), baselineCell(old, "s0"))
	nl := pairedLogRatios(new.Cell("s0", "h2c"), baselineCell(new, "s0"))
	if p := WelchP(ol, nl); math.Min(1, float64(tested)*p) < compareAlpha {
		t.Errorf("s0 h2c: Welch's test alone calls it too (p %g before correction): the case shows nothing", p)
	}
	alarms := 0
	for seed := uint64(10); seed < 50; seed += 2 {
		if got := Gate(Compare(manyCells(seed, 1), manyCells(seed+1, 1)), FailChanged); len(got) != 0 {
			alarms++
		}
	}
	if alarms > 2 {
		t.Errorf("%d of 20 pairs of the same build failed the gate, want at most 2", alarms)
	}
}
