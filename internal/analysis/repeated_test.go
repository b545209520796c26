package analysis

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestGeoHalfWidth: the interval's reach in the ratio's own terms.
func TestGeoHalfWidth(t *testing.T) {
	for _, tc := range []struct {
		iv   results.Interval
		want float64
	}{
		{results.Interval{Ratio: 1, Low: 0.5, High: 2, Pairs: 4}, 1},
		{results.Interval{Ratio: 0.54, Low: 0.32, High: 0.91, Pairs: 4}, math.Sqrt(0.91/0.32) - 1},
		{results.Interval{Ratio: 1, Pairs: 1}, math.Inf(1)},
	} {
		if got := GeoHalfWidth(tc.iv); math.Abs(got-tc.want) > 1e-12 && got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.iv, got, tc.want)
		}
	}
}

// TestDecidedWordStands: rounds that drift after a look decided "slower"
// leave the last look's own interval over 1 (the looks' intersection
// leaves out the mean); the interval printed is that look's, and the
// word the last look that decided gave.
func TestDecidedWordStands(t *testing.T) {
	logs := []float64{-0.5, -0.52, -0.48, -0.5, 0.5, 0.6, 0.4, 0.5}
	if w := judged(sequentialInterval(logs[:4], 4, 16)).Verdict; w != results.VerdictSlower {
		t.Fatalf("the first look's word %q, want slower", w)
	}
	last := judged(sequentialInterval(logs, 4, 16))
	if last.Verdict != results.VerdictUndetermined {
		t.Fatalf("the last look alone %+v: the test wants it undetermined", last)
	}
	iv := sequentialJudged(logs, 4, 16)
	if iv.Verdict != results.VerdictSlower || iv.Low != last.Low || iv.High != last.High || iv.Pairs != 8 {
		t.Fatalf("%+v: want the last look's interval %v-%v with the word slower", iv, last.Low, last.High)
	}
	c := &results.Cell{FirstStage: 4, LastLook: 16}
	base := &results.Cell{}
	for i, l := range logs {
		c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: 100 * math.Exp(l)})
		base.Repetitions = append(base.Repetitions, results.Repetition{Round: i + 1, Value: 100})
	}
	if got := RatioInterval(c, base); got.Verdict != results.VerdictSlower {
		t.Fatalf("RatioInterval %+v: want the decided word, slower", got)
	}
}
