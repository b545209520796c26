package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/report"
)

// runCompare prints per-cell deltas between two results.json files.
func runCompare(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "compare", "old/results.json new/results.json")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("compare takes two results.json files (old, then new), got %d argument(s)", len(pos))
	}
	var runs [2]*matrix.Results
	for i, path := range pos {
		f, err := os.Open(path)
		if err != nil {
			return usagef("%v", err)
		}
		runs[i], err = matrix.ReadJSON(f)
		f.Close()
		if err != nil {
			return usagef("%s: %v", path, err)
		}
	}
	for i, r := range runs {
		if r.Partial {
			fmt.Fprintf(e.stderr, "httpvs compare: note: %s is a partial run (%s)\n", pos[i], r.PartialReason)
		}
	}
	return report.Deltas(e.stdout, matrix.Compare(runs[0], runs[1]))
}
