package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// logRun is a run of scenarios s0, s1, ..., h1 and h2c in each, of
// metric: h1 at drift·1e9 in each round, h2c at h1 times exp(mean[s] +
// dev[r]) in round r: its paired log-ratios are mean[s] + dev exactly.
func logRun(metric string, means []float64, dev, drift []float64) *results.Results {
	res := &results.Results{Settings: results.Settings{Protocols: []string{"h1", "h2c"}, Baseline: "h1"}}
	for s, m := range means {
		name := fmt.Sprintf("s%d", s)
		h1 := results.Cell{Scenario: name, Protocol: "h1", Metric: metric}
		h2 := results.Cell{Scenario: name, Protocol: "h2c", Metric: metric}
		for r, d := range dev {
			v, ratio := 1e9*drift[r], math.Exp(m+d)
			if metric == results.MetricSeconds {
				v, ratio = drift[r], 1/ratio // a time: h1's over h2c's is the ratio
			}
			h1.Repetitions = append(h1.Repetitions, results.Repetition{Round: r + 1, Value: v})
			h2.Repetitions = append(h2.Repetitions, results.Repetition{Round: r + 1, Value: v * ratio})
		}
		res.Cells = append(res.Cells, h1, h2)
	}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	return res
}

func repeat(x float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// TestEstimateBetweenRuns: three runs whose cells' mean log-ratios are
// -a, 0 and +a, each of three rounds at -δ, 0, +δ about it: the runs'
// means vary by a², of which the rounds explain δ²/3, so the between-run
// spread is √(a² - δ²/3) with two degrees of freedom a cell. Cells whose
// runs differ by less than their rounds say have none.
func TestEstimateBetweenRuns(t *testing.T) {
	const a, delta = 0.1, 0.06
	dev := []float64{-delta, 0, delta}
	drift := []float64{1, 0.9, 1.1}
	var runs []*results.Results
	for _, shift := range []float64{-a, 0, a} {
		r := logRun(results.MetricBytesPerSecond, repeat(math.Log(0.5)+shift, 4), dev, drift)
		timed := logRun(results.MetricSeconds, repeat(shift/10, 2), dev, drift) // runs apart by less than the rounds say
		for _, c := range timed.Cells {
			c.Scenario = "t" + c.Scenario
			r.Cells = append(r.Cells, c)
		}
		runs = append(runs, r)
	}
	m := EstimateBetweenRuns(runs)
	if m.Runs != 3 || len(m.Kinds) != 2 {
		t.Fatalf("estimate %+v, want 3 runs and two kinds", m)
	}
	for _, k := range m.Kinds {
		switch k.Kind {
		case KindTransfer:
			if want := math.Sqrt(a*a - delta*delta/3); math.Abs(k.SD-want) > 1e-9 || k.DF != 8 || k.Cells != 4 {
				t.Errorf("transfer %+v, want sd %.6f, 8 degrees of freedom, 4 cells", k, want)
			}
		case KindTimed:
			if k.SD != 0 || k.DF != 4 || k.Cells != 2 {
				t.Errorf("timed %+v, want sd 0 (the rounds explain the runs), 4 degrees of freedom, 2 cells", k)
			}
		default:
			t.Errorf("kind %q", k.Kind)
		}
	}
	if _, err := ParseBetweenRuns([]byte(`{"runs": 1, "kinds": [{"kind": "transfer", "sd": 0.1, "df": 3}]}`)); err == nil {
		t.Error("an estimate from one run is taken")
	}
	if _, err := ParseBetweenRuns([]byte(`{"runs": 3, "kinds": [{"kind": "transfer", "sd": -0.1, "df": 3}]}`)); err == nil {
		t.Error("a negative spread is taken")
	}
}

// TestCompareMargin: twelve transfer cells of five rounds whose rounds
// barely spread (±1%), compared with a between-run margin of 10% (sd of
// a run's mean log-ratio). A cell's ratio shifted by 10% (t of about
// 0.7 against the margin's √2·10%) passes; one halved (t of about 4.9)
// fails, and is the only cell that does. Without the margin the 10%
// shift fails too: the rounds alone take it for a change. The baseline
// moving alone (h1 30% faster in every round) fails no cell either way.
func TestCompareMargin(t *testing.T) {
	dev := []float64{-0.01, 0.01, 0, 0.005, -0.005}
	drift := []float64{1, 1.1, 0.9, 1.05, 0.95}
	base := repeat(math.Log(0.5), 12)
	old := logRun(results.MetricBytesPerSecond, base, dev, drift)
	shifted := append([]float64(nil), base...)
	shifted[0] += math.Log(1.10)
	shifted[1] += math.Log(0.5)
	new := logRun(results.MetricBytesPerSecond, shifted, dev, drift)
	margin := &results.BetweenRuns{Source: "three runs of one build", Runs: 3, Kinds: []results.BetweenRunsKind{{Kind: KindTransfer, SD: 0.10, DF: 100, Cells: 12}}}

	failing := func(ds []results.Delta) []string {
		var out []string
		for _, d := range Gate(ds, FailChanged) {
			out = append(out, d.Scenario)
		}
		return out
	}
	ds := CompareMargin(old, new, margin)
	if got := failing(ds); len(got) != 1 || got[0] != "s1" {
		t.Errorf("with the margin the gate fails %v, want [s1] only", got)
	}
	s0 := deltaOf(ds, "s0")
	if s0.BetweenRunSD != 0.10 || s0.Direction != "~" || !(s0.RatioChangeLow < 0 && s0.RatioChangeHigh > 0.10) {
		t.Errorf("s0 within the margin: %+v, want ~ and an interval holding 0 and +10%%", s0)
	}
	if got := failing(Compare(old, new)); len(got) != 2 || got[0] != "s0" || got[1] != "s1" {
		t.Errorf("without a margin the gate fails %v, want [s0 s1]", got)
	}
	faster := make([]float64, len(drift))
	for i, d := range drift {
		faster[i] = 1.3 * d
	}
	if got := failing(CompareMargin(old, logRun(results.MetricBytesPerSecond, base, dev, faster), margin)); len(got) != 0 {
		t.Errorf("the baseline moved alone: the gate fails %v", got)
	}
	c := CompareRunsMargin("old", "new", old, new, margin)
	if c.Margin != margin || !strings.Contains(MarginLine(c.Margin), "transfer ±11%") || !strings.Contains(MarginLine(c.Margin), "three runs of one build") {
		t.Errorf("the comparison's margin %+v, line %q", c.Margin, MarginLine(c.Margin))
	}
}

func deltaOf(ds []results.Delta, scenario string) results.Delta {
	for _, d := range ds {
		if d.Scenario == scenario && !d.Baseline {
			return d
		}
	}
	return results.Delta{}
}

// TestMarginT: the margin adds its variance to the rounds', and the
// degrees of freedom follow Welch and Satterthwaite: two equal parts of
// d degrees of freedom each make 2d; none leaves the moderated t alone.
func TestMarginT(t *testing.T) {
	a, b := []float64{0, 0.02, -0.02}, []float64{0.1, 0.12, 0.08}
	_, se0, df0 := marginT(a, b, Prior{}, 0, 0)
	w := se0 * se0
	_, se, df := marginT(a, b, Prior{}, w, df0)
	if math.Abs(se*se-2*w) > 1e-12 || math.Abs(df-2*df0) > 1e-9 {
		t.Errorf("se² %g df %g, want %g and %g", se*se, df, 2*w, 2*df0)
	}
	if p := marginP(a, b, Prior{}, 0, 0); p != ModeratedP(a, b, Prior{}) {
		t.Errorf("no margin: p %g, want the moderated t's %g", p, ModeratedP(a, b, Prior{}))
	}
}

// TestDefaultBetweenRuns: the built-in margin parses, comes from two
// runs or more, and says where from.
func TestDefaultBetweenRuns(t *testing.T) {
	m := DefaultBetweenRuns()
	if m == nil || m.Runs < 2 || m.Source == "" {
		t.Fatalf("built-in margin %+v", m)
	}
}
