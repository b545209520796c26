package analysis

import (
	"slices"
	"testing"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// judgedRun is a run of made-up cells, concluded: download over h1, h2c and
// h2, and download:tuned over the same, the tuned set reading 256 KiB and
// asking for 1 MiB frames.
func judgedRun(t *testing.T, h2c, h2 []results.Finding, tunedWord string) *results.Results {
	t.Helper()
	tuned := &results.KnobSet{Name: "tuned", Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "256Ki"}, {Field: "Client.HTTP2.MaxReadFrameSize", Value: "1Mi"}}}
	iv := func(r, lo, hi float64, word string) *results.Interval {
		return &results.Interval{Ratio: r, Low: lo, High: hi, Pairs: 6, Verdict: word}
	}
	reps := func(vals ...float64) []results.Repetition {
		var out []results.Repetition
		for i, v := range vals {
			out = append(out, results.Repetition{Round: i + 1, Value: v})
		}
		return out
	}
	shipped, better := reps(1, 1.1, 0.9, 1, 1.05, 0.95), reps(3, 3.2, 2.8, 3.1, 2.9, 3)
	if tunedWord == "no change" {
		better = reps(1.02, 1.08, 0.92, 0.98, 1.04, 0.97)
	}
	res := &results.Results{Settings: results.Settings{Alongside: tuned}, Cells: []results.Cell{
		{Scenario: "download", Protocol: "h1", Repetitions: reps(4, 4, 4, 4, 4, 4)},
		{Scenario: "download", Protocol: "h2c", VsBaseline: iv(0.25, 0.2, 0.3, results.VerdictSlower), Findings: h2c, Repetitions: shipped},
		{Scenario: "download", Protocol: "h2", VsBaseline: iv(0.97, 0.9, 1.05, results.VerdictSimilar), Findings: h2, Repetitions: shipped},
		{Scenario: "download:tuned", Protocol: "h2c", Knobs: "tuned", VsBaseline: iv(0.75, 0.7, 0.8, results.VerdictSlower), Repetitions: better},
	}}
	SetTunedGains(res.Cells)
	Conclude(res)
	return res
}

var (
	cpuFinding    = results.Finding{Rule: "cpu-per-byte"}
	readsFinding  = results.Finding{Rule: "h2-small-reads", Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "256Ki"}}}
	framesFinding = results.Finding{Rule: "h2-small-frames", Knobs: []results.Knob{{Field: "Client.HTTP2.MaxReadFrameSize", Value: "256Ki"}}}
	machine       = results.Finding{Rule: "machine-bound"}
)

// TestMainCauseIsTheFixThatMoved: with the tuned row raising the cell in
// its own paired test, the main cause is the first finding whose fix the
// tuned set holds, not the first listed; a fix's value is the one the
// tuned set measured.
func TestMainCauseIsTheFixThatMoved(t *testing.T) {
	res := judgedRun(t, []results.Finding{machine, cpuFinding, framesFinding, readsFinding}, nil, "raised")
	j := res.Judgement
	if j.Tuned == nil || len(j.Tuned.Gains) != 1 || j.Tuned.Gains[0].Word != vocab.GainRaised || j.Tuned.Gains[0].Gain == nil {
		t.Fatalf("tuned rows %+v: want download/h2c raised by its own paired test", j.Tuned)
	}
	c := res.Cell("download", "h2c")
	if c.MainCause != "h2-small-frames" {
		t.Errorf("main cause %q, want h2-small-frames (its fix is in the set that raised the cell)", c.MainCause)
	}
	if len(j.Causes) != 1 || j.Causes[0].Rule != "h2-small-frames" || j.Causes[0].Knobs[0].Value != "1Mi" {
		t.Errorf("causes %+v: want h2-small-frames once, at the 1Mi the tuned set measured", j.Causes)
	}
	if len(j.Caveats) != 1 || j.Caveats[0].Rule != "machine-bound" || !slices.Contains(c.Marks, vocab.MarkMachineBound) {
		t.Errorf("caveats %+v, marks %v: want machine-bound as a caveat and a mark, not a cause", j.Caveats, c.Marks)
	}
}

// TestMainCauseRefuses: a tuned row that did not raise the cell credits
// no fix (the first cause in the rules' order is the main one); a cell
// read ≈ has no main cause whatever its findings; a caveat alone is no
// cause.
func TestMainCauseRefuses(t *testing.T) {
	res := judgedRun(t, []results.Finding{cpuFinding, readsFinding}, []results.Finding{readsFinding}, "no change")
	if w := res.Judgement.Tuned.Gains[0].Word; w != vocab.GainNone {
		t.Fatalf("tuned word %q, want %q", w, vocab.GainNone)
	}
	if c := res.Cell("download", "h2c"); c.MainCause != "cpu-per-byte" {
		t.Errorf("main cause %q, want cpu-per-byte: no fix moved the figure", c.MainCause)
	}
	if c := res.Cell("download", "h2"); c.MainCause != "" {
		t.Errorf("a cell read ≈ has main cause %q", c.MainCause)
	}
	res = judgedRun(t, []results.Finding{machine}, nil, "raised")
	if c := res.Cell("download", "h2c"); c.MainCause != "" || len(res.Judgement.Causes) != 0 {
		t.Errorf("a caveat made a cause: %q, %+v", c.MainCause, res.Judgement.Causes)
	}
}

// TestDecidedCounts: the cells with an interval and those the verdict
// decided, the baseline not among them.
func TestDecidedCounts(t *testing.T) {
	res := judgedRun(t, nil, nil, "raised")
	if j := res.Judgement; j.Cells != 3 || j.Decided != 3 {
		t.Errorf("decided %d of %d, want 3 of 3", j.Decided, j.Cells)
	}
	res.Cells[2].VsBaseline.Verdict = results.VerdictUndetermined
	Conclude(res)
	if j := res.Judgement; j.Decided != 2 {
		t.Errorf("decided %d, want 2 with one undetermined", j.Decided)
	}
}
