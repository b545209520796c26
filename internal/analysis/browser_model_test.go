package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

func TestSpread(t *testing.T) {
	s := newSpread([]float64{1, 4, 0, -1})
	if s.N != 2 || math.Abs(s.Mean-2) > 1e-9 || s.Median != 2.5 || !(s.Low < 2 && s.High > 2) {
		t.Errorf("spread of 1 and 4: %+v", s)
	}
	if one := newSpread([]float64{3}); one.N != 1 || math.Abs(one.Mean-3) > 1e-9 || one.Low != 0 {
		t.Errorf("spread of 3: %+v", one)
	}
	a := results.Spread{Mean: 1, Low: 0.9, High: 1.1, N: 3}
	for _, c := range []struct {
		b    results.Spread
		want bool
	}{
		{results.Spread{Mean: 1.2, Low: 1.05, High: 1.3, N: 3}, true},
		{results.Spread{Mean: 1.2, Low: 1.15, High: 1.3, N: 3}, false},
		{results.Spread{Mean: 1.1, N: 1}, true},
		{results.Spread{Mean: 0.5, N: 1}, false},
	} {
		if got := overlaps(a, c.b); got != c.want {
			t.Errorf("%+v overlaps %+v: %v, want %v", a, c.b, got, c.want)
		}
	}
}

// TestCompareModel: the browser agrees with the model when their
// intervals overlap, and is slower or faster when they do not.
func TestCompareModel(t *testing.T) {
	model := func(vs ...float64) results.Cell {
		c := results.Cell{Scenario: "page-load", Protocol: "h2"}
		for i, v := range vs {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v})
		}
		return c
	}
	browserCell := func(vs ...float64) results.BrowserCell {
		c := results.BrowserCell{Protocol: "h2"}
		for i, v := range vs {
			c.Loads = append(c.Loads, results.BrowserLoad{Round: i + 1, LoadEventSeconds: v, LastByteSeconds: v})
		}
		SummariseBrowser(&c)
		return c
	}
	for _, c := range []struct {
		model   results.Cell
		browser results.BrowserCell
		same    bool
		want    string
	}{
		{model(0.50, 0.52, 0.51), browserCell(0.51, 0.53, 0.50), true, vocab.ModelAgrees},
		{model(0.50, 0.52, 0.51), browserCell(0.70, 0.72, 0.71), true, vocab.ModelSlower},
		{model(0.50, 0.52, 0.51), browserCell(0.30, 0.31, 0.30), true, vocab.ModelFaster},
		{model(0.50), browserCell(0.70, 0.72), true, vocab.ModelNone},
		// The intervals overlap, but the ratio's reaches 25% either way:
		// not ≈ (the overlap rule said it agreed).
		{model(0.40, 0.60, 0.50), browserCell(0.50, 0.80, 0.65), true, vocab.ModelUndetermined},
		// The intervals overlap, and the ratio's lies above 1 beyond the
		// negligible 2%: slower (the overlap rule said it agreed).
		{model(0.49, 0.51, 0.49, 0.51, 0.49, 0.51, 0.49, 0.51), browserCell(0.505, 0.525, 0.505, 0.525, 0.505, 0.525, 0.505, 0.525), true, vocab.ModelSlower},
		{model(0.50, 0.52), browserCell(0.70, 0.72), false, ""},
	} {
		res := &results.Results{Cells: []results.Cell{c.model}, Browser: []results.BrowserCell{c.browser}}
		CompareModel(res, c.same)
		got := ""
		if m := res.Browser[0].Model; m != nil {
			got = m.Verdict
		}
		if got != c.want {
			t.Errorf("model %v, browser %+v: verdict %q, want %q", values(&c.model), c.browser.LoadEvent, got, c.want)
		}
	}
}

func TestBrowserLoadDisagreements(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	agree := results.BrowserLoad{Objects: 50, ByTransport: map[string]int{"h2": 50}, Connections: 1, ServerRequests: n(50), ServerConnections: n(1), ServerOther: n(0)}
	if d := disagreements(&agree, "h2", 50); len(d) != 0 {
		t.Errorf("agreeing load: %v", d)
	}
	bad := results.BrowserLoad{Objects: 50, Failed: 1, ByTransport: map[string]int{"h2": 47, "h3": 2}, Connections: 2, ServerRequests: n(48), ServerConnections: n(1), ServerOther: n(2)}
	d := strings.Join(disagreements(&bad, "h2", 50), "; ")
	for _, want := range []string{"1 failed", "2 over h3", "48 requests over h2, the browser 47", "1 connections, the browser 2", "2 requests over other transports"} {
		if !strings.Contains(d, want) {
			t.Errorf("disagreements %q: no %q", d, want)
		}
	}
}

// TestCompareModelSameMetric: the model is held against the browser's
// last byte, the figure both measure; the load event, later by what the
// browser does past the last byte, is reported beside it, not compared.
func TestCompareModelSameMetric(t *testing.T) {
	mc := results.Cell{Scenario: "page-load", Protocol: "h3"}
	for i, v := range []float64{0.50, 0.52, 0.51} {
		mc.Repetitions = append(mc.Repetitions, results.Repetition{Round: i + 1, Value: v})
	}
	bc := results.BrowserCell{Protocol: "h3"}
	for i, v := range []float64{0.51, 0.52, 0.50} {
		bc.Loads = append(bc.Loads, results.BrowserLoad{Round: i + 1, LastByteSeconds: v, LoadEventSeconds: 2 * v})
	}
	SummariseBrowser(&bc)
	res := &results.Results{Cells: []results.Cell{mc}, Browser: []results.BrowserCell{bc}}
	CompareModel(res, true)
	m := res.Browser[0].Model
	if m == nil || m.Verdict != vocab.ModelAgrees || math.Abs(m.Ratio-1) > 0.02 || math.Abs(m.LoadEventRatio-2) > 0.04 {
		t.Errorf("model check %+v: want the last byte to agree (1.0x) and the load event beside it at 2x", m)
	}
}

// TestBrowserExcludesDisagreeingLoads: a load whose objects came over
// another transport, or that the server's counters contradict, is left
// out of the figures and counted; a failed load is neither.
func TestBrowserExcludesDisagreeingLoads(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	good := func(s float64) results.BrowserLoad {
		return results.BrowserLoad{LastByteSeconds: s, LoadEventSeconds: s, Objects: 50, ByTransport: map[string]int{"h2": 50}, Connections: 1, ServerRequests: n(50), ServerConnections: n(1), ServerOther: n(0)}
	}
	overH1 := good(9)
	overH1.ByTransport = map[string]int{"h2": 40, "h1-tls": 10}
	miscounted := good(9)
	miscounted.ServerRequests = n(60)
	c := results.BrowserCell{Protocol: "h2", Objects: 50, Loads: []results.BrowserLoad{good(1), overH1, good(1), miscounted, {Error: "timeout"}}}
	SummariseBrowser(&c)
	if c.Excluded != 2 || c.LastByte.N != 2 || math.Abs(c.LastByte.Mean-1) > 1e-9 || c.LoadEvent.N != 2 {
		t.Errorf("%d excluded, last byte %+v: want 2 left out and the two agreeing loads' 1 s", c.Excluded, c.LastByte)
	}
	if !strings.Contains(c.Disagrees, "10 over h1-tls") || !strings.Contains(c.Disagrees, "the server counted 60") {
		t.Errorf("disagrees %q", c.Disagrees)
	}
}
