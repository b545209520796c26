package analysis

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// TestCompareBrowserCells: compare pairs the real browser's cells by
// transport, as it does the matrix's: the mean load event of the loads
// that completed, a Welch test on their values, a transport only one run
// loaded said so, a skipped one not tested.
func TestCompareBrowserCells(t *testing.T) {
	cell := func(proto string, secs ...float64) results.BrowserCell {
		c := results.BrowserCell{Protocol: proto}
		for i, s := range secs {
			c.Loads = append(c.Loads, results.BrowserLoad{Round: i + 1, LoadEventSeconds: s})
		}
		return c
	}
	failed := cell("h2", 0.5)
	failed.Loads = append(failed.Loads, results.BrowserLoad{Round: 2, Error: "crashed"})
	old := &results.Results{Browser: []results.BrowserCell{cell("h1-tls", 1.0, 1.02, 0.98), cell("h2", 0.6, 0.62, 0.61), {Protocol: "h2c", Skipped: "browsers do not speak h2c"}}}
	new := &results.Results{Browser: []results.BrowserCell{cell("h2", 0.30, 0.31, 0.29), cell("h3", 0.4, 0.41), {Protocol: "h2c", Skipped: "browsers do not speak h2c"}}}
	ds := Compare(old, new)
	if len(ds) != 4 {
		t.Fatalf("%d deltas: %+v", len(ds), ds)
	}
	byProto := map[string]results.Delta{}
	for _, d := range ds {
		if d.Scenario != vocab.BrowserScenario || d.Metric != results.MetricSeconds {
			t.Errorf("%+v", d)
		}
		byProto[d.Protocol] = d
	}
	if h2 := byProto["h2"]; h2.Tested != TestedValue || math.Abs(h2.Old-0.61) > 1e-9 || math.Abs(h2.New-0.30) > 1e-9 || h2.Change > -0.5 || !h2.Significant {
		t.Errorf("h2: %+v", h2)
	}
	if byProto["h3"].Note != "only in new" || byProto["h1-tls"].Note != "only in old" || byProto["h2c"].Note != "not loaded in either" {
		t.Errorf("h3 %q, h1-tls %q, h2c %q", byProto["h3"].Note, byProto["h1-tls"].Note, byProto["h2c"].Note)
	}
	if got := loadEvents(&failed); len(got) != 1 {
		t.Errorf("load events of a cell with a failed load: %v", got)
	}
}
