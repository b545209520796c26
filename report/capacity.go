package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// Capacity writes a capacity search (httpvs run --slo) as text: per
// transport the highest rate that met the objective, the lowest that
// missed it and how, the ratio to the baseline with the interval the two
// brackets allow, and the server's CPU at that rate (and where it came
// from when not its counters); then what was not run.
func Capacity(w io.Writer, c *results.Capacity, notRun []results.NotRun) error {
	bw := &printer{w: w}
	fmt.Fprintln(bw, wrap(fmt.Sprintf("capacity at %s, %s: the highest open-loop rate each transport carried within the objective, latency from each request's intended send time", c.Objective.Text, c.Request), textWidth, "", "  "))
	if c.Net != nil {
		fmt.Fprintln(bw, wrap(NetSummary(c.Net), textWidth, "", "  "))
	}
	n := searches(c)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	each := ""
	if n > 1 {
		each = "met in each search\t"
	}
	fmt.Fprintf(tw, "  \tmet\tmissed at\t%svs %s\tserver cores\t\n", each, orDash(c.Baseline))
	for _, t := range c.Transports {
		if n > 1 {
			each = metEach(t) + "\t"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s%s\t%s\t\n", t.Protocol, rate(t.Met), missedText(t), each, capacityRatio(t, c.Baseline), coresText(t.ServerCores))
	}
	tw.Flush()
	fmt.Fprintln(bw, wrap(capacityLegend(c, n), textWidth, "  ", "  "))
	if c.ServerCPU != "" {
		fmt.Fprintln(bw, wrap(c.ServerCPU, textWidth, "  ", "    "))
	}
	if line := boundLine(c); line != "" {
		fmt.Fprintln(bw, wrap(line, textWidth, "  ", "    "))
	}
	if c.Stopped != "" {
		fmt.Fprintf(bw, "  stopped: %s\n", c.Stopped)
	}
	for _, n := range notRun {
		fmt.Fprintf(bw, "  not run: %s\n", notRunText(n, nil))
	}
	return bw.err
}

// boundLine holds the rates against what the search's requests in
// flight carry over the link's round trip, naming the transports whose
// miss is past it; "" on loopback.
func boundLine(c *results.Capacity) string {
	if c.InFlightBound <= 0 || c.Net == nil {
		return ""
	}
	s := fmt.Sprintf("%d requests in flight at most carry at most %s req/s over the link's %.1f ms TCP round trip (Little's law)", c.InFlight, rate(c.InFlightBound), c.Net.Calibration.TCPConnectSeconds*1000)
	var past []string
	for _, t := range c.Transports {
		if t.PastBound {
			past = append(past, t.Protocol)
		}
	}
	if len(past) == 0 {
		return s + ": every rate missed is below it"
	}
	return s + fmt.Sprintf("; %s missed past it: there the bound, not the server, may have missed the objective (a search with more in flight would tell)", strings.Join(past, ", "))
}

// capacityLegend says what the table's figures are: brackets are the
// search's resolution; the ratio's interval and verdict come from
// repeated searches, or there is no verdict.
func capacityLegend(c *results.Capacity, n int) string {
	s := fmt.Sprintf("(rates in requests per second, %d tried in all; met and missed bracket the capacity in the median search: the search's resolution, not an interval", steps(c))
	if n <= 1 {
		return s + "; one search: the ratio shows the resolution its brackets allow, and with no spread between searches it has no verdict (a longer budget repeats the search))"
	}
	return s + fmt.Sprintf("; the ratio is the geometric mean over %d searches, with a 95%% interval the wider of their spread (Student's t) and their resolution; ≈ where it holds 1 and excludes a difference of %.0f%%, undetermined where it cannot)", n, vocab.Matters*100)
}

// searches is the most searches any transport made.
func searches(c *results.Capacity) int {
	n := 0
	for _, t := range c.Transports {
		n = max(n, len(t.Searches))
	}
	return n
}

// metEach is each search's Met, a cut one marked.
func metEach(t results.CapacityResult) string {
	var parts []string
	for _, b := range t.Searches {
		s := rate(b.Met)
		if b.Cut {
			s += " (cut)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
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
	case t.VsBaseline == nil && t.Met > 0 && baseline != "":
		return "- (no bracket closed: both carried every rate tried)"
	case t.VsBaseline == nil:
		return "-"
	}
	r := t.VsBaseline
	if r.Searches < 2 {
		return fmt.Sprintf("%.2fx (resolution %s to %s)", r.Ratio, bound(r.ResolutionLow), bound(r.ResolutionHigh))
	}
	word := map[string]string{results.VerdictFaster: "carries more", results.VerdictSlower: "carries less", results.VerdictSimilar: "≈", results.VerdictUndetermined: "undetermined"}[r.Verdict]
	return strings.TrimSpace(fmt.Sprintf("%.2fx [%s, %s] %s", r.Ratio, bound(r.Low), bound(r.High), word))
}

// bound is a ratio's bound, "open" where it is zero (a bracket open on
// that side).
func bound(x float64) string {
	if x <= 0 {
		return "open"
	}
	return fmt.Sprintf("%.2f", x)
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
