package cli

import (
	"context"
	"io"

	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
)

// runCompare prints per-cell deltas between two results.json files.
func runCompare(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "old/results.json new/results.json [flags]")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: the cells side by side, the settings that differ, the cells not tested")
	pos, err := fs.ParseN(args, 2, "two results.json files (old, then new)")
	if err != nil {
		return err
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
			e.say("note: %s is a partial run (%s)", pos[i], r.PartialReason)
		}
	}
	if line := render.SettingsDiffer(out.SettingsDiffer); line != "" {
		e.say("%s", line)
	}
	return e.print(*asJSON, out, func(w io.Writer) error { return render.Compare(w, runs[0], runs[1], out) })
}
