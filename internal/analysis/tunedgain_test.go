package analysis

import (
	"testing"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// TestTunedGains: a tuned cell's gain is over the shipped cell of its own
// transport, round by round, never over the tuned h1: the tuned h2c
// reads 2.5 times the shipped h2c in every round (raised), while both
// sit far below their own h1; the tuned h1 about as the shipped one, now
// a little above, now below, within ±25% (no change); a shipped cell
// skipped leaves its tuned cell without a gain.
func TestTunedGains(t *testing.T) {
	cell := func(sc, p, knobs string, vals ...float64) results.Cell {
		c := results.Cell{Scenario: sc, Protocol: p, Knobs: knobs, Metric: results.MetricBytesPerSecond, FirstStage: 4, LastLook: 16}
		for i, v := range vals {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v})
		}
		return c
	}
	cells := []results.Cell{
		cell("download", "h1", "", 100, 120, 90, 110, 100),
		cell("download", "h2c", "", 19, 24, 17, 21, 20),
		cell("download", "h3", ""),
		cell("download:tuned", "h1", "tuned", 101, 118, 92, 108, 100),
		cell("download:tuned", "h2c", "tuned", 47.5, 60, 42.5, 52.5, 50),
		cell("download:tuned", "h3", "tuned", 10, 11, 10, 11),
	}
	cells[2].Skipped = "not here"
	SetTunedGains(cells)
	for _, i := range []int{0, 1, 2} {
		if cells[i].TunedGain != nil {
			t.Errorf("shipped %s got a gain %+v", cells[i].Protocol, cells[i].TunedGain)
		}
	}
	g := cells[4].TunedGain
	if g == nil || g.Shipped != "download" || g.Word != vocab.GainRaised || g.Gain.Pairs != 5 || g.Gain.Ratio < 2.49 || g.Gain.Ratio > 2.51 || g.Gain.Verdict != "" {
		t.Fatalf("tuned h2c's gain %+v: want raised, 2.5x over 5 pairs", g)
	}
	if g := cells[3].TunedGain; g == nil || g.Word != vocab.GainNone {
		t.Fatalf("tuned h1's gain %+v: want no change", g)
	}
	if g := cells[5].TunedGain; g != nil {
		t.Fatalf("tuned h3's gain %+v with its shipped cell skipped", g)
	}
	wide := cell("download:tuned", "h2c", "tuned", 10, 40, 12, 38)
	if g := TunedGain(&wide, &cells[1]); g.Word != vocab.GainCantTell {
		t.Fatalf("a gain of wide rounds %+v: want can't tell", g)
	}
}
