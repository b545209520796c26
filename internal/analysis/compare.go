package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// CompareAlpha is the family-wise error rate compare holds its tests to:
// each test's p-value is corrected for the number of cells tested (Holm),
// so that two runs of one build flag (almost) nothing.
const compareAlpha = 0.05

// What a Delta tests (vocab.TestedRatio, vocab.TestedValue).
const (
	TestedRatio = vocab.TestedRatio
	TestedValue = vocab.TestedValue
)

// BaselineMoveMin is the change of a baseline's own value (New/Old - 1,
// either way) from which BaselineMoves reports it even when the test
// cannot tell it from noise: runs on one machine drift by about that.
const baselineMoveMin = 0.10

// BaselineMoves returns the baseline cells of ds whose own value moved:
// by a significant change, or by BaselineMoveMin or more. A ratio to a
// baseline that moved hides the move: h2 at 0.20x of h1 in both runs is
// faster in the second if h1 is.
func BaselineMoves(ds []results.Delta) []results.Delta {
	var out []results.Delta
	for _, d := range ds {
		if d.Baseline && d.Tested != "" && (d.Significant || math.Abs(d.Change) >= baselineMoveMin) {
			out = append(out, d)
		}
	}
	return out
}

// tooFewNote is a Delta's Note when a side has too few samples.
var tooFewNote = fmt.Sprintf("need >= %d repetitions on each side", minCompare)

// minCompare is the fewest samples a side needs for the test.
const minCompare = vocab.CompareMinRounds

// Compare pairs the cells of old and new by scenario and transport, in
// new's order followed by cells only old has. A cell other than its run's
// baseline is tested on its ratio to the baseline, round by round, as the
// verdict computes it; the baseline's own cells on their values. The real
// browser's cells follow, tested on their load events' values. The
// p-values are corrected for the number of cells tested. Its tests allow
// for the rounds' spread only; CompareMargin allows for the runs' too.
func Compare(old, new *results.Results) []results.Delta { return CompareMargin(old, new, nil) }

// CompareMargin is Compare with each ratio cell's test allowing for
// margin, the between-run spread of its kind of work (nil: none): two
// runs of one build differ by twice its variance more than their rounds
// say, so the test adds that to the variance of the difference of the
// runs' mean log-ratios (and the interval widens to match).
func CompareMargin(old, new *results.Results, margin *results.BetweenRuns) []results.Delta {
	var out []delta
	seen := map[[2]string]bool{}
	add := func(c *results.Cell) {
		o, n := old.Cell(c.Scenario, c.Protocol), new.Cell(c.Scenario, c.Protocol)
		out = append(out, newDelta(old, new, o, n, c))
	}
	for i := range new.Cells {
		n := &new.Cells[i]
		seen[[2]string{n.Scenario, n.Protocol}] = true
		add(n)
	}
	for i := range old.Cells {
		if o := &old.Cells[i]; !seen[[2]string{o.Scenario, o.Protocol}] {
			add(o)
		}
	}
	out = append(out, browserDeltas(old, new)...)
	prior := moderateRatios(out, margin)
	holm(out)
	holmValues(out)
	tested := 0
	for _, d := range out {
		if d.Tested != "" {
			tested++
		}
	}
	for i := range out {
		if out[i].Tested == TestedRatio {
			ratioChangeInterval(&out[i], out[i].ol, out[i].nl, prior, margin, tested)
		}
	}
	ds := make([]results.Delta, len(out))
	for i := range out {
		ds[i] = out[i].Delta
		ds[i].Direction = direction(ds[i])
		ds[i].Untestable = untestable(ds[i])
	}
	return ds
}

// untestable says whether d could not be tested for a difference: on
// one side only, or with too few rounds on either.
func untestable(d results.Delta) bool {
	return d.OldN == 0 || d.NewN == 0 || (d.Tested == "" && d.Note == tooFewNote)
}

// moderateRatios tests the cells of ds tested on their ratios by Smyth's
// moderated t (ModeratedP): each cell's variance of its log-ratios,
// pooled over both runs, drawn toward the prior that all the ratio
// cells' variances give. A run of forty cells with three rounds each
// leaves Welch's test two to four degrees of freedom a cell, too few for
// its correction over the cells to call any but a change of several
// times the rounds' spread; the cells' spreads are alike enough to lend
// one another theirs. The test allows for margin's between-run spread of
// each cell's kind of work too (twice its variance: one run each side).
// It returns the prior, which the intervals use too.
func moderateRatios(ds []delta, margin *results.BetweenRuns) Prior {
	var vars, dfs []float64
	for _, d := range ds {
		if d.Tested == TestedRatio {
			_, v, df := PooledDiff(d.ol, d.nl)
			vars, dfs = append(vars, v), append(dfs, df)
		}
	}
	prior := FitPrior(vars, dfs)
	for i := range ds {
		if ds[i].Tested == TestedRatio {
			sd, df := kindSD(margin, ds[i].Scenario, ds[i].Metric)
			ds[i].BetweenRunSD = sd
			ds[i].PRaw = marginP(ds[i].ol, ds[i].nl, prior, 2*sd*sd, df)
			ds[i].P = ds[i].PRaw
		}
	}
	return prior
}

// holmValues corrects the value tests of the cells tested on their ratios
// for their number (Holm), and gives a cell tested on its value its own
// test's figures.
func holmValues(ds []delta) {
	var idx []int
	for i := range ds {
		switch {
		case ds[i].Tested == TestedValue:
			ds[i].ValueP, ds[i].ValueSignificant = ds[i].P, ds[i].Significant
		case ds[i].valueTested:
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return ds[idx[a]].valuePRaw < ds[idx[b]].valuePRaw })
	m, prev := len(idx), 0.0
	for k, i := range idx {
		p := math.Max(math.Min(1, float64(m-k)*ds[i].valuePRaw), prev)
		prev = p
		ds[i].ValueP, ds[i].ValueSignificant = p, p < ds[i].Alpha
	}
}

// delta compares one cell of the two runs (o or n nil where missing).
func newDelta(old, new *results.Results, o, n, c *results.Cell) delta {
	d := delta{Delta: results.Delta{Scenario: c.Scenario, Protocol: c.Protocol, Metric: c.Metric, Alpha: compareAlpha}}
	ov, nv := values(o), values(n)
	d.OldN, d.NewN = len(ov), len(nv)
	switch {
	case len(ov) == 0 && len(nv) == 0:
		d.Note = "not measured in either"
		return d
	case len(ov) == 0:
		d.New, d.Note = n.Median, "only in new"
		return d
	case len(nv) == 0:
		d.Old, d.Note = o.Median, "only in old"
		return d
	}
	d.Old, d.New = o.Median, n.Median
	if d.Old > 0 {
		d.Change = d.New/d.Old - 1
	}
	ob, nb := baselineCell(old, c.Scenario), baselineCell(new, c.Scenario)
	if ob != nil && nb != nil && ob.Protocol != c.Protocol && nb.Protocol == ob.Protocol {
		ol, nl := pairedLogRatios(o, ob), pairedLogRatios(n, nb)
		d.Tested, d.OldN, d.NewN = TestedRatio, len(ol), len(nl)
		d.OldRatio, d.NewRatio = math.Exp(Mean(ol)), math.Exp(Mean(nl))
		if len(ol) > 0 && len(nl) > 0 {
			d.RatioChange = d.NewRatio/d.OldRatio - 1
		}
		testDelta(&d, ol, nl)
		d.ol, d.nl = ol, nl
		if len(ov) >= minCompare && len(nv) >= minCompare {
			d.valueTested, d.valuePRaw = true, WelchP(logs(ov), logs(nv))
		}
		return d
	}
	d.Tested = TestedValue
	d.Baseline = ob != nil && nb != nil && ob.Protocol == c.Protocol && nb.Protocol == c.Protocol
	testDelta(&d, logs(ov), logs(nv))
	return d
}

// test sets d's raw p-value from samples a and b, or says why it cannot.
func testDelta(d *delta, a, b []float64) {
	if len(a) < minCompare || len(b) < minCompare {
		d.Tested = ""
		d.Note = tooFewNote
		return
	}
	d.PRaw = WelchP(a, b)
	d.P = d.PRaw
}

// baselineCell is the baseline cell of scenario in res, nil without one.
func baselineCell(res *results.Results, scenario string) *results.Cell {
	c := res.Cell(scenario, res.Settings.BaselineProtocol())
	if c == nil || c.Skipped != "" {
		return nil
	}
	return c
}

// holm corrects the tested deltas' p-values for their number (Holm's
// step-down method) and sets Significant.
func holm(ds []delta) {
	var idx []int
	for i := range ds {
		if ds[i].Tested != "" {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return ds[idx[a]].PRaw < ds[idx[b]].PRaw })
	m, prev := len(idx), 0.0
	for k, i := range idx {
		p := math.Min(1, float64(m-k)*ds[i].PRaw)
		p = math.Max(p, prev) // corrected p-values never fall
		prev = p
		ds[i].P = p
		ds[i].Significant = p < ds[i].Alpha
	}
}

// values returns the values of c's repetitions that count
// (Counts), nil for a missing or skipped cell.
func values(c *results.Cell) []float64 {
	if c == nil || c.Skipped != "" {
		return nil
	}
	var v []float64
	for _, r := range c.Repetitions {
		if Counts(r) {
			v = append(v, r.Value)
		}
	}
	return v
}

func logs(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Log(x)
	}
	return out
}
