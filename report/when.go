package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// when is the verdict across links: a row per scenario and transport, a
// column per run (one link profile each).
type when struct {
	head  []string          // "", "", then each run's link
	calib []string          // "measured", "", then each run's measured link
	loss  []string          // "loss up/down", "", then each run's loss set and met
	cc    []string          // "controllers", "", then each run's TCP and QUIC congestion controls
	rows  [][]string        // scenario (first row of its group only), transport, a verdict per run
	grid  [][]*results.Cell // each row's cell per run; nil where the run has none
}

// linkName is the link a run crossed: its spec, or "loopback".
func linkName(res *results.Results) string {
	if n := res.Settings.Net; n != nil {
		return n.Spec
	}
	return "loopback"
}

// linkMeasured is a run's calibrated link in a few words.
func linkMeasured(res *results.Results) string {
	n := res.Settings.Net
	if n == nil {
		return "-"
	}
	c := n.Calibration
	return fmt.Sprintf("%.0f ms, %s down", c.UDPRTTSeconds*1e3, units.BitsPerSecond(downRate(n)))
}

// linkLoss is the loss a run's link was set to and the loss it dealt the
// cells, each up/down: the loss model's drops over the packets that
// entered each direction, summed over every cell's completed repetitions
// (the link's counters over all the cells when no repetition has its own).
func linkLoss(res *results.Results) string {
	n := res.Settings.Net
	if n == nil {
		return "-"
	}
	var sum results.RepetitionLink
	for i := range res.Cells {
		if l := res.Cells[i].LinkTotal; l != nil {
			sum.Up.Packets, sum.Up.Lost = sum.Up.Packets+l.Up.Packets, sum.Up.Lost+l.Up.Lost
			sum.Down.Packets, sum.Down.Lost = sum.Down.Packets+l.Down.Packets, sum.Down.Lost+l.Down.Lost
		}
	}
	if sum.Up.Packets+sum.Down.Packets == 0 {
		sum.Up, sum.Down = n.UpCounters, n.DownCounters
	}
	met := "-"
	if sum.Up.Packets+sum.Down.Packets > 0 {
		met = pair(lossFraction(sum.Up), lossFraction(sum.Down))
	}
	return "set " + pair(n.Up.Loss, n.Down.Loss) + ", measured " + met
}

func newWhen(runs []*results.Results) when {
	w := when{head: []string{"", ""}, calib: []string{"measured", ""}, loss: []string{"loss up/down", ""}, cc: []string{"controllers", ""}}
	var scenarios []string
	protos := map[string][]string{}
	for _, res := range runs {
		w.head = append(w.head, linkName(res))
		w.calib = append(w.calib, linkMeasured(res))
		w.loss = append(w.loss, linkLoss(res))
		w.cc = append(w.cc, linkControllers(res))
		for _, name := range res.ScenarioNames() {
			if protos[name] == nil {
				scenarios = append(scenarios, name)
				protos[name] = []string{}
			}
			for _, p := range res.ProtocolNames(name) {
				if p != res.Settings.BaselineProtocol() && !slices.Contains(protos[name], p) {
					protos[name] = append(protos[name], p)
				}
			}
		}
	}
	for _, name := range scenarios {
		for i, p := range protos[name] {
			row := []string{"", p}
			if i == 0 {
				row[0] = name
			}
			var cells []*results.Cell
			for _, res := range runs {
				c := res.Cell(name, p)
				row = append(row, cellText(c, res.Settings.BaselineProtocol(), res.Settings.Net))
				cells = append(cells, c)
			}
			w.rows = append(w.rows, row)
			w.grid = append(w.grid, cells)
		}
	}
	return w
}

// whenTitle heads the table.
const whenTitle = "when: each transport's throughput or req/s over h1's on each link (geometric mean of the rounds' ratios, 95% interval; ≈ h1 where it holds 1)"

// When prints the verdict of runs over several links side by side (httpvs
// run --net a,b,c): for each scenario and transport, its ratio to h1 on
// each link, so the links where a transport wins or loses read across.
func When(w io.Writer, runs []*results.Results) error {
	bw := &printer{w: w}
	wt := newWhen(runs)
	fmt.Fprintln(bw, whenTitle)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	for _, r := range append([][]string{wt.head, wt.calib, wt.loss, wt.cc}, wt.rows...) {
		fmt.Fprintln(tw, "  "+strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
	for _, line := range whenAcross(runs) {
		fmt.Fprintln(bw, line)
	}
	return bw.err
}

// WhenMarkdown is When as a Markdown table.
func WhenMarkdown(w io.Writer, runs []*results.Results) error {
	bw := &printer{w: w}
	wt := newWhen(runs)
	fmt.Fprintf(bw, "## When\n\n%s\n\n", strings.TrimPrefix(whenTitle, "when: "))
	head := append([]string{"scenario", "transport"}, wt.head[2:]...)
	fmt.Fprintf(bw, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, r := range append([][]string{wt.calib, wt.loss, wt.cc}, wt.rows...) {
		fmt.Fprintf(bw, "| %s |\n", strings.Join(r, " | "))
	}
	if lines := whenAcross(runs); len(lines) > 0 {
		fmt.Fprintf(bw, "\n```\n%s\n```\n", strings.Join(lines, "\n"))
	}
	return bw.err
}

// whenAcross says, per transport, where it wins, loses or ties on each
// link and why (wordOf), then where the link stops deciding (the first
// run's crossover: one machine, one answer).
func whenAcross(runs []*results.Results) []string {
	var lines []string
	seen := map[string]bool{}
	for _, res := range runs {
		for _, p := range res.ProtocolNames("") {
			if seen[p] || p == res.Settings.BaselineProtocol() {
				continue
			}
			seen[p] = true
			var parts []string
			for _, r := range runs {
				if s := linkWords(r, p); s != "" {
					parts = append(parts, "on "+linkName(r)+" "+s)
				}
			}
			if len(parts) > 0 {
				lines = append(lines, fmt.Sprintf("  %s against %s: %s", p, res.Settings.BaselineProtocol(), strings.Join(parts, "; ")))
			}
		}
	}
	if len(lines) > 0 {
		lines = append([]string{"in words:"}, lines...)
	}
	lines = append(lines, controllerLines(runs)...)
	for _, res := range runs {
		if x := crossoverLines(res); x != nil {
			return append(lines, x...)
		}
	}
	return lines
}

// linkWords is one run's verdict for p in words: the scenarios it ties on
// counted, those it wins or loses on named with their reasons.
func linkWords(res *results.Results, p string) string {
	var ties int
	var others []string
	for _, name := range res.ScenarioNames() {
		class, why := wordOf(res.Cell(name, p), res.Cell(name, res.Settings.BaselineProtocol()), res)
		switch class {
		case "":
		case "ties on":
			ties++
		default:
			others = append(others, fmt.Sprintf("%s %s (%s)", strings.TrimSuffix(class, " on"), name, why))
		}
	}
	if ties > 0 {
		others = append([]string{fmt.Sprintf("ties on %d scenario(s)", ties)}, others...)
	}
	return strings.Join(others, ", ")
}
