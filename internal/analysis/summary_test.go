package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

func TestBottleneck(t *testing.T) {
	for _, tt := range []struct {
		client, server float64
		known          bool
		want           string
	}{
		{1.9, 0.1, true, results.BottleneckClient}, // the client had both cores
		{1.1, 0.7, true, results.BottleneckClient}, // machine full, client used more
		{0.7, 1.1, true, results.BottleneckServer}, // machine full, server used more
		{0.6, 0.6, true, results.BottleneckNone},   // headroom: latency or flow control
		{1.0, 0, false, results.BottleneckNone},    // server unknown, client had headroom
		{1.85, 0, false, results.BottleneckClient}, // server unknown, client saturated
	} {
		if got := BottleneckOf(tt.client, tt.server, tt.known, 2, 2); got != tt.want {
			t.Errorf("client %.2f server %.2f known %v: %q, want %q", tt.client, tt.server, tt.known, got, tt.want)
		}
	}
}

func TestSummaryAndCompare(t *testing.T) {
	mk := func(values ...float64) *results.Results {
		c := results.Cell{Scenario: "download", Protocol: "h2c", Metric: results.MetricBytesPerSecond}
		h1 := results.Cell{Scenario: "download", Protocol: "h1", Metric: results.MetricBytesPerSecond}
		for _, v := range values {
			c.Repetitions = append(c.Repetitions, results.Repetition{Value: v})
			h1.Repetitions = append(h1.Repetitions, results.Repetition{Value: 4})
		}
		c.Repetitions = append(c.Repetitions, results.Repetition{Value: 1000, Interrupted: true})
		r := &results.Results{SchemaVersion: results.SchemaVersion, Cells: []results.Cell{h1, c}}
		SummariseCells(r)
		return r
	}
	old := mk(1, 1.1, 1.05, 0.95, 1.02)
	c := old.Cells[1]
	if c.Median != 1.02 || c.Min != 0.95 || c.Max != 1.1 || !c.Noisy || c.RatioToBaseline != 1.02/4 {
		t.Errorf("summary %+v: want median 1.02, min 0.95, max 1.1, noisy, ratio %.4f (the interrupted 1000 left out)", c, 1.02/4)
	}
	d := Compare(old, mk(2, 2.1, 2.05, 1.95, 2.02))
	if len(d) != 2 || !d[1].Significant || d[1].Change < 0.9 || d[1].Change > 1.1 || d[1].Note != "" {
		t.Errorf("5 vs 5 doubled: %+v, want a significant +100%%", d)
	}
	// Three rounds a side can show a doubled ratio (Welch's t-test on the
	// paired ratios' logarithms; Mann-Whitney's smallest p-value with 3
	// and 3 is 0.1), and one a side cannot be tested.
	d = Compare(mk(1, 1.1, 1.05), mk(2, 2.1, 2.05))
	if !d[1].Significant || d[1].Tested != TestedRatio {
		t.Errorf("3 vs 3 doubled: %+v, want significant", d[1])
	}
	d = Compare(mk(1), mk(2))
	if d[1].Significant || !strings.Contains(d[1].Note, "need >= 2") {
		t.Errorf("1 vs 1: %+v, want not tested, with a note that more repetitions are needed", d[1])
	}
}
