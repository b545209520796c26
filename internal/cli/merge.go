package cli

import (
	"context"
	"os"

	"github.com/httpvs/httpvs/internal/merge"
)

// runMerge combines load results from several generators into one.
func runMerge(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "FILE... (load --json results; - reads standard input)")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: the merged result, which merge reads again")
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("merge takes the files of httpvs load --json results (or - for standard input), e.g. httpvs merge a.json b.json")
	}
	parts, err := merge.ReadFiles(pos, os.Stdin)
	if err != nil {
		return usagef("%v", err)
	}
	m, err := merge.Merge(parts)
	if err != nil {
		return usagef("%v", err)
	}
	if !*asJSON {
		return Merge(e.stdout, parts, m)
	}
	for _, w := range m.Warnings {
		e.say("warning: %s", w.Text)
	}
	return writeJSON(e.stdout, merge.NewRecord(parts, m))
}
