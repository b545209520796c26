package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// nextSteps says what to do after a finished run, from what it found:
// where the CPU went when a cause is the stack's own cost and the run was
// not profiled, the knob search when a fix is a setting, more rounds when
// cells are unstable, and how to see whether a change moved anything.
// dir is the results directory ("" with --no-files).
func nextSteps(res *results.Results, dir string, profiled bool) []string {
	var cpu, knobs bool
	unstable := 0
	for _, c := range res.Cells {
		for _, f := range c.Findings {
			cpu = cpu || (f.Rule == "cpu-per-byte" && len(c.Attribution) == 0)
			knobs = knobs || len(f.Knobs) > 0
		}
		if c.VsH1 != nil && !c.VsH1.Stable() {
			unstable++
		}
	}
	var out []string
	if dir != "" {
		out = append(out, "read it in a browser: "+filepath.Join(dir, "report.html"))
	}
	if cpu && !profiled {
		out = append(out, "where the CPU goes: httpvs run --profile DIR (same flags), then httpvs explain")
	}
	if knobs {
		out = append(out, "the settings that close the gap: httpvs tune --write mine.json, then httpvs run --knobs mine.json")
	}
	if res.Settings.MaxRepeat <= 1 {
		out = append(out, "one round per cell gives no interval: run without --quick, or with --repeat 3 or more")
	} else if unstable > 0 {
		out = append(out, fmt.Sprintf("%d cell(s) not known within ±%.0f%%: more rounds (--max-repeat, --budget) or a quieter machine", unstable, results.StableHalfWidth*100))
	}
	if dir != "" {
		out = append(out, "after a change: httpvs compare "+filepath.Join(dir, "results.json")+" NEW/results.json")
	}
	return out
}

// nextLine is nextSteps in one block, the text report's last.
func nextLine(steps []string) string {
	if len(steps) == 0 {
		return ""
	}
	return "\nnext:\n  - " + strings.Join(steps, "\n  - ") + "\n"
}
