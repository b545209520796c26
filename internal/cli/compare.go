package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// comparedJSON is what compare --json prints.
type comparedJSON = verdict.Comparison

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
		if runs[i], err = readResultsFile(path); err != nil {
			return err
		}
	}
	out := verdict.CompareRuns(pos[0], pos[1], runs[0], runs[1])
	for i, r := range runs {
		if r.Partial {
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
	if !*asJSON {
		if err := report.Deltas(e.stdout, runs[0], runs[1]); err != nil {
			return err
		}
		if line := render.KnobsMovedBaseline(out.Cells, out.SettingsDiffer); line != "" {
			fmt.Fprintln(e.stdout, line)
		}
		return nil
	}
	return report.JSON(e.stdout, out)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
