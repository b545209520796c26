package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// annotateFlags names, beside each fix's knobs, the flags of this command
// that set them.
func annotateFlags(fs *flagset.Set, res *results.Results) {
	for i := range res.Cells {
		for j := range res.Cells[i].Findings {
			f := &res.Cells[i].Findings[j]
			var parts []string
			for _, k := range f.Knobs {
				if name, ok := fs.FlagFor(k.Field); ok {
					parts = append(parts, flagset.Dash(name)+" "+k.Value)
				}
			}
			if f.Rule == "cpu-per-byte" && render.Profilable(&res.Cells[i]) {
				parts = append(parts, "--profile DIR") // says where the CPU went
			}
			f.Flags = strings.Join(parts, " ")
		}
	}
}

// finishRun prints res in the chosen format, writes the results directory
// (partial runs included) and picks the outcome: an interrupted run fails.
func finishRun(e *env, f *runFlags, res *results.Results) error {
	var print func(io.Writer, *results.Results) error
	switch f.format {
	case "markdown":
		print = report.Markdown
	case "json":
		print = func(w io.Writer, r *results.Results) error { return r.WriteJSON(w) }
	case "benchstat":
		print = report.Benchstat
	default:
		print = report.Matrix
	}
	shown := res
	if w := res.Settings.UDPBuffers; w != "" && w == f.saidUDP && (f.format == "text" || f.format == "markdown") {
		// A sweep's later links: said once, at the top of the output.
		again := *res
		again.Settings.UDPBuffers = ""
		shown = &again
	}
	f.saidUDP = res.Settings.UDPBuffers
	if err := print(e.stdout, shown); err != nil {
		return err
	}
	dir := ""
	if !f.noFiles {
		var err error
		if dir, err = report.WriteRun(f.out, res); err != nil {
			return err
		}
		var names []string
		for _, file := range report.RunFiles(res) {
			names = append(names, file.Name)
		}
		fmt.Fprintf(e.stderr, "httpvs run: wrote %s (%s)\n", dir, strings.Join(names, ", "))
	}
	if !res.Partial && f.format == "text" && res.GoVersions == nil {
		fmt.Fprint(e.stdout, render.NextLine(render.NextSteps(res, dir, f.profile != "")))
	}
	switch n, first := failedCells(res); {
	case res.Partial:
		what := fmt.Sprintf("the %d cells", len(res.Cells))
		if res.GoVersions != nil {
			what = "what was"
		}
		fmt.Fprintf(e.stderr, "httpvs run: %s: the report holds %s measured until then, marked partial\n", res.PartialReason, what)
		return errReported
	case n > 0:
		fmt.Fprintf(e.stderr, "httpvs run: %d cells could not be measured; first: %s\n", n, first)
		return errReported
	}
	if err := browserFailed(e, res); err != nil {
		return err
	}
	return toolchainsFailed(e, f.format, res)
}

// toolchainsFailed fails (exit 1) a run across Go versions in which a
// toolchain was not measured, after a line for each that the printed
// report does not already hold.
func toolchainsFailed(e *env, format string, res *results.Results) error {
	if res.GoVersions == nil {
		return nil
	}
	var failed []string
	for _, tc := range res.GoVersions.Toolchains {
		if tc.Error != "" {
			failed = append(failed, tc.Name())
			if format != "text" {
				fmt.Fprintf(e.stderr, "httpvs run: %s not measured: %s\n", tc.Name(), tc.Error)
			}
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(e.stderr, "httpvs run: %d of %d toolchains not measured (%s); the others were\n", len(failed), len(res.GoVersions.Toolchains), strings.Join(failed, ", "))
		return errReported
	}
	return nil
}

// failedCells counts the cells whose check failed, and names the first.
func failedCells(res *results.Results) (n int, first string) {
	for _, c := range res.Cells {
		if c.Failed {
			if n == 0 {
				first = c.Scenario + "/" + c.Protocol + ": " + c.Skipped
			}
			n++
		}
	}
	return n, first
}

// checkOut makes sure, before any measuring, that run can write its
// results under dir; noFiles skips the check. A directory it had to
// create for the check it removes again, so that a run that ends before
// writing leaves nothing behind; report.WriteRun creates it for good.
func checkOut(dir string, noFiles bool) error {
	if noFiles {
		return nil
	}
	_, statErr := os.Stat(dir)
	created := os.IsNotExist(statErr)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("--out %s: cannot create it: %v", dir, flagset.UnwrapPath(err))
	}
	probe, err := os.CreateTemp(dir, ".httpvs-write-check-*")
	if err != nil {
		return usagef("--out %s: cannot write there: %v", dir, flagset.UnwrapPath(err))
	}
	probe.Close()
	if err := os.Remove(probe.Name()); err != nil {
		return err
	}
	if created {
		// Only the last element: MkdirAll may have made parents too,
		// which stay (they are empty, and harmless).
		return os.Remove(dir)
	}
	return nil
}

// progressLine shows where a run is on one terminal line.
type progressLine struct {
	w     io.Writer
	shown bool
}

func (p *progressLine) update(pr plan.Progress) {
	left := "estimating time left"
	if pr.Remaining > 0 {
		left = "about " + pr.Remaining.Round(time.Second).String() + " left"
	}
	rep := fmt.Sprintf("repetition %d", pr.Repetition)
	if pr.Warmup {
		rep = "warm-up round (discarded)"
	}
	fmt.Fprintf(p.w, "\r\033[K[%d/%d] %s over %s, %s; %s",
		pr.Done+1, pr.Total, pr.Scenario, pr.Protocol, rep, left)
	p.shown = true
}

// text shows line as the progress.
func (p *progressLine) text(line string) {
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

// clear erases the progress line; p may be nil.
func (p *progressLine) clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
