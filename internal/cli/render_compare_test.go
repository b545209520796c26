package cli

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestKnobsMovedBaseline: a baseline that moved between runs of different
// knob sets is put down to the knobs as much as the code; alike knobs, or
// no move, say nothing.
func TestKnobsMovedBaseline(t *testing.T) {
	ds := []results.Delta{{Scenario: "download", Protocol: "h1", Baseline: true, Tested: analysis.TestedValue, Change: 0.3}}
	knobs := []results.SettingDiff{{Group: "knobs", Old: "go-default", New: "tuned"}}
	if got := KnobsMovedBaseline(analysis.BaselineMoves(ds), knobs); !strings.Contains(got, "different knob sets (go-default vs tuned), which set h1's client too") {
		t.Errorf("got %q", got)
	}
	if got := KnobsMovedBaseline(analysis.BaselineMoves(ds), []results.SettingDiff{{Group: "go"}}); got != "" {
		t.Errorf("other settings: %q", got)
	}
	ds[0].Change = 0.02
	if got := KnobsMovedBaseline(analysis.BaselineMoves(ds), knobs); got != "" {
		t.Errorf("no move: %q", got)
	}
}
