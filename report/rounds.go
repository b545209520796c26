package report

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/httpvs/httpvs/results"
)

// runRoundsText says how many rounds the cells got as run: the fewest
// and most repetitions a measured cell has, the rounds added and why, and
// when the budget left no room to add any while cells are still wide, how
// much more time their spread asks for; a run that stopped early (an
// interrupt) says so instead of blaming the budget. Results without cells fall back
// to what the settings planned.
func runRoundsText(res *results.Results) string {
	text := runRounds(res)
	if p := res.Settings.Paced; p != "" {
		text += "; " + p
	}
	return text
}

// runRounds is runRoundsText but for a run's pacing (Settings.Paced).
func runRounds(res *results.Results) string {
	s := res.Settings
	lo, hi := repetitionRange(res.Cells)
	if hi == 0 {
		return roundsText(s)
	}
	text := fmt.Sprintf("%d repetition(s) per cell", hi)
	if lo != hi {
		text = fmt.Sprintf("%d to %d repetitions per cell as run", lo, hi)
	}
	if s.MaxRepeat <= s.Repeat {
		return text + compareRoundsNote(lo)
	}
	wide := len(openCells(res))
	open := fmt.Sprintf("wider than ±%.0f%%", precisionOf(res)*100)
	if s.Sequential != nil {
		open = "undetermined"
	}
	switch {
	case s.ExtraRounds > 0 && s.Sequential != nil:
		text += fmt.Sprintf(" (%d round(s) added, up to %d a cell (%s, in every round, may have more), to the cells still undetermined until decided%s; intervals %s)",
			s.ExtraRounds, s.MaxRepeat, s.BaselineProtocol(), precisionWords(s.PrecisionRounds), sequentialWords(*s.Sequential))
		if res.Partial {
			text += "; then the run stopped: " + partialReason(res)
		}
	case s.ExtraRounds > 0:
		text += fmt.Sprintf(" (%d round(s) added, up to %d a cell, where a cell's first rounds left its interval to %s wider than ±%.0f%%)",
			s.ExtraRounds, s.MaxRepeat, s.BaselineProtocol(), precisionOf(res)*100)
		if res.Partial {
			text += "; then the run stopped: " + partialReason(res)
		}
	case res.Partial:
		text += " (no round added: the run stopped before it could add any: " + partialReason(res) + ")"
	case wide > 0 && s.BudgetSeconds > 0:
		more := moreTime(res)
		text += fmt.Sprintf(" (no round added: the first rounds left no room in the %s budget; %d cell(s) %s would need about %s more: --budget, --max-repeat)",
			seconds(s.BudgetSeconds), wide, open, more.Round(time.Second))
	case s.Sequential != nil:
		text += " (no round needed: every cell was decided in its first rounds)"
	default:
		text += fmt.Sprintf(" (no round needed: every cell's first rounds were within ±%.0f%%)", precisionOf(res)*100)
	}
	return text
}

// sequentialWords names the sequential rule in a few words: its
// spending after the first look as the results record it (runs before
// the Pocock-type rule spent by O'Brien-Fleming's function).
func sequentialWords(q results.Sequential) string {
	after := "Pocock-type"
	if strings.Contains(q.Rule, "O'Brien-Fleming") {
		after = "O'Brien-Fleming-type"
	}
	return fmt.Sprintf("group-sequential, looks after rounds %d to %d (1%% spent at the first, %s after)", q.First, q.Last, after)
}

// partialReason is why a partial run stopped, "interrupted" when unsaid.
func partialReason(res *results.Results) string {
	if res.PartialReason != "" {
		return res.PartialReason
	}
	return "interrupted"
}

// repetitionRange is the fewest and most repetitions among the measured
// cells; 0, 0 when none was measured.
func repetitionRange(cells []results.Cell) (lo, hi int) {
	for _, c := range cells {
		n := len(c.Repetitions)
		if c.Skipped != "" || n == 0 {
			continue
		}
		if lo == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return lo, hi
}

// moreTime estimates the time the wide cells' spread asks for: for each
// scenario, the most rounds one of its cells still needs (MaxRepeat where
// its spread needs more than 100; past MaxRepeat where it needs fewer)
// times the time a round of the
// scenario took (its cells' measured repetitions, warm-up included).
func moreTime(res *results.Results) time.Duration {
	need := map[string]int{}
	for _, p := range openCells(res) {
		n := p.Needed
		if n == 0 {
			n = res.Settings.MaxRepeat
		}
		need[p.Scenario] = max(need[p.Scenario], n-p.Pairs)
	}
	var total float64
	for _, c := range res.Cells {
		k := need[c.Scenario]
		if k <= 0 || len(c.Repetitions) == 0 {
			continue
		}
		var sec float64
		for _, r := range c.Repetitions {
			sec += r.Seconds
		}
		per := sec / float64(len(c.Repetitions))
		if c.Metric != results.MetricSeconds && c.CPUUnit != "GB" {
			per += res.Settings.WarmupSeconds // a load repetition's unmeasured start
		}
		total += float64(k) * per
	}
	return time.Duration(math.Round(total * float64(time.Second)))
}

// precisionWords says how many added rounds went to narrowing the widest
// intervals once every cell was decided; "" when none did.
func precisionWords(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", then %d to the widest intervals (a decided word stands)", n)
}
