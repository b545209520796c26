package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/httpvs/httpvs/results"
)

// Capacity writes a capacity search (httpvs run --slo) as text: per
// transport the highest rate that met the objective, the lowest that
// missed it and how, the ratio to the baseline with the interval the two
// brackets allow, and the server's CPU at that rate; then what was not
// run.
func Capacity(w io.Writer, c *results.Capacity, notRun []results.NotRun) error {
	bw := &printer{w: w}
	fmt.Fprintf(bw, "capacity at %s, %s: the highest open-loop rate each transport carried within the objective, latency from each request's intended send time\n", c.Objective.Text, c.Request)
	if c.Net != nil {
		fmt.Fprintln(bw, c.Net.Summary())
	}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  \tmet\tmissed at\tvs %s\tserver cores\t\n", orDash(c.Baseline))
	for _, t := range c.Transports {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t\n", t.Protocol, rate(t.Met), missedText(t), capacityRatio(t, c.Baseline), coresText(t.ServerCores))
	}
	tw.Flush()
	fmt.Fprintf(bw, "  (rates in requests per second; the capacity lies between met and missed: the search's resolution, %d rates tried in all)\n", steps(c))
	if c.Stopped != "" {
		fmt.Fprintf(bw, "  stopped: %s\n", c.Stopped)
	}
	for _, n := range notRun {
		fmt.Fprintf(bw, "  not run: %s\n", n)
	}
	return bw.err
}

// capacityMarkdown is a capacity search's report.md: a heading naming
// the objective and when the search began (UTC), then the text Capacity
// writes, in a code block.
func capacityMarkdown(w io.Writer, c *results.Capacity, notRun []results.NotRun, began time.Time) error {
	fmt.Fprintf(w, "# httpvs run --slo '%s', %s\n\n```\n", c.Objective.Text, began.UTC().Format("2006-01-02 15:04:05 UTC"))
	if err := Capacity(w, c, notRun); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "```")
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func rate(r float64) string {
	if r <= 0 {
		return "none"
	}
	return fmt.Sprintf("%.0f", r)
}

func missedText(t results.CapacityResult) string {
	if t.Missed <= 0 {
		return "none up to the search's bound"
	}
	return fmt.Sprintf("%.0f (%s)", t.Missed, t.MissedBecause)
}

func capacityRatio(t results.CapacityResult, baseline string) string {
	switch {
	case t.Protocol == baseline:
		return "1.00x"
	case t.VsBaseline == nil:
		return "-"
	}
	r := t.VsBaseline
	high := "open"
	if r.High > 0 {
		high = fmt.Sprintf("%.2f", r.High)
	}
	word := map[string]string{results.VerdictFaster: "carries more", results.VerdictSlower: "carries less", results.VerdictSimilar: "≈"}[r.Verdict]
	return strings.TrimSpace(fmt.Sprintf("%.2fx [%.2f, %s] %s", r.Ratio, r.Low, high, word))
}

func coresText(c *float64) string {
	if c == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", *c)
}

func steps(c *results.Capacity) int {
	n := 0
	for _, t := range c.Transports {
		n += len(t.Steps)
	}
	return n
}
