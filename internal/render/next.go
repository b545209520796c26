package render

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
)

// NextSteps says what to do after a finished run, from what it found:
// where the CPU went when a cause is the stack's own cost and the run was
// not profiled, the knob search when a fix is a setting, more rounds when
// cells are unstable, and how to see whether a change moved anything.
// dir is the results directory ("" with --no-files); profiled says the
// run was made with --profile.
func NextSteps(res *results.Results, dir string, profiled bool) []string {
	var cpu, knobs bool
	unstable := 0
	for _, c := range res.Cells {
		for _, f := range c.Findings {
			cpu = cpu || (f.Rule == "cpu-per-byte" && Profilable(&c))
			knobs = knobs || len(f.Knobs) > 0
		}
		if c.VsH1 != nil && (res.Settings.Sequential == nil && verdict.HalfWidth(*c.VsH1) > verdict.PrecisionOf(res.Settings) ||
			res.Settings.Sequential != nil && c.VsH1.Verdict == results.VerdictUndetermined) {
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
		out = append(out, precisionSteps(res, unstable)...)
	}
	if dir != "" {
		out = append(out, "after a change: httpvs compare "+filepath.Join(dir, "results.json")+" NEW/results.json")
	}
	return out
}

// NextLine is NextSteps in one block, the text report's last.
func NextLine(steps []string) string {
	if len(steps) == 0 {
		return ""
	}
	return "\nnext:\n  - " + strings.Join(steps, "\n  - ") + "\n"
}

// precisionSteps says what keeps the unstable cells wide, from the widest
// few: which side's cost per unit moved and by how much, the rounds their
// spread would need, and what would help.
func precisionSteps(res *results.Results, unstable int) []string {
	limits := verdict.PrecisionLimits(res)
	if len(limits) == 0 {
		return nil
	}
	unit := "unit"
	var lines []string
	most := 0
	for i, p := range limits {
		most = max(most, p.Needed)
		if i >= 3 {
			continue
		}
		if c := res.Cell(p.Scenario, p.Protocol); c != nil && c.CPUUnit != "" {
			unit = c.CPUUnit
		}
		need := fmt.Sprintf("%d rounds would do at this spread", p.Needed)
		if res.Settings.Sequential != nil {
			need = fmt.Sprintf("--max-repeat %d would decide it at this ratio and spread", p.Needed)
		}
		if p.Needed == 0 {
			need = "more than 100 rounds would be needed at this spread"
		}
		why := ""
		if p.Side != "" {
			why = fmt.Sprintf("; the %s's CPU per %s under %s moved ±%.0f%% between rounds (the %s's at most ±%.0f%%)", p.Side, unit, p.Column, 100*p.Moved, otherSide(p.Side), 100*p.Other)
		}
		lines = append(lines, fmt.Sprintf("%s/%s ±%.0f%% after %d rounds (%s)%s", p.Scenario, p.Protocol, 100*p.HalfWidth, p.Pairs, need, why))
	}
	plan := "added rounds are planned from each cell's first rounds within them"
	if res.Settings.Sequential != nil {
		plan = "added rounds go to the undetermined cells within them"
	}
	help := "more time (--budget, --max-repeat: " + plan + ")"
	if most > res.Settings.MaxRepeat {
		help = fmt.Sprintf("more time (--max-repeat %d and a --budget to match: %s)", min(max(most, res.Settings.MaxRepeat+1), 100), plan)
	}
	help += ", fewer transports or scenarios (--protocols, --scenarios: shorter rounds, more of them in the budget)"
	switch s := res.Settings; {
	case s.Unpinned != "":
		help += ", a quieter machine, where the run pins the generator and the server to their own cores (not pinned: " + s.Unpinned + ")"
	case s.Pin == nil && s.Target == "child" && s.Net == nil && res.Env.Cores >= 2:
		help += ", pinning the generator and the server to their own cores (--pin: more cells settle, but each side then has one core, a different machine from Go as shipped on this one)"
	}
	open := fmt.Sprintf("not known within ±%.0f%%", verdict.PrecisionOf(res.Settings)*100)
	if res.Settings.Sequential != nil {
		open = "undetermined"
	}
	return []string{fmt.Sprintf("%d cell(s) %s; the widest: %s. What would help: %s", unstable, open, strings.Join(lines, "; "), help)}
}

func otherSide(side string) string {
	if side == "client" {
		return "server"
	}
	return "client"
}

// Profilable says a run made with --profile would say where c's extra
// CPU went and this one did not: it profiles the cells the verdict calls
// slower (none in a run of one round per cell).
func Profilable(c *results.Cell) bool {
	return len(c.Attribution) == 0 && c.VsH1 != nil && c.VsH1.Verdict == results.VerdictSlower
}
