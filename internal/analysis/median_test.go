package analysis

import (
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5}, // the two middles' mean, not the upper or lower one
		{[]float64{0, 0, 5, 5}, 2.5},
	} {
		before := slices.Clone(tc.in)
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %g, want %g", tc.in, got, tc.want)
		}
		if !slices.Equal(tc.in, before) {
			t.Errorf("Median changed its input to %v", tc.in)
		}
	}
	d := []time.Duration{4 * time.Millisecond, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}
	if got, want := Median(d), 2500*time.Microsecond; got != want {
		t.Errorf("Median(%v) = %v, want %v", d, got, want)
	}
}
