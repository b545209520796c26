package cli

import (
	"fmt"
	"io"

	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// RunFormats print a run's results in each format run takes.
var RunFormats = map[string]func(io.Writer, *results.Results) error{
	"text": report.Matrix, "markdown": report.Markdown, "benchstat": report.Benchstat,
	"json": func(w io.Writer, r *results.Results) error { return r.WriteJSON(w) },
}

// Runs prints runs one after another on one writer, a sweep's links: a
// text or Markdown report says the machine's UDP buffer warning, the same
// for every link, once, at the top of the output (each run's results
// keep it).
type Runs struct {
	saidUDP string // the warning a report printed already
	// Flags names the command's flag for a fix's field, for the first
	// screen's footnotes; Detail adds the detail tables to the text.
	Flags  func(field string) (flag string, ok bool)
	Detail bool
}

// Print prints res to w in format, one of RunFormats.
func (p *Runs) Print(w io.Writer, format string, res *results.Results) error {
	shown := res
	if udp := res.Settings.UDPBuffers; udp != "" && udp == p.saidUDP && (format == "text" || format == "markdown") {
		again := *res
		again.Settings.UDPBuffers = ""
		shown = &again
	}
	p.saidUDP = res.Settings.UDPBuffers
	if format == "text" && shown.GoVersions == nil {
		if err := report.Screen(w, shown, p.Flags); err != nil || !p.Detail {
			return err
		}
		return report.Detail(w, shown)
	}
	return RunFormats[format](w, shown)
}

// Across prints the verdict across a sweep's runs, one a link, after
// their reports: in text or Markdown, after a blank line; the other
// formats print none.
func Across(w io.Writer, format string, runs []*results.Results) error {
	switch format {
	case "text":
		fmt.Fprintln(w)
		return report.When(w, runs)
	case "markdown":
		fmt.Fprintln(w)
		return report.WhenMarkdown(w, runs)
	}
	return nil
}

// Capacity prints a capacity search's results (run --slo) in format:
// json as capacity.json holds them, else text.
func Capacity(w io.Writer, format string, c *results.Capacity, notRun []results.NotRun) error {
	if format == "json" {
		return results.CapacityFile{Capacity: c, NotRun: notRun}.WriteJSON(w)
	}
	return report.Capacity(w, c, notRun)
}
