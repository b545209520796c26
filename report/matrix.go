package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// Matrix writes a matrix run as text: the first screen (Screen, with the
// fixes as library fields), then the detail (Detail). A run across Go
// versions (res.GoVersions) it writes as GoVersions does.
func Matrix(w io.Writer, res *results.Results) error {
	if res.GoVersions != nil {
		return GoVersions(w, res)
	}
	if err := Screen(w, res, nil); err != nil {
		return err
	}
	return Detail(w, res)
}

// Detail writes what a run's first screen leaves out: how it ran, the
// link, the sizing of the user's requests, a table per scenario with the
// transports as columns (each cell's median, its ratio to the baseline,
// the evidence of its findings), the reference peers, the browser, and
// each fix in full.
func Detail(w io.Writer, res *results.Results) error {
	bw := &printer{w: w}
	fmt.Fprintln(bw, "\ndetail:")
	fmt.Fprintln(bw, wrapLines(runLine(res)))
	if n := foldedServerNote(res); n != "" {
		fmt.Fprintln(bw, wrapLines(n))
	}
	if len(res.Sizing) > 0 {
		fmt.Fprintln(bw, "your requests' rounds, sized from a probe:")
		for _, s := range res.Sizing {
			fmt.Fprintf(bw, "  %s\n", s)
		}
	}
	for _, line := range append([]string{noiseLine(res)}, linkLines(res)...) {
		if line != "" {
			fmt.Fprintln(bw, wrapLines(line))
		}
	}
	textReferences(bw, res)
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
	textFullFixes(bw, res)
	if res.Partial {
		fmt.Fprintf(bw, "\nPARTIAL: %s; the cells above are what was measured until then.\n", res.PartialReason)
	}
	return bw.err
}

// runLine says in one line what ran where.
func runLine(res *results.Results) string {
	e, s := res.Env, res.Settings
	target := "its own payload server, a child process (the program re-executed), on loopback"
	if s.Target != "child" {
		target = strings.TrimSpace(s.Target + " " + s.TLSTarget)
	}
	if s.Net != nil {
		target = "its own payload server, a child process (the program re-executed), across an emulated link"
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
		e.Version, target, e.OS, e.Arch, cpu, e.Cores, e.GOMAXPROCS, e.GoVersion, pinText(s.Pin, s.Unpinned), knobs, runRoundsText(res), orderText(s), seconds(s.DurationSeconds), size, s.Engine, vocab.NoisySpread*100)
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

// textFullFixes prints each distinct fix in full, with its cells.
func textFullFixes(w io.Writer, res *results.Results) {
	full := fullFixes(res)
	if len(full) == 0 {
		return
	}
	fmt.Fprintln(w, "\nfixes in full:")
	for _, f := range full {
		fmt.Fprintf(w, "  - %s\n", f)
	}
}

// roundsText says how many rounds the settings planned for each cell.
func roundsText(s results.Settings) string {
	if s.MaxRepeat <= s.Repeat {
		return fmt.Sprintf("%d repetition(s) per cell", s.Repeat)
	}
	return fmt.Sprintf("%d to %d repetitions per cell (%d round(s) added where the interval to %s was wider than ±%.0f%%)",
		s.Repeat, s.MaxRepeat, s.ExtraRounds, s.BaselineProtocol(), vocab.StableHalfWidth*100)
}

// linkLine is the emulated link the run crossed, as set and as measured;
// "" on loopback.
func linkLine(res *results.Results) string {
	if res.Settings.Net == nil {
		return ""
	}
	return NetSummary(res.Settings.Net)
}
