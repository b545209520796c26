package cli

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// RunFailures says, a line each, why a run whose report was printed
// still fails: it was cut short, cells or the browser's loads could not
// be measured, or toolchains were not; none when it did not fail.
// textReport says the printed report is text, which names each
// toolchain's error itself.
func RunFailures(res *results.Results, textReport bool) []string {
	if res.Partial {
		what := fmt.Sprintf("the %d cells", len(res.Cells))
		if res.GoVersions != nil {
			what = "what was"
		}
		return []string{fmt.Sprintf("%s: the report holds %s measured until then, marked partial", res.PartialReason, what)}
	}
	var failed []string
	for _, c := range res.Cells {
		if c.Failed {
			failed = append(failed, c.Scenario+"/"+c.Protocol+": "+c.Skipped)
		}
	}
	if len(failed) > 0 {
		return []string{fmt.Sprintf("%d cells could not be measured; first: %s", len(failed), failed[0])}
	}
	for _, c := range res.Browser {
		why := ""
		if c.Failed {
			why = c.Skipped
		}
		for _, ld := range c.Loads {
			if why == "" && ld.Error != "" {
				why = ld.Error
			}
		}
		if why != "" {
			return []string{fmt.Sprintf("--browser over %s: %s", c.Protocol, why)}
		}
	}
	return toolchainFailures(res, textReport)
}

// toolchainFailures says which toolchains of a run across Go versions
// were not measured: why, a line each unless the text report says it,
// then how many.
func toolchainFailures(res *results.Results, textReport bool) []string {
	if res.GoVersions == nil {
		return nil
	}
	var lines, failed []string
	for _, tc := range res.GoVersions.Toolchains {
		if tc.Error != "" {
			failed = append(failed, tc.Name())
			if !textReport {
				lines = append(lines, fmt.Sprintf("%s not measured: %s", tc.Name(), tc.Error))
			}
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return append(lines, fmt.Sprintf("%d of %d toolchains not measured (%s); the others were", len(failed), len(res.GoVersions.Toolchains), strings.Join(failed, ", ")))
}
