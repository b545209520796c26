package cli

import (
	"fmt"
	"path/filepath"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// NextSteps says what to do after a finished run, from what it found,
// most useful first: more rounds for the cells it could not decide (or
// more than one round at all), where to read the detail, where the CPU
// went when a cause is the stack's own cost and the run was not profiled,
// the knob search when a fix is a setting, and how to see whether a
// change moved anything. dir is the results directory ("" with
// --no-files); profiled says the run was made with --profile. A run
// made with --ci (ci) is a gate's: its rounds are fixed so that the
// next run's match them, so it is not told to add rounds, and its first
// step is the gate that reads it (GateStep).
func NextSteps(res *results.Results, dir string, profiled, ci bool) []string {
	var cpu, knobs bool
	for _, c := range res.Cells {
		for _, f := range c.Findings {
			cpu = cpu || (f.Rule == "cpu-per-byte" && Profilable(&c))
			knobs = knobs || len(f.Knobs) > 0
		}
	}
	var out []string
	switch {
	case ci:
		out = append(out, GateStep(dir))
	case res.Settings.MaxRepeat <= 1:
		out = append(out, "one round per cell gives no interval: run without --quick, or with --repeat 3 or more")
	default:
		if s := precisionStep(res); s != "" {
			out = append(out, s)
		}
	}
	if dir != "" {
		out = append(out, "--detail for the tables")
	}
	if cpu && !profiled {
		out = append(out, "where the CPU goes: --profile DIR, then httpvs explain")
	}
	if knobs {
		out = append(out, "the settings that close the gap: httpvs tune --write mine.json")
	}
	if dir != "" && !ci {
		out = append(out, "after a change: httpvs compare "+filepath.Join(dir, "results.json")+" NEW/results.json")
	}
	return out
}

// GateStep is a --ci run's next step: the gate of the next build's run
// --ci against this one, or, with no files written, how to get them.
func GateStep(dir string) string {
	if dir == "" {
		return "a gate reads files: run --ci --out DIR (no --no-files), then httpvs compare --fail-on slower OLD NEW"
	}
	return "gate the next build: httpvs compare --fail-on slower " + filepath.Join(dir, "results.json") + " NEW/results.json"
}

// nextWidth is the most columns the next line takes.
const nextWidth = 120

// NextLine is NextSteps in one line, the text report's last: the steps in
// order, as many as fit in nextWidth columns.
func NextLine(steps []string) string {
	line := "next:"
	for _, s := range steps {
		sep := " "
		if line != "next:" {
			sep = "; "
		}
		if len([]rune(line+sep+s)) > nextWidth {
			continue
		}
		line += sep + s
	}
	if line == "next:" {
		return ""
	}
	return line + "\n"
}

// precisionStep says how many cells the run left undetermined and the
// rounds that would decide the widest of them at their ratio and spread;
// "" when none is.
func precisionStep(res *results.Results) string {
	open := 0
	for _, c := range res.Cells {
		if c.VsBaseline != nil && c.VsBaseline.Verdict == results.VerdictUndetermined {
			open++
		}
	}
	if open == 0 {
		return ""
	}
	most := 0
	for _, p := range analysis.PrecisionLimits(res) {
		most = max(most, p.Needed)
	}
	if most <= res.Settings.MaxRepeat {
		return fmt.Sprintf("%d undetermined: a longer --budget", open)
	}
	return fmt.Sprintf("%d undetermined: --max-repeat %d and a --budget to match", open, min(most, 100))
}

// Profilable says a run made with --profile would say where c's extra
// CPU went and this one did not: it profiles the cells the verdict calls
// slower (none in a run of one round per cell).
func Profilable(c *results.Cell) bool {
	return len(c.Attribution) == 0 && c.VsBaseline != nil && c.VsBaseline.Verdict == results.VerdictSlower
}
