package report

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestRunRoundsText says what the run did: the repetitions the cells got
// as run (the tuned rows' fewer included), the rounds added; and when
// none could be added while cells are wide, that the budget had no room
// and about how much more time their spread asks for.
func TestRunRoundsText(t *testing.T) {
	cell := func(sc, p string, values ...float64) results.Cell {
		c := results.Cell{Scenario: sc, Protocol: p, Metric: "bytes_per_second", CPUUnit: "GB"}
		for i, v := range values {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v, Seconds: 0.1})
		}
		return c
	}
	res := &results.Results{Settings: results.Settings{Repeat: 4, MaxRepeat: 16, BudgetSeconds: 58, Baseline: "h1"}, Cells: []results.Cell{
		cell("download", "h1", 100, 100, 100, 100),
		cell("download", "h2c", 50, 100, 50, 100), // wide: ±55%
		cell("download:tuned", "h1", 100, 100),
		cell("download:tuned", "h2c", 90, 91),
	}}
	for i := range res.Cells {
		analysis.SummariseCell(&res.Cells[i])
	}
	analysis.SetRatios(res.Cells, "h1")
	analysis.Conclude(res)
	got := runRoundsText(res)
	for _, want := range []string{"2 to 4 repetitions per cell as run", "no round added", "58s budget", "1 cell(s) wider than ±10%", "would need about 12s more: --budget, --max-repeat"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	// h2c's 4 pairs at sd 0.4 of the log need 65 rounds: 61 more of two
	// 0.1 s repetitions.
	if more := moreTime(res).Seconds(); more < 12.19 || more > 12.21 {
		t.Errorf("more time %.2f s, want 12.2", more)
	}
	// Interrupted (Ctrl-C) before any round was added: said so, not
	// blamed on the budget.
	res.Partial, res.PartialReason = true, "interrupted: interrupt"
	if got := runRoundsText(res); !strings.Contains(got, "the run stopped before it could add any: interrupted: interrupt") || strings.Contains(got, "budget") {
		t.Errorf("%q: want the interrupt, not the budget", got)
	}
	res.Partial, res.PartialReason = false, ""
	res.Settings.ExtraRounds = 5
	if got := runRoundsText(res); !strings.Contains(got, "5 round(s) added, up to 16 a cell") {
		t.Errorf("%q: want the rounds added", got)
	}
}

// TestSequentialWordsFollowTheRecord: the rule's words are those the
// results recorded, an earlier run's O'Brien-Fleming-type spending too.
func TestSequentialWordsFollowTheRecord(t *testing.T) {
	now := results.Sequential{Rule: analysis.SequentialRule, First: 4, Last: 16}
	before := results.Sequential{Rule: "group-sequential, Lan-DeMets spending (1% at the first look, O'Brien-Fleming-type after), t at each look", First: 4, Last: 16}
	for _, c := range []struct {
		q    results.Sequential
		want string
	}{{now, "Pocock-type after"}, {before, "O'Brien-Fleming-type after"}} {
		if got := sequentialWords(c.q); !strings.Contains(got, c.want) || !strings.Contains(got, "rounds 4 to 16") {
			t.Errorf("%q: %q, want %q and the looks", c.q.Rule, got, c.want)
		}
	}
}
