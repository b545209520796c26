package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// AttributionShare is a function's or an area's change in CPU per unit
// from the baseline's: it grew (ChangeSecondsPerUnit above zero) or
// shrank. The figures come from internal/attribution's comparison of CPU
// profiles; the types live here because they are part of results.json.
type AttributionShare struct {
	// Name is the function (package-qualified, module paths shortened)
	// or the area.
	Name string `json:"name"`
	// Area is a function's area (e.g. "crypto/tls", "quic-go"); "" for an
	// area itself.
	Area string `json:"area,omitempty"`
	// SecondsPerUnit and BaseSecondsPerUnit are its own time (pprof's
	// flat, or an area's sum of it) in the cell's profile and in the
	// baseline's, CPU seconds per unit, as measured.
	SecondsPerUnit     float64 `json:"seconds_per_unit"`
	BaseSecondsPerUnit float64 `json:"base_seconds_per_unit"`
	// ChangeSecondsPerUnit is SecondsPerUnit less BaseSecondsPerUnit, CPU
	// seconds per unit: above zero it grew, below zero it shrank.
	ChangeSecondsPerUnit float64 `json:"change_seconds_per_unit"`
	// Share is the change's part, 0 to 1, of its side's growth (for what
	// grew: AttributionSide.GrowthSecondsPerUnit for areas,
	// AttributionSide.FunctionGrowthSecondsPerUnit for functions) or of
	// its side's shrinkage (for what shrank): never of the net extra.
	Share float64 `json:"share"`
}

// AttributionSide is the attribution of one process's extra CPU: the
// client's or the server's. Its net extra is what grew less what shrank:
// ExtraSecondsPerUnit = GrowthSecondsPerUnit - ShrinkageSecondsPerUnit
// (and likewise over functions).
type AttributionSide struct {
	// Side is "client" or "server".
	Side string `json:"side"`
	// Error says why the side could not be attributed (a profile that
	// did not parse); "" when it was.
	Error string `json:"error,omitempty"`
	// Samples and BaseSamples are the CPU samples in the cell's profile
	// and in the baseline's (100 a second of CPU by default), excluded
	// ones left out: with fewer than AttributionRoughSamples, shares are
	// rough.
	Samples     int `json:"samples"`
	BaseSamples int `json:"base_samples"`
	// SecondsPerUnit and BaseSecondsPerUnit are the CPU seconds per unit
	// the profiles hold for the cell and for its baseline, excluded
	// samples left out.
	SecondsPerUnit     float64 `json:"seconds_per_unit"`
	BaseSecondsPerUnit float64 `json:"base_seconds_per_unit"`
	// ExtraSecondsPerUnit is SecondsPerUnit less BaseSecondsPerUnit, the
	// net extra; at or below zero the cell spent no more than its
	// baseline.
	ExtraSecondsPerUnit float64 `json:"extra_seconds_per_unit"`
	// GrowthSecondsPerUnit is the sum of the growth of every area that
	// grew, ShrinkageSecondsPerUnit the sum of the fall of every area that
	// shrank (a positive figure), CPU seconds per unit: their difference
	// is ExtraSecondsPerUnit.
	GrowthSecondsPerUnit    float64 `json:"growth_seconds_per_unit"`
	ShrinkageSecondsPerUnit float64 `json:"shrinkage_seconds_per_unit"`
	// FunctionGrowthSecondsPerUnit and FunctionShrinkageSecondsPerUnit
	// are the same sums over functions; they are at least the areas'
	// (within an area one function can grow while another shrinks), and
	// their difference is ExtraSecondsPerUnit too.
	FunctionGrowthSecondsPerUnit    float64 `json:"function_growth_seconds_per_unit"`
	FunctionShrinkageSecondsPerUnit float64 `json:"function_shrinkage_seconds_per_unit"`
	// Areas are the areas that grew, largest growth first; ShrunkAreas
	// those that shrank, largest fall first. Each is at least 3% of its
	// side's growth (or shrinkage).
	Areas       []AttributionShare `json:"areas,omitempty"`
	ShrunkAreas []AttributionShare `json:"shrunk_areas,omitempty"`
	// Functions are the few functions whose own time grew most, largest
	// first, and ShrunkFunctions the few whose own time fell most: at
	// most six each.
	Functions       []AttributionShare `json:"functions,omitempty"`
	ShrunkFunctions []AttributionShare `json:"shrunk_functions,omitempty"`
	// ExcludedSecondsPerUnit and BaseExcludedSecondsPerUnit are the CPU
	// seconds per unit left out of the cell's and the baseline's profile
	// (samples labelled netem.ProfileLabel): the link emulator's own work.
	ExcludedSecondsPerUnit     float64 `json:"excluded_seconds_per_unit,omitempty"`
	BaseExcludedSecondsPerUnit float64 `json:"base_excluded_seconds_per_unit,omitempty"`
}

// AttributionRoughSamples is the fewest samples in a profile whose shares
// Summary states without calling them rough.
const AttributionRoughSamples = 100

// Summary says in one line where s's CPU per unit (unit e.g. "GB",
// "1000 requests") changed from its baseline's, in figures that add up as
// printed: "server +1.90 s/GB (3.10 vs 1.20) = 2.30 grew - 0.40 shrank;
// grew: HTTP/2 (net/http) +1.00 (43% of the growth), syscalls and the
// netpoller +0.80 (35%), 0.50 in smaller changes; shrank: net/http -0.40
// (100% of the shrinkage); functions: net/http.(*http2Framer).
// WriteDataPadded +0.30, ..., net/http.(*conn).serve -0.20". Named areas and
// "smaller changes" sum to the growth and to the shrinkage; growth less
// shrinkage is the net extra; all to the same number of decimals.
func (s *AttributionSide) Summary(unit string) string {
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
	for _, f := range append(append([]AttributionShare(nil), s.Functions...), s.ShrunkFunctions...) {
		fmt.Fprintf(&b, "%s%s %s", sep, f.Name, n.signed(f.ChangeSecondsPerUnit))
		sep = ", "
	}
	return b.String()
}

// hand writes one hand of the change, what grew or what shrank: each
// named area's change and its share of whole, then whatever of whole the
// named ones leave, so that the figures printed sum to whole.
func (n decimals) hand(b *strings.Builder, head string, l []AttributionShare, whole float64, of string) {
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
func (s *AttributionSide) Brief(unit string, n int) string {
	if s == nil || s.Error != "" {
		return s.Summary(unit)
	}
	c := *s
	c.Areas = c.Areas[:min(n, len(c.Areas))]
	c.ShrunkAreas = c.ShrunkAreas[:min(n, len(c.ShrunkAreas))]
	c.Functions = c.Functions[:min(n, len(c.Functions))]
	c.ShrunkFunctions = c.ShrunkFunctions[:min(n, len(c.ShrunkFunctions))]
	return c.Summary(unit)
}

// AttributedCell is a cell's attribution with what names and scales it:
// one element of what httpvs explain --json prints.
type AttributedCell struct {
	Scenario string `json:"scenario"`
	Protocol string `json:"protocol"`
	// RatioToH1 is the cell's ratio to its baseline (Cell.RatioToH1).
	RatioToH1 float64 `json:"ratio_to_h1"`
	// CPUUnit is what the attribution's CPU figures are per (Cell.CPUUnit).
	CPUUnit string `json:"cpu_unit"`
	// Attribution is the cell's Attribution: where its extra CPU went.
	Attribution []*AttributionSide `json:"attribution"`
}

// AttributedCells returns the cells of res that carry an Attribution and
// that the verdict calls slower than their baseline, in res's order: the
// cells the text of httpvs explain lists. It returns an empty slice, not
// nil, when there are none.
func AttributedCells(res *Results) []AttributedCell {
	out := []AttributedCell{}
	for _, c := range res.Cells {
		if len(c.Attribution) > 0 && c.VsH1 != nil && c.VsH1.Verdict == VerdictSlower {
			out = append(out, AttributedCell{c.Scenario, c.Protocol, c.RatioToH1, c.CPUUnit, c.Attribution})
		}
	}
	return out
}
