package analysis

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestCompareRunsAlike: a run against itself differs in no setting, is
// not partial and moved no baseline, and those lists encode as [], not
// null; the reason line is left to the renderer.
func TestCompareRunsAlike(t *testing.T) {
	jitter := []float64{1.00, 1.02, 0.98, 1.01, 0.99}
	run := runOf(0.25, []float64{1, 1.02, 0.98, 1.01, 0.99}, jitter)
	c := CompareRuns("a.json", "b.json", run, run)
	if c.Old != "a.json" || c.New != "b.json" || len(c.Cells) != 2 || c.NotTested != (results.Untested{}) || c.NotTestedReason != "" {
		t.Fatalf("comparison %+v", c)
	}
	if c.SettingsDiffer == nil || len(c.SettingsDiffer) != 0 || c.Partial == nil || len(c.Partial) != 0 || c.BaselineMoved == nil || len(c.BaselineMoved) != 0 {
		t.Fatalf("settings %#v, partial %#v, baseline moved %#v: want each empty, not nil", c.SettingsDiffer, c.Partial, c.BaselineMoved)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	want := `{"old":"a.json","new":"b.json","settings_differ":[],"partial":[],"cells":[`
	if !strings.HasPrefix(got, want) || !strings.Contains(got, `],"baseline_moved":[],"not_tested":{"only_old":0,"only_new":0,"neither":0,"too_few_repetitions":0,"min_repetitions":0},"margin":{`) {
		t.Errorf("JSON %s", got)
	}
}

// TestCompareRunsNamesWhatDiffers: the old run partial, the new one
// longer, h1 itself 30% faster and a cell only in the new run: the
// comparison names the partial file, the duration, h1's move and the one
// cell it could not test.
func TestCompareRunsNamesWhatDiffers(t *testing.T) {
	jitter := []float64{1.00, 1.02, 0.98, 1.01, 0.99}
	old := runOf(0.25, []float64{1, 1.02, 0.98, 1.01, 0.99}, jitter)
	old.Partial, old.Settings.DurationSeconds = true, 1
	nw := runOf(0.25, []float64{1.3, 1.32, 1.28, 1.31, 1.29}, jitter)
	nw.Settings.DurationSeconds = 2
	up := results.Cell{Scenario: "upload", Protocol: "h1", Metric: results.MetricBytesPerSecond, Repetitions: []results.Repetition{{Round: 1, Value: 1e9}, {Round: 2, Value: 1e9}}}
	SummariseCell(&up)
	nw.Cells = append(nw.Cells, up)

	c := CompareRuns("old.json", "new.json", old, nw)
	if len(c.Partial) != 1 || c.Partial[0] != "old.json" {
		t.Errorf("partial %q, want [old.json]", c.Partial)
	}
	if want := []results.SettingDiff{{Group: "duration", Old: "1s (warmup 0s)", New: "2s (warmup 0s)"}}; len(c.SettingsDiffer) != 1 || c.SettingsDiffer[0] != want[0] {
		t.Errorf("settings %+v, want %+v", c.SettingsDiffer, want)
	}
	if len(c.Cells) != 3 || c.Cells[2].Scenario != "upload" || c.Cells[2].OldN != 0 || c.Cells[2].NewN != 2 {
		t.Fatalf("cells %+v", c.Cells)
	}
	if len(c.BaselineMoved) != 1 || c.BaselineMoved[0].Scenario != "download" || c.BaselineMoved[0].Protocol != "h1" || math.Abs(c.BaselineMoved[0].Change-0.3) > 0.02 {
		t.Errorf("baseline moved %+v, want download/h1 +30%%", c.BaselineMoved)
	}
	if want := (results.Untested{OnlyNew: 1}); c.NotTested != want {
		t.Errorf("not tested %+v, want %+v", c.NotTested, want)
	}
	if want := "not tested: 1 of 3 cells: 1 only in new"; c.NotTestedReason != want {
		t.Errorf("reason %q, want %q", c.NotTestedReason, want)
	}
	// Both partial: both named, old first.
	nw.Partial = true
	if c := CompareRuns("old.json", "new.json", old, nw); len(c.Partial) != 2 || c.Partial[0] != "old.json" || c.Partial[1] != "new.json" {
		t.Errorf("both partial: %q", c.Partial)
	}
}

// TestCompareRunsNamesFewerCPUs: a run confined to one core beside a
// baseline run on two is a run on another machine, named as a setting
// that differs; a results.json that does not record its cores (zero)
// differs in nothing by it.
func TestCompareRunsNamesFewerCPUs(t *testing.T) {
	jitter := []float64{1.00, 1.02, 0.98, 1.01, 0.99}
	old := runOf(0.25, []float64{1, 1.02, 0.98, 1.01, 0.99}, jitter)
	nw := runOf(0.25, []float64{0.6, 0.62, 0.58, 0.61, 0.59}, jitter)
	old.Env.Cores, old.Env.GOMAXPROCS = 2, 2
	nw.Env.Cores, nw.Env.GOMAXPROCS = 1, 1
	c := CompareRuns("old.json", "new.json", old, nw)
	want := results.SettingDiff{Group: "cpus", Old: "cores 2, GOMAXPROCS 2", New: "cores 1, GOMAXPROCS 1"}
	if len(c.SettingsDiffer) != 1 || c.SettingsDiffer[0] != want {
		t.Errorf("settings %+v, want [%+v]", c.SettingsDiffer, want)
	}
	old.Env.Cores, old.Env.GOMAXPROCS = 0, 0
	if c := CompareRuns("old.json", "new.json", old, nw); len(c.SettingsDiffer) != 0 {
		t.Errorf("old run without its cores: settings %+v, want none", c.SettingsDiffer)
	}
}
