package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// AttributionRoughSamples is the fewest samples in a profile whose shares
// Summary states without calling them rough.
const AttributionRoughSamples = vocab.AttributionRoughSamples

// Summary says in one line where s's CPU per unit (unit e.g. "GB",
// "1000 requests") changed from its baseline's, in figures that add up as
// printed: "server +1.90 s/GB (3.10 vs 1.20) = 2.30 grew - 0.40 shrank;
// grew: HTTP/2 (net/http) +1.00 (43% of the growth), syscalls and the
// netpoller +0.80 (35%), 0.50 in smaller changes; shrank: net/http -0.40
// (100% of the shrinkage); functions: net/http.(*http2Framer).
// WriteDataPadded +0.30, ..., net/http.(*conn).serve -0.20". Named areas and
// "smaller changes" sum to the growth and to the shrinkage; growth less
// shrinkage is the net extra; all to the same number of decimals.
func AttributionSummary(s *results.AttributionSide, unit string) string {
	if s == nil {
		return ""
	}
	if s.Error != "" {
		return s.Side + ": not attributed: " + s.Error
	}
	per := "s/" + unit
	if strings.Contains(unit, " ") {
		per = "s per " + unit
	}
	var b strings.Builder
	n := decimalsFor(max(s.SecondsPerUnit, s.BaseSecondsPerUnit, s.GrowthSecondsPerUnit, s.ShrinkageSecondsPerUnit))
	if s.ExtraSecondsPerUnit <= 0 {
		fmt.Fprintf(&b, "%s %s %s, no more than the baseline's %s", s.Side, n.f(s.SecondsPerUnit), per, n.f(s.BaseSecondsPerUnit))
	} else {
		fmt.Fprintf(&b, "%s %s %s (%s vs %s)", s.Side, n.signed(s.ExtraSecondsPerUnit), per, n.f(s.SecondsPerUnit), n.f(s.BaseSecondsPerUnit))
	}
	if n := min(s.Samples, s.BaseSamples); n < AttributionRoughSamples {
		fmt.Fprintf(&b, " [rough: %d samples]", n)
	}
	if s.ExcludedSecondsPerUnit > 0 || s.BaseExcludedSecondsPerUnit > 0 {
		fmt.Fprintf(&b, " (the link emulator's %s vs %s %s left out)", n.f(s.ExcludedSecondsPerUnit), n.f(s.BaseExcludedSecondsPerUnit), per)
	}
	if s.GrowthSecondsPerUnit == 0 && s.ShrinkageSecondsPerUnit == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, " = %s grew - %s shrank", n.f(s.GrowthSecondsPerUnit), n.f(s.ShrinkageSecondsPerUnit))
	n.hand(&b, "; grew: ", s.Areas, s.GrowthSecondsPerUnit, "growth")
	n.hand(&b, "; shrank: ", s.ShrunkAreas, s.ShrinkageSecondsPerUnit, "shrinkage")
	sep := "; functions: "
	for _, f := range append(append([]results.AttributionShare(nil), s.Functions...), s.ShrunkFunctions...) {
		fmt.Fprintf(&b, "%s%s %s", sep, f.Name, n.signed(f.ChangeSecondsPerUnit))
		sep = ", "
	}
	return b.String()
}

// hand writes one hand of the change, what grew or what shrank: each
// named area's change and its share of whole, then whatever of whole the
// named ones leave, so that the figures printed sum to whole.
func (n decimals) hand(b *strings.Builder, head string, l []results.AttributionShare, whole float64, of string) {
	if whole <= 0 {
		return
	}
	sep := head
	var named float64
	for i, a := range l {
		pct := fmt.Sprintf("%.0f%%", 100*a.Share)
		if i == 0 {
			pct += " of the " + of
		}
		fmt.Fprintf(b, "%s%s %s (%s)", sep, a.Name, n.signed(a.ChangeSecondsPerUnit), pct)
		named += a.Share * whole
		sep = ", "
	}
	if rest := whole - named; rest > 1e-3*whole {
		fmt.Fprintf(b, "%s%s in smaller changes", sep, n.f(rest))
	}
}

// decimals prints the figures of one line with as many decimals as give
// its largest three significant figures: one absolute precision for all,
// so that sums printed add up to within the last digit.
type decimals int

func decimalsFor(largest float64) decimals {
	if largest <= 0 {
		return 3
	}
	return decimals(min(max(2-int(math.Floor(math.Log10(largest))), 0), 6))
}

func (n decimals) f(v float64) string {
	s := strconv.FormatFloat(v, 'f', int(n), 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-") // no "-0.00"
	}
	return s
}

// signed is v with its sign, which rounding never drops: a fall too
// small for the decimals reads "-0.00".
func (n decimals) signed(v float64) string {
	switch {
	case v < 0:
		return "-" + n.f(-v)
	case v > 0:
		return "+" + n.f(v)
	}
	return n.f(0)
}

// Brief is Summary cut to the largest areas and functions, at most n of
// each hand; what it leaves out is counted in the smaller changes, so the
// figures still add up.
func AttributionBrief(s *results.AttributionSide, unit string, n int) string {
	if s == nil || s.Error != "" {
		return AttributionSummary(s, unit)
	}
	c := *s
	c.Areas = c.Areas[:min(n, len(c.Areas))]
	c.ShrunkAreas = c.ShrunkAreas[:min(n, len(c.ShrunkAreas))]
	c.Functions = c.Functions[:min(n, len(c.Functions))]
	c.ShrunkFunctions = c.ShrunkFunctions[:min(n, len(c.ShrunkFunctions))]
	return AttributionSummary(&c, unit)
}

// AttributedCell is a cell's attribution with what names and scales it:
// one element of what httpvs explain --json prints.
type AttributedCell struct {
	Scenario string `json:"scenario"`
	Protocol string `json:"protocol"`
	// RatioToBaseline is the cell's ratio to its baseline (Cell.RatioToBaseline).
	RatioToBaseline float64 `json:"ratio_to_h1"`
	// CPUUnit is what the attribution's CPU figures are per (Cell.CPUUnit).
	CPUUnit string `json:"cpu_unit"`
	// Attribution is the cell's Attribution: where its extra CPU went.
	Attribution []*results.AttributionSide `json:"attribution"`
}

// AttributedCells returns the cells of res that carry an Attribution and
// that the verdict calls slower than their baseline, in res's order: the
// cells the text of httpvs explain lists. It returns an empty slice, not
// nil, when there are none.
func AttributedCells(res *results.Results) []AttributedCell {
	out := []AttributedCell{}
	for _, c := range res.Cells {
		if len(c.Attribution) > 0 && c.VsBaseline != nil && c.VsBaseline.Verdict == results.VerdictSlower {
			out = append(out, AttributedCell{c.Scenario, c.Protocol, c.RatioToBaseline, c.CPUUnit, c.Attribution})
		}
	}
	return out
}
