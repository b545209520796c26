package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// comparedJSON is what compare --json prints.
type comparedJSON struct {
	Old             string                `json:"old"` // the files compared
	New             string                `json:"new"`
	SettingsDiffer  []results.SettingDiff `json:"settings_differ"` // groups of settings the runs did not share
	Partial         []string              `json:"partial"`         // the files holding partial runs
	Cells           []results.Delta       `json:"cells"`
	BaselineMoved   []results.Delta       `json:"baseline_moved"` // the baseline cells whose own value moved: the ratios to them hide it
	NotTested       results.Untested      `json:"not_tested"`
	NotTestedReason string                `json:"not_tested_reason,omitempty"` // the text output's one line
}

// runCompare prints per-cell deltas between two results.json files.
func runCompare(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "compare", "old/results.json new/results.json [flags]")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: the cells side by side, the settings that differ, the cells not tested")
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("compare takes two results.json files (old, then new), got %d argument(s)", len(pos))
	}
	var runs [2]*results.Results
	for i, path := range pos {
		f, err := os.Open(path)
		if err != nil {
			return usagef("%v", err)
		}
		runs[i], err = results.ReadJSON(f)
		f.Close()
		if err != nil {
			return usagef("%s: %v", path, err)
		}
	}
	out := comparedJSON{Old: pos[0], New: pos[1]}
	out.SettingsDiffer = results.DiffSettings(runs[0], runs[1])
	out.Partial = []string{}
	for i, r := range runs {
		if r.Partial {
			out.Partial = append(out.Partial, pos[i])
			fmt.Fprintf(e.stderr, "httpvs compare: note: %s is a partial run (%s)\n", pos[i], r.PartialReason)
		}
	}
	if len(out.SettingsDiffer) > 0 {
		var parts []string
		for _, d := range out.SettingsDiffer {
			parts = append(parts, fmt.Sprintf("%s %s vs %s", d.Group, orNone(d.Old), orNone(d.New)))
		}
		fmt.Fprintf(e.stderr, "httpvs compare: warning: the runs used different settings, so a change may come from them rather than the code: %s\n", strings.Join(parts, "; "))
	}
	ds := results.Compare(runs[0], runs[1])
	if !*asJSON {
		if err := report.Deltas(e.stdout, ds); err != nil {
			return err
		}
		if line := report.KnobsMovedBaseline(ds, out.SettingsDiffer); line != "" {
			fmt.Fprintln(e.stdout, line)
		}
		return nil
	}
	out.Cells, out.NotTested, out.NotTestedReason = ds, results.CountUntested(ds), report.UntestedLine(ds)
	out.BaselineMoved = results.BaselineMoves(ds)
	if out.BaselineMoved == nil {
		out.BaselineMoved = []results.Delta{}
	}
	if out.SettingsDiffer == nil {
		out.SettingsDiffer = []results.SettingDiff{}
	}
	return report.JSON(e.stdout, out)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
