package cli

import (
	"context"
	"os"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// runExplain prints where each slower cell's extra CPU went: from the
// attribution a run made with --profile stored in results.json, or, for
// runs made earlier, from the profiles in --profiles DIR.
func runExplain(_ context.Context, e *env, args []string) error {
	fl := newFlagSet(e, "results.json [flags]")
	dir := fl.String("profiles", "", "attribute from the CPU profiles in `dir` (what run --profile wrote) the cells results.json holds no attribution for")
	asJSON := fl.Bool("json", false, "print the cells' attributions as one JSON array")
	pos, err := fl.ParseN(args, 1, "one results.json")
	if err != nil {
		return err
	}
	res, err := readResultsFile(pos[0])
	if err != nil {
		return err
	}
	if *dir != "" {
		if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
			return usagef("--profiles %s: not a directory of profiles (run --profile DIR writes them)", *dir)
		}
		for _, err := range analysis.AttributeProfiles(res, analysis.ProfilesIn(*dir)) {
			e.say("%v", err)
		}
		res.Settings.ProfileDir = *dir // where the next step's profiles are
	}
	if *asJSON {
		return writeJSON(e.stdout, analysis.AttributedCells(res))
	}
	if !report.Attribution(e.stdout, res) {
		return e.fail(pos[0] + " holds no attributed cell the verdict calls slower: make the run with --profile DIR (or give the profiles of an earlier one with --profiles DIR)")
	}
	return nil
}

// readResultsFile reads a results.json; an unreadable one is bad input.
func readResultsFile(path string) (*results.Results, error) {
	res, err := runfiles.ReadResults(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return res, nil
}
