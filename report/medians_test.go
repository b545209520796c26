package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// medianRun is request-1 against a target: h1-tls 0.90x h1 in each of its
// five rounds, and h2 given six rounds more, which measured h1 too, at
// half the rate (the target slowed): over all eleven of its rounds h1's
// median falls below h1-tls's, as seen against Caddy (h1 3855 req/s,
// h1-tls 4025 req/s beside h1-tls 0.90x slower).
func medianRun() *results.Results {
	res := &results.Results{SchemaVersion: results.SchemaVersion, Settings: results.Settings{Protocols: []string{"h1", "h1-tls", "h2"}, Baseline: "h1", Repeat: 5}}
	cell := func(p string, values ...float64) results.Cell {
		c := results.Cell{Scenario: "small-sequential", Protocol: p, Metric: results.MetricRequestsPerSecond}
		for i, v := range values {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v, Requests: 1000})
		}
		return c
	}
	res.Cells = []results.Cell{
		cell("h1", 4400, 4500, 4450, 4550, 4480, 2200, 2300, 2250, 2350, 2150, 2280),
		cell("h1-tls", 3960, 4050, 4005, 4095, 4032),
		cell("h2", 4000, 4100, 4050, 4150, 4080, 2000, 2100, 2050, 2150, 1950, 2080),
	}
	analysis.SummariseCells(res)
	analysis.Conclude(res)
	return res
}

// TestMediansFromTheRatiosRounds: the medians beside the verdict come from
// the rounds the ratios used, so h1's reads above h1-tls's as the 0.90x
// says, the HTML bars agree, and a note says over which rounds.
func TestMediansFromTheRatiosRounds(t *testing.T) {
	res := medianRun()
	h1, tls := res.Cell("small-sequential", "h1"), res.Cell("small-sequential", "h1-tls")
	if h1.Median >= tls.Median || tls.VsBaseline == nil || tls.VsBaseline.Verdict != results.VerdictSlower {
		t.Fatalf("planted case: h1 median %.0f, h1-tls %.0f, %+v: want the medians against the verdict", h1.Median, tls.Median, tls.VsBaseline)
	}
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"4480 req/s", "4032 req/s", "h1's over the 5 of its 11 rounds in which every other column paired with it"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, sameRoundsMark) {
		t.Errorf("a ‡ where the medians agree with the verdict:\n%s", out)
	}
	b.Reset()
	if err := HTML(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "4480 req/s  1.00x") || !strings.Contains(b.String(), "4032 req/s  0.90x") {
		t.Errorf("the bars are not the same rounds' medians:\n%s", b.String())
	}
}

// TestMediansAgainstTheVerdictSaid: over the very same rounds the medians
// can still point the other way (the rounds moved more than the
// transports differ; the ratio is the geometric mean of each round's
// pair): the ratio is marked and a note says why.
func TestMediansAgainstTheVerdictSaid(t *testing.T) {
	res := &results.Results{SchemaVersion: results.SchemaVersion, Settings: results.Settings{Protocols: []string{"h1", "h2"}, Baseline: "h1", Repeat: 5}}
	cell := func(p string, values ...float64) results.Cell {
		c := results.Cell{Scenario: "small-sequential", Protocol: p, Metric: results.MetricRequestsPerSecond}
		for i, v := range values {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v, Requests: 1000})
		}
		return c
	}
	res.Cells = []results.Cell{cell("h1", 1000, 2000, 3000, 4000, 5000), cell("h2", 500, 3200, 3100, 3300, 4500)}
	analysis.SummariseCells(res)
	c := res.Cell("small-sequential", "h2")
	// The rounds' geometric mean ratio is 0.91x; planted as a call, as a
	// narrower run of the same shape would make it.
	c.VsBaseline = &results.Interval{Ratio: 0.91, Low: 0.85, High: 0.97, Pairs: 5, Verdict: results.VerdictSlower}
	analysis.Conclude(res)
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"0.91x [0.85, 0.97] " + sameRoundsMark, sameRoundsMark + " h2: 0.91x [0.85, 0.97] slower, while h2's median and h1's beside it point the other way: over the same 5 rounds the medians point the other way"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
