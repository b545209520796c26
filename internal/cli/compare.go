package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// compareFormats are what compare --format prints.
var compareFormats = []string{"text", "markdown", "json"}

// runCompare prints per-cell deltas between two results.json files and,
// with --fail-on, exits 1 when a cell's ratio to its baseline moved that
// way beyond its test.
func runCompare(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "old/results.json new/results.json [flags]")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: the cells side by side, the settings that differ, the cells not tested, the gate's finding (same as --format json)")
	format := fs.String("format", "text", "what to print: text (a table), markdown (for a pull request or a CI job summary: regressions first) or json")
	marginFile := fs.String("margin", "", "the between-run spread each cell's test allows for beside its rounds': a JSON `file` estimated from runs of one build on the runner (docs/ci.md), or none; default: the one estimated from run --ci on the machine that measured the gate, which the output names")
	marginFrom := fs.String("margin-from", "", "estimate that margin from runs of one build on this runner instead: their results.json files, matched by the `glob` (two or more; main's last runs, say)")
	failOn := fs.String("fail-on", "", "exit 1 when a cell's ratio to its run's baseline moved this `way` beyond its test (corrected for the cells tested): slower, faster or changed; the failing cells are listed first. A baseline that moved by itself fails no cell (its line says so); runs with no cell the test can use (one round a cell: run --quick) exit 2")
	pos, err := fs.ParseN(args, 2, "two results.json files (old, then new)")
	if err != nil {
		return err
	}
	if *failOn != "" && !analysis.ValidFailOn(*failOn) {
		return usagef("--fail-on %q: want %s (e.g. --fail-on slower)", *failOn, strings.Join(analysis.FailOnWords, ", "))
	}
	if !validWord(*format, compareFormats) {
		return usagef("--format %q: want %s (e.g. --format markdown)", *format, strings.Join(compareFormats, ", "))
	}
	if *asJSON {
		*format = "json"
	}
	margin, given, err := marginOf(*marginFile, *marginFrom)
	if err != nil {
		return err
	}
	runs, out, err := compareFiles(pos, *failOn, margin, given)
	if err != nil {
		return err
	}
	for i, r := range runs {
		if r.Partial {
			e.say("note: %s is a partial run (%s)", pos[i], r.PartialReason)
		}
	}
	if line := SettingsDiffer(out.SettingsDiffer); line != "" {
		e.say("%s", line)
	}
	err = e.print(*format == "json", out, func(w io.Writer) error {
		if *format == "markdown" {
			if err := report.CompareMarkdown(w, out); err != nil || !anyRatioTested(out.Cells) {
				return err
			}
			_, err := fmt.Fprintf(w, "\n<sub>%s</sub>\n", analysis.MarginLine(out.Margin))
			return err
		}
		if out.Gate != nil {
			fmt.Fprintln(w, out.Gate.Line)
		}
		return Compare(w, out)
	})
	if err != nil {
		return err
	}
	if out.Gate != nil && out.Gate.Failed {
		return e.fail(out.Gate.Line)
	}
	return nil
}

// compareFiles reads the two results.json files named in pos and
// compares them (experiment.Compare, or with margin when given says one
// was asked for), with a gate on failOn ("" for none); a gate with no
// cell tested on its ratio is bad input.
func compareFiles(pos []string, failOn string, margin *results.BetweenRuns, given bool) ([2]*results.Results, results.Comparison, error) {
	var runs [2]*results.Results
	var err error
	for i, path := range pos {
		if runs[i], err = readResultsFile(path); err != nil {
			return runs, results.Comparison{}, err
		}
	}
	out, err := experiment.Compare(pos[0], pos[1], runs[0], runs[1], failOn)
	if err != nil {
		return runs, out, err
	}
	if given {
		out = analysis.CompareRunsMargin(pos[0], pos[1], runs[0], runs[1], margin)
		if failOn != "" {
			analysis.SetGate(&out, failOn)
		}
	}
	if failOn != "" && !anyRatioTested(out.Cells) {
		return runs, out, usagef("--fail-on %s: no cell's ratio could be tested, so the gate cannot pass or fail: %s (measure both with httpvs run --ci)", failOn, orNoReason(out.NotTestedReason))
	}
	return runs, out, nil
}

// marginOf is the margin --margin (readMargin) or --margin-from
// (estimateMargin) give, and whether either was given.
func marginOf(file, from string) (*results.BetweenRuns, bool, error) {
	var m *results.BetweenRuns
	var err error
	switch {
	case file != "" && from != "":
		return nil, true, usagef("--margin and --margin-from: give one")
	case from != "":
		m, err = estimateMargin(from)
	case file != "":
		m, err = readMargin(file)
	}
	return m, file != "" || from != "", err
}

// estimateMargin estimates the margin from the results.json files glob
// matches (analysis.EstimateBetweenRuns): two runs of one build or more.
func estimateMargin(glob string) (*results.BetweenRuns, error) {
	paths, err := filepath.Glob(glob)
	if err != nil || len(paths) < 2 {
		return nil, usagef("--margin-from %q: matches %d files, want the results.json of two runs of one build or more", glob, len(paths))
	}
	runs := make([]*results.Results, len(paths))
	for i, p := range paths {
		if runs[i], err = readResultsFile(p); err != nil {
			return nil, err
		}
	}
	m := analysis.EstimateBetweenRuns(runs)
	m.Source = analysis.BetweenRunsSource(runs)
	if len(m.Kinds) == 0 {
		return nil, usagef("--margin-from %q: no cell has a ratio with two rounds or more in two of its runs (measure them with httpvs run --ci)", glob)
	}
	return &m, nil
}

// readMargin reads compare --margin's file: nil for "none" or for no
// file (the built-in one then applies).
func readMargin(path string) (*results.BetweenRuns, error) {
	if path == "" || path == "none" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("--margin: %v", err)
	}
	m, err := analysis.ParseBetweenRuns(data)
	if err != nil {
		return nil, usagef("--margin %s: %v", path, err)
	}
	return m, nil
}

func validWord(w string, words []string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

// anyRatioTested says whether compare tested at least one cell's ratio.
func anyRatioTested(ds []results.Delta) bool {
	for _, d := range ds {
		if d.Tested == vocab.TestedRatio {
			return true
		}
	}
	return false
}

func orNoReason(s string) string {
	if s == "" {
		return "the runs share no cell with a ratio to a baseline"
	}
	return s
}
