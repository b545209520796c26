package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
)

// Matrix writes a matrix run as text: a header saying what ran where, then
// a table per scenario with the transports as columns, each cell's median
// and its ratio to h1 (above 1.00x: faster than HTTP/1.1), and notes. A
// run across Go versions (res.GoVersions) it writes as GoVersions does.
func Matrix(w io.Writer, res *results.Results) error {
	if res.GoVersions != nil {
		return GoVersions(w, res)
	}
	bw := &printer{w: w}
	if res.Partial {
		fmt.Fprintln(bw, wrapLines(fmt.Sprintf("PARTIAL: %s: the cells below are what was measured until then", res.PartialReason)))
	}
	fmt.Fprintln(bw, wrapLines(runLine(res)))
	if n := res.Settings.Net; n != nil {
		fmt.Fprintln(bw, wrapLines(verdict.NetSummary(n)))
	}
	for _, n := range runNotes(res) {
		fmt.Fprintln(bw, wrapLines(n))
	}
	if len(res.NotRun) > 0 {
		fmt.Fprintln(bw, "not run (the target lacks them):")
		for _, n := range res.NotRun {
			fmt.Fprintf(bw, "  %s\n", n)
		}
	}
	if len(res.Sizing) > 0 {
		fmt.Fprintln(bw, "your requests' rounds, sized from a probe:")
		for _, s := range res.Sizing {
			fmt.Fprintf(bw, "  %s\n", s)
		}
	}
	textVerdict(bw, res)
	for _, g := range grids(res) {
		fmt.Fprintf(bw, "\n%s\n", g.title)
		if len(g.rows) > 0 {
			tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
			for _, r := range append([][]string{g.head}, g.rows...) {
				fmt.Fprintf(tw, "%s\t%s\t\n", r[0], strings.Join(r[1:], "\t"))
			}
			tw.Flush()
		}
		for _, n := range g.notes {
			fmt.Fprintf(bw, "  note: %s\n", n)
		}
	}
	browserText(bw, res)
	textFullFixes(bw, res)
	if res.Partial {
		fmt.Fprintf(bw, "\nPARTIAL: %s; the cells above are what was measured until then.\n", res.PartialReason)
	}
	return bw.err
}

// runLine says in one line what ran where.
func runLine(res *results.Results) string {
	e, s := res.Env, res.Settings
	target := "httpvs serve as a child process on loopback"
	if s.Target != "child" {
		target = strings.TrimSpace(s.Target + " " + s.TLSTarget)
	}
	if s.Net != nil {
		target = "httpvs serve as a child process across an emulated link"
	}
	cpu := e.CPUModel
	if cpu == "" {
		cpu = "CPU unknown"
	}
	size := "sized per transport to take ~" + seconds(s.DurationSeconds)
	if s.Net != nil {
		size = "sized by the link's rate to run ~" + seconds(s.DurationSeconds) + " past their handshakes and slow start, which their rates omit"
		if s.LossEvents > 0 {
			size += fmt.Sprintf(", and to see %d loss events each", s.LossEvents)
		}
	}
	if s.SizeBytes > 0 {
		size = fmt.Sprintf("%d bytes", s.SizeBytes)
	}
	knobs := knobSetName(res)
	return fmt.Sprintf("httpvs run %s: %s; %s/%s, %s, %d cores, GOMAXPROCS %d, %s%s; knobs %s; %s%s, load %s each, transfers %s, %s engine; medians, * marks a spread over %.0f%%",
		e.Version, target, e.OS, e.Arch, cpu, e.Cores, e.GOMAXPROCS, e.GoVersion, pinText(s.Pin, s.Unpinned), knobs, runRoundsText(res), orderText(s), seconds(s.DurationSeconds), size, s.Engine, verdict.NoisySpread*100)
}

// pinText says where the run pinned its two sides, or why it did not
// when it would have; "" otherwise.
func pinText(p *results.Pin, unpinned string) string {
	if p == nil {
		if unpinned != "" {
			return " (not pinned: " + unpinned + ")"
		}
		return ""
	}
	return fmt.Sprintf(" (pinned: generator on CPU %s, server on CPU %s, GOMAXPROCS %d and %d: each side has %s to itself; --pin=false shares them)",
		cpus(p.ClientCPUs), cpus(p.ServerCPUs), p.ClientGOMAXPROCS, p.ServerGOMAXPROCS, coresWord(len(p.ClientCPUs)))
}

func cpus(list []int) string {
	s := make([]string, len(list))
	for i, c := range list {
		s[i] = fmt.Sprint(c)
	}
	return strings.Join(s, ",")
}

func coresWord(n int) string {
	if n == 1 {
		return "one core"
	}
	return fmt.Sprintf("%d cores", n)
}

// orderText says how each round ordered its columns; "" for results
// written before rounds were shuffled.
func orderText(s results.Settings) string {
	if s.Seed == 0 {
		return ""
	}
	t := fmt.Sprintf(", columns in a fresh random order each round (seed %d)", s.Seed)
	if s.WarmupRounds > 0 {
		t += fmt.Sprintf(" after %d warm-up round(s), discarded", s.WarmupRounds)
	}
	return t
}

// textVerdict prints the verdict table, the main causes under each
// scenario, and each fix once.
func textVerdict(w io.Writer, res *results.Results) {
	v := newVerdict(res)
	if len(v.head) < 2 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", wrapLines(v.title(res)))
	// No padding after the last cell: the table keeps its width for
	// the cells.
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  %s\n", strings.Join(v.head, "\t"))
	compact := false
	for i, r := range v.rows {
		row := []string{r[0]}
		for j, text := range r[1:] {
			c := v.grid[i][j]
			mb := c != nil && c.VsH1 != nil && c.VsH1.Verdict != results.VerdictSimilar && verdict.MachineBound(c, res)
			row = append(row, compactCell(c, text, v.net, mb))
			compact = compact || row[len(row)-1] != text
		}
		fmt.Fprintf(tw, "  %s\n", strings.Join(row, "\t"))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(table.String(), "\n") {
		fmt.Fprint(w, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
	}
	if compact {
		fmt.Fprintln(w, wrapLines("  "+compactLegend(v.baseName())))
	}
	for _, line := range []string{v.noise, v.variants, v.refs} {
		if line != "" {
			fmt.Fprintln(w, wrapLines(line))
		}
	}
	var whys []string
	for i, why := range v.whys {
		if why != "" {
			whys = append(whys, wrapLines(fmt.Sprintf("  %s: %s", v.rows[i][0], why)))
		}
	}
	if len(whys) > 0 {
		fmt.Fprintf(w, "main causes (rules below):\n%s\n", strings.Join(whys, "\n"))
	}
	for _, line := range v.link {
		fmt.Fprintln(w, wrapLines(line))
	}
	textReferences(w, res)
	if len(v.fixes) > 0 {
		head := "\nwhat to change (each cause once, with its cells; the evidence under each table):"
		if len(v.fullFixes) > 0 {
			head = "\nwhat to change (each cause once, with its cells; the evidence under each table; a fix cut short here is in full at the end):"
		}
		fmt.Fprintln(w, wrapLines(head))
		for _, f := range v.fixes {
			fmt.Fprintln(w, wrapLines("  - "+f))
		}
	}
	fmt.Fprintln(w, "\ndetail:")
}

// textFullFixes prints each distinct fix in full, with its cells.
func textFullFixes(w io.Writer, res *results.Results) {
	v := newVerdict(res)
	if len(v.fullFixes) == 0 {
		return
	}
	fmt.Fprintln(w, "\nfixes in full:")
	for _, f := range v.fullFixes {
		fmt.Fprintf(w, "  - %s\n", f)
	}
}

// roundsText says how many rounds the settings planned for each cell.
func roundsText(s results.Settings) string {
	if s.MaxRepeat <= s.Repeat {
		return fmt.Sprintf("%d repetition(s) per cell", s.Repeat)
	}
	return fmt.Sprintf("%d to %d repetitions per cell (%d round(s) added where the interval to %s was wider than ±%.0f%%)",
		s.Repeat, s.MaxRepeat, s.ExtraRounds, s.BaselineProtocol(), verdict.StableHalfWidth*100)
}
