package main

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// variation is one setting changed from a row's own run, with the
// figure it gave: the unit of taking a disagreement apart.
type variation struct {
	setting string
	iv      results.Interval
}

// takeApart ends a disagreement: each setting varied one at a time with
// its interval and how it moved against the row's own interval base,
// then "cause: X" when a setting's interval moved apart from base, holds
// the published figure and spans no more than R1's maxSpan (the figure
// moves to the published one when X is set as there), or "open: varied
// A, B; none moved it". Published and intervals are ratios with above 1
// faster.
func takeApart(pub float64, base results.Interval, vs []variation) string {
	if len(vs) == 0 {
		return "open: no setting was varied for this row in this run"
	}
	var parts, names, causes []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("%s: %s, %s", v.setting, ivText(v.iv), moved(pub, base, v.iv)))
		names = append(names, v.setting)
		if isCause(pub, base, v.iv) {
			causes = append(causes, v.setting)
		}
	}
	s := fmt.Sprintf("varied one at a time from %s: %s; ", ivText(base), strings.Join(parts, "; "))
	if len(causes) > 0 {
		return s + fmt.Sprintf("cause: %s (the interval holds the published %.2fx when set so)", strings.Join(causes, " and "), pub)
	}
	return s + fmt.Sprintf("open: varied %s; none moved it to the published %.2fx", strings.Join(names, ", "), pub)
}

// isCause: v holds pub, decides (spans at most maxSpan) and lies apart
// from base, which (the row disagreeing) does not hold pub.
func isCause(pub float64, base, v results.Interval) bool {
	return v.Pairs >= 2 && v.Low > 0 && pub >= v.Low && pub <= v.High && v.High/v.Low <= maxSpan && (v.High < base.Low || v.Low > base.High)
}

// moved says how a variation's interval stands against the base's: apart
// from it toward or away from the published figure, or overlapping it.
func moved(pub float64, base, v results.Interval) string {
	switch {
	case v.Pairs < 2 || base.Pairs < 2:
		return "no interval"
	case v.Low <= 0 || v.High/v.Low > maxSpan:
		return "undecided (wider than a factor of 3)"
	case v.High < base.Low:
		return pick(pub < base.Low, "moved toward the published figure", "moved away from the published figure")
	case v.Low > base.High:
		return pick(pub > base.High, "moved toward the published figure", "moved away from the published figure")
	}
	return "not moved (the intervals overlap)"
}
