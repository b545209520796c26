package cli

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// runHistory follows cells' ratios to their baseline across several
// results.json, in the order given: a table on stdout, and history.svg
// and history.html in --out.
func runHistory(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "results.json... [flags] (oldest first)")
	cells := fs.String("cells", "", "the cells to follow, a `list` of scenario/transport (download/h2c,download:tuned/h2); default: every transport but the baseline in the last run's first scenario")
	out := fs.String("out", "httpvs-history", "`dir`ectory for history.svg and history.html (the page embeds the picture)")
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("history takes two results.json files or more, oldest first, e.g. httpvs history a/results.json b/results.json c/results.json")
	}
	runs := make([]*results.Results, len(pos))
	for i, path := range pos {
		if runs[i], err = readResultsFile(path); err != nil {
			return err
		}
	}
	chosen := report.DefaultHistoryCells(runs)
	if *cells != "" {
		if chosen, err = parseHistoryCells(*cells, runs); err != nil {
			return err
		}
	}
	if len(chosen) == 0 {
		return usagef("--cells: the runs have no cell with a ratio to follow; name some, e.g. --cells download/h2c")
	}
	if err := report.HistoryText(e.stdout, runs, chosen); err != nil {
		return err
	}
	if err := report.WriteHistory(*out, runs, chosen); err != nil {
		return err
	}
	e.say("wrote %s and %s", filepath.Join(*out, "history.svg"), filepath.Join(*out, "history.html"))
	return nil
}

// parseHistoryCells reads --cells: scenario/transport pairs, each a cell
// of at least one of runs.
func parseHistoryCells(list string, runs []*results.Results) ([]report.HistoryCell, error) {
	var out []report.HistoryCell
	for _, item := range strings.Split(list, ",") {
		sc, p, ok := strings.Cut(strings.TrimSpace(item), "/")
		if !ok || sc == "" || p == "" {
			return nil, usagef("--cells %q: want scenario/transport items, e.g. --cells download/h2c,upload/h3", item)
		}
		found := false
		for _, r := range runs {
			found = found || r.Cell(sc, p) != nil
		}
		if !found {
			return nil, usagef("--cells %q: no run has that cell; want scenario/transport as in the runs, e.g. --cells download/h2c", item)
		}
		out = append(out, report.HistoryCell{Scenario: sc, Protocol: p})
	}
	return out, nil
}
