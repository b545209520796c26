package analysis

import (
	"strings"
	"testing"
)

// TestGate: h2c's ratio halving fails a gate on slower and on changed,
// not on faster; a machine 30% faster throughout (h1 and h2c alike)
// fails none, and is the baseline's move instead.
func TestGate(t *testing.T) {
	jitter := []float64{1.00, 1.02, 0.98, 1.01, 0.99}
	old := runOf(0.25, []float64{1, 1.1, 0.9, 1.05, 0.95}, jitter)
	halved := runOf(0.125, []float64{1, 0.95, 1.05, 1.0, 0.98}, []float64{0.99, 1.01, 1.0, 0.98, 1.02})
	ds := Compare(old, halved)
	for _, c := range []struct {
		word string
		fail bool
	}{{FailSlower, true}, {FailFaster, false}, {FailChanged, true}} {
		t.Run(c.word, func(t *testing.T) {
			got := Gate(ds, c.word)
			if c.fail != (len(got) == 1) || (c.fail && got[0].Protocol != "h2c") {
				t.Errorf("gate %s: %+v, want failing %v (h2c)", c.word, got, c.fail)
			}
			line := GateLine(ds, c.word)
			if c.fail != strings.Contains(line, "FAILED") || (c.fail && !strings.Contains(line, "download h2c 0.25x -> 0.12x")) {
				t.Errorf("gate %s line %q", c.word, line)
			}
		})
	}
	if h2 := ds[1]; h2.Direction != FailSlower || ds[0].Direction != "" {
		t.Errorf("directions %q %q, want slower and none for the baseline", h2.Direction, ds[0].Direction)
	}
	faster := runOf(0.25, []float64{1.3, 1.32, 1.28, 1.31, 1.29}, jitter)
	ds = Compare(old, faster)
	if got := Gate(ds, FailChanged); len(got) != 0 {
		t.Errorf("the baseline moved alone: gate fails %+v", got)
	}
	if moved := BaselineMoves(ds); len(moved) != 1 || moved[0].Protocol != "h1" {
		t.Errorf("baseline moves %+v, want h1", moved)
	}
	if ds[1].Direction != "~" {
		t.Errorf("h2c's flat ratio: direction %q, want ~", ds[1].Direction)
	}
}

// TestRatioChangeInterval: the interval holds the change it bounds, is
// clear of 0 for a halving the test calls, holds 0 for a flat ratio, and
// is as wide as the level for every tested cell at once asks.
func TestRatioChangeInterval(t *testing.T) {
	jitter := []float64{1.00, 1.02, 0.98, 1.01, 0.99}
	old := runOf(0.25, []float64{1, 1.1, 0.9, 1.05, 0.95}, jitter)
	halved := runOf(0.125, []float64{1, 0.95, 1.05, 1.0, 0.98}, []float64{0.99, 1.01, 1.0, 0.98, 1.02})
	h2 := Compare(old, halved)[1]
	if !(h2.RatioChangeLow < h2.RatioChange && h2.RatioChange < h2.RatioChangeHigh && h2.RatioChangeHigh < 0) {
		t.Errorf("halved: change %+.3f in [%+.3f, %+.3f], want inside and below 0", h2.RatioChange, h2.RatioChangeLow, h2.RatioChangeHigh)
	}
	if want := 1 - compareAlpha/2; h2.IntervalLevel != want {
		t.Errorf("level %g, want %g (two cells tested)", h2.IntervalLevel, want)
	}
	flat := Compare(old, runOf(0.25, []float64{1, 0.95, 1.05, 1.0, 0.98}, []float64{0.99, 1.01, 1.0, 0.98, 1.02}))[1]
	if !(flat.RatioChangeLow < 0 && flat.RatioChangeHigh > 0) {
		t.Errorf("flat: [%+.3f, %+.3f], want it to hold 0", flat.RatioChangeLow, flat.RatioChangeHigh)
	}
}

func TestValidFailOn(t *testing.T) {
	for _, w := range FailOnWords {
		if !ValidFailOn(w) {
			t.Errorf("%q refused", w)
		}
	}
	for _, w := range []string{"", "slow", "Slower", "regression"} {
		if ValidFailOn(w) {
			t.Errorf("%q taken", w)
		}
	}
}
