package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestCapacityVerdicts: repeated searches print each one's Met, the
// ratio's interval and the verdict's own words; a search cut by its
// budget where neither bracket closed prints no ratio and no "≈"; every
// line fits textWidth.
func TestCapacityVerdicts(t *testing.T) {
	obj, err := analysis.ParseObjective("p99<50ms")
	if err != nil {
		t.Fatal(err)
	}
	b := func(met, missed float64) results.CapacityBracket {
		return results.CapacityBracket{Met: met, Missed: missed}
	}
	h1 := results.CapacityResult{Protocol: "h1", Met: 1000, Missed: 1050, Searches: []results.CapacityBracket{b(1000, 1050), b(1000, 1050), b(1000, 1050)}}
	h2c := results.CapacityResult{Protocol: "h2c", Met: 2000, Missed: 2100, Searches: []results.CapacityBracket{b(2000, 2100), b(2000, 2100), b(2050, 2100)}}
	h3 := results.CapacityResult{Protocol: "h3", Met: 1000, Missed: 1050, Searches: []results.CapacityBracket{b(700, 735), b(1000, 1050), b(1400, 1470)}}
	c := &results.Capacity{Objective: obj, Request: "GET /small", Transports: []results.CapacityResult{h1, h2c, h3}}
	setRatiosForTest(c)
	var out bytes.Buffer
	if err := Capacity(&out, c, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"met in each search", "2000 2000 2050", "carries more", "undetermined", "over 3 searches"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	checkWidth(t, out.String())

	cut := results.CapacityBracket{Met: 800, Cut: true}
	c = &results.Capacity{Objective: obj, Request: "GET /small", Stopped: "the search's budget of 2m0s ran out: the brackets are as far as it got",
		Transports: []results.CapacityResult{
			{Protocol: "h1", Met: 800, Searches: []results.CapacityBracket{cut}},
			{Protocol: "h2", Met: 800, Searches: []results.CapacityBracket{cut}},
		}}
	setRatiosForTest(c)
	out.Reset()
	if err := Capacity(&out, c, nil); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Contains(s, "≈") || strings.Contains(s, "[0.00, open]") || !strings.Contains(s, "no bracket closed") {
		t.Errorf("a cut search with no bracket closed:\n%s", s)
	}
	checkWidth(t, out.String())
}

// setRatiosForTest sets the ratios to the first transport as
// experiment.Capacity does.
func setRatiosForTest(c *results.Capacity) {
	c.Baseline = c.Transports[0].Protocol
	for i := 1; i < len(c.Transports); i++ {
		c.Transports[i].VsBaseline = analysis.RatioOf(c.Transports[i], c.Transports[0])
	}
}

// checkWidth fails for a line of s over textWidth columns.
func checkWidth(t *testing.T, s string) {
	t.Helper()
	for i, line := range strings.Split(s, "\n") {
		if n := len([]rune(line)); n > textWidth {
			t.Errorf("line %d is %d columns, over %d: %s", i+1, n, textWidth, line)
		}
	}
}

// TestCapacityBoundLine: across a link the rates are held against what
// the requests in flight carry over its round trip, naming the
// transports whose miss is past it; on loopback there is no such line.
func TestCapacityBoundLine(t *testing.T) {
	obj, err := analysis.ParseObjective("p99<200ms")
	if err != nil {
		t.Fatal(err)
	}
	c := &results.Capacity{Objective: obj, Request: "GET /small", InFlight: 64, InFlightBound: 64 / 0.0703,
		Net: &results.Net{Calibration: results.NetCalibration{TCPConnectSeconds: 0.0703}},
		Transports: []results.CapacityResult{
			{Protocol: "h1", Met: 911, Missed: 951, PastBound: true},
			{Protocol: "h2c", Met: 703, Missed: 734},
		}}
	var out bytes.Buffer
	if err := Capacity(&out, c, nil); err != nil {
		t.Fatal(err)
	}
	s := strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{"64 requests in flight at most carry at most 910 req/s over the link's 70.3 ms TCP round trip (Little's law); h1 missed past it"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	checkWidth(t, out.String())
	c.Transports[0].PastBound = false
	out.Reset()
	if err := Capacity(&out, c, nil); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(s, "(Little's law): every rate missed is below it") {
		t.Errorf("none past the bound:\n%s", out.String())
	}
	c.Net, c.InFlightBound = nil, 0
	out.Reset()
	if err := Capacity(&out, c, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "in flight") {
		t.Errorf("a bound on loopback:\n%s", out.String())
	}
}
