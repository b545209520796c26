package cli

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestNextSteps: a finished run's next steps follow from what it found.
func TestNextSteps(t *testing.T) {
	res := &results.Results{Settings: results.Settings{Repeat: 3, MaxRepeat: 16}, Cells: []results.Cell{
		{Scenario: "download", Protocol: "h2c", VsBaseline: &results.Interval{Ratio: 0.2, Low: 0.1, High: 0.4, Pairs: 3, Verdict: results.VerdictSlower},
			Findings: []results.Finding{{Rule: "cpu-per-byte"}, {Rule: "h2-small-reads", Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "256Ki"}}}}},
	}}
	got := strings.Join(NextSteps(res, "out/1", false, false), "\n")
	for _, want := range []string{"--detail", "--profile DIR", "httpvs tune --write mine.json", "httpvs compare out/1/results.json"} {
		if !strings.Contains(got, want) {
			t.Errorf("next steps lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "undetermined") {
		t.Errorf("a decided cell is called undetermined:\n%s", got)
	}
	if line := NextLine(NextSteps(res, "out/1", false, false)); strings.Count(line, "\n") != 1 || len([]rune(line)) > nextWidth+1 {
		t.Errorf("the next steps are not one line of at most %d columns: %q", nextWidth, line)
	}
	res.Cells[0].VsBaseline.Verdict = results.VerdictUndetermined
	if got := strings.Join(NextSteps(res, "", false, false), "\n"); !strings.HasPrefix(got, "1 undetermined: ") {
		t.Errorf("an undetermined cell is not the first step:\n%s", got)
	}
	// Profiled and attributed, stable, nothing to tune, no files.
	res.Cells[0].Attribution = []*results.AttributionSide{{Side: "server"}}
	res.Cells[0].Findings = res.Cells[0].Findings[:1]
	res.Cells[0].VsBaseline = &results.Interval{Ratio: 0.2, Low: 0.19, High: 0.21, Pairs: 3}
	if got := NextSteps(res, "", true, false); len(got) != 0 {
		t.Errorf("nothing left to suggest, got %q", got)
	}
	res.Settings.MaxRepeat = 1
	if got := strings.Join(NextSteps(res, "", true, false), "\n"); !strings.Contains(got, "without --quick") {
		t.Errorf("one round: %q", got)
	}
	// One round, not profiled: no verdict, so --profile would profile
	// nothing and is not advised, in the next steps or beside the fix.
	one := &results.Results{Settings: results.Settings{Repeat: 1, MaxRepeat: 1}, Cells: []results.Cell{
		{Scenario: "download", Protocol: "h2c", VsBaseline: &results.Interval{Ratio: 0.2, Pairs: 1}, Findings: []results.Finding{{Rule: "cpu-per-byte"}}},
	}}
	if got := strings.Join(NextSteps(one, "", false, false), "\n"); strings.Contains(got, "--profile") {
		t.Errorf("one round advises --profile: %q", got)
	}
	// A --ci run: fixed rounds, so no --max-repeat, and the gate first.
	res.Settings = results.Settings{Repeat: 5, MaxRepeat: 5}
	res.Cells[0].VsBaseline.Verdict = results.VerdictUndetermined
	got = strings.Join(NextSteps(res, "out/ci", false, true), "\n")
	if !strings.HasPrefix(got, "gate the next build: httpvs compare --fail-on slower out/ci/results.json NEW/results.json") || strings.Contains(got, "--max-repeat") || strings.Contains(got, "undetermined") {
		t.Errorf("a --ci run's next steps:\n%s", got)
	}
	if got := NextSteps(res, "", true, true); len(got) != 1 || !strings.Contains(got[0], "--no-files") {
		t.Errorf("a --ci run without files: %q", got)
	}
	if Profilable(&one.Cells[0]) {
		t.Error("a cell with no verdict counts as profilable")
	}
}
