package report

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// grid is one scenario of a matrix run laid out for a table: a row per
// figure, a column per transport. The text, Markdown and HTML renderers
// all draw it.
type grid struct {
	scenario results.ScenarioInfo
	title    string     // "download: one big download on one stream (golang/go#47840)"
	head     []string   // "", then the transports
	rows     [][]string // the figure's name, then a value per transport
	cells    []*results.Cell
	notes    []string // skipped cells, errors, noisy cells, bottlenecks
	// same holds the medians printed: each over the rounds its ratio used.
	same sameRounds
}

// grids lays out every scenario of res that has cells.
func grids(res *results.Results) []grid {
	var out []grid
	folded := foldedServerNote(res) != "" // said once, at the top
	for _, name := range res.ScenarioNames() {
		protos := res.ProtocolNames(name)
		sc := scenarioInfo(res.Judgement, name)
		g := grid{scenario: sc, title: scenarioTitle(sc)}
		g.head = append([]string{""}, protos...)
		for _, p := range protos {
			g.cells = append(g.cells, res.Cell(name, p))
		}
		g.fill(res.Settings.Repeat, folded)
		g.linkRows(res.Settings.Net)
		if g.allSkipped() {
			g.rows = nil
		}
		out = append(out, g)
	}
	return out
}

// row appends a row whose value for each measured cell is f(cell).
func (g *grid) row(name string, f func(c *results.Cell) string) {
	r := []string{name}
	for _, c := range g.cells {
		switch {
		case c == nil:
			r = append(r, "")
		case c.Skipped != "" && c.Failed && len(g.rows) == 0:
			r = append(r, "failed")
		case c.Skipped != "" && len(g.rows) == 0:
			r = append(r, "skipped")
		case c.Skipped != "":
			r = append(r, "")
		case len(c.Repetitions) == 0:
			r = append(r, "-")
		case name != "errors" && c.MedianRepetition == 0:
			r = append(r, "-") // no repetition counts: no figure, only its errors
		default:
			r = append(r, f(c))
		}
	}
	g.rows = append(g.rows, r)
}

// fill lays out g's rows and notes; folded leaves out the server figures'
// reason, which the report states once for every table (foldedServerNote).
func (g *grid) fill(repeat int, folded bool) {
	transfer := g.metric() == results.MetricBytesPerSecond
	g.same = newSameRounds(g.cells, g.baseline())
	g.row("median", func(c *results.Cell) string {
		v := metricValue(c.Metric, g.same.of(c))
		if c.Noisy {
			v += " *"
		}
		if c.Partial != "" {
			v += " !"
		}
		return v
	})
	g.row("vs "+g.baseline(), func(c *results.Cell) string {
		if g.same.against(c) != "" {
			return estimateText(c) + " " + sameRoundsMark
		}
		return estimateText(c)
	})
	if repeat > 1 {
		g.row("min..max", func(c *results.Cell) string {
			lo, hi := metricValue(c.Metric, c.Min), metricValue(c.Metric, c.Max)
			if i := strings.LastIndexByte(lo, ' '); i > 0 && strings.HasSuffix(hi, lo[i:]) {
				lo = lo[:i] // one unit for both ends: 4.40..4.60 GB/s
			}
			return lo + ".." + hi
		})
	}
	g.row("p50 / p99", func(c *results.Cell) string {
		l := medianRep(c).Latency
		return dur(l.P50) + " / " + dur(l.P99)
	})
	if g.metric() == results.MetricSeconds {
		g.netRows()
	}
	g.boundRows()
	g.row("errors", func(c *results.Cell) string { return fmt.Sprint(c.Errors.Total) })
	g.row("connections", func(c *results.Cell) string { return fmt.Sprint(medianRep(c).Connections) })
	unit := "1k req"
	if transfer {
		unit = "GB"
	}
	g.row("client CPU s/"+unit, func(c *results.Cell) string { return fmt.Sprintf("%.3f", medianRep(c).ClientCPUPerUnit) })
	g.row("server CPU s/"+unit, func(c *results.Cell) string {
		m := medianRep(c)
		return serverFigure(m, m.ServerCPUPerUnit, "%.3f")
	})
	g.row("cores client/server", func(c *results.Cell) string {
		m := medianRep(c)
		return fmt.Sprintf("%.2f/%s", m.ClientCores, serverFigure(m, m.ServerCores, "%.2f"))
	})
	g.row("allocs/req", func(c *results.Cell) string { return fmt.Sprintf("%.0f", medianRep(c).AllocsPerRequest) })
	g.row("GC client/server", func(c *results.Cell) string {
		m := medianRep(c)
		if m.Server == nil {
			return fmt.Sprintf("%d/-", m.ClientGCCycles)
		}
		return fmt.Sprintf("%d/%d", m.ClientGCCycles, m.Server.Process.GCCycles)
	})
	g.row("goroutines peak c/s", func(c *results.Cell) string {
		m := medianRep(c)
		if m.Server == nil {
			return fmt.Sprintf("%d/-", m.ClientGoroutinesPeak)
		}
		return fmt.Sprintf("%d/%d", m.ClientGoroutinesPeak, m.Server.Process.GoroutinesPeak)
	})
	g.row("bound by", func(c *results.Cell) string {
		if c.Bottleneck == "" {
			return "-"
		}
		return c.Bottleneck
	})
	g.notes = append(cellNotes(g.cells, folded), g.same.notes(g.cells)...)
}

// allSkipped reports whether no cell of g was measured.
func (g *grid) allSkipped() bool {
	for _, c := range g.cells {
		if c != nil && c.Skipped == "" {
			return false
		}
	}
	return true
}

func (g *grid) metric() string {
	for _, c := range g.cells {
		if c != nil {
			return c.Metric
		}
	}
	return ""
}

// serverFigure formats one of m's server figures: "n/a" when unknown (the
// notes say why), marked "?" when the server's counts disagreed with the
// client's.
func serverFigure(m results.Repetition, f *float64, format string) string {
	switch {
	case f == nil:
		return "n/a"
	case m.ServerUnreliable != "":
		return fmt.Sprintf(format, *f) + "?"
	}
	return fmt.Sprintf(format, *f)
}

// cellNotes explains what the table marks: skipped cells, noise, server
// figures n/a (unless folded: the report says why once), and each cell's
// findings (its gap's evidence and fix, errors, a generator that limited
// it).
func cellNotes(cells []*results.Cell, folded bool) []string {
	notes := skipNotes(cells)
	notes = append(notes, serverNotes(cells, folded)...)
	for _, c := range cells {
		if c != nil {
			notes = append(notes, findingNotes(c)...)
		}
	}
	return notes
}

// skipNotes: the cells skipped or failed, responses that differed, noise.
func skipNotes(cells []*results.Cell) []string {
	var notes, noisy []string
	differ := ""
	for _, c := range cells {
		if c != nil && c.ResponsesDiffer != "" {
			differ = c.ResponsesDiffer + ": the cells measured different work, which their ratios do not compare"
		}
		switch {
		case c == nil:
		case c.Skipped != "" && c.Failed:
			notes = append(notes, fmt.Sprintf("%s failed: %s", c.Protocol, c.Skipped))
		case c.Skipped != "":
			notes = append(notes, fmt.Sprintf("%s skipped: %s", c.Protocol, c.Skipped))
		case c.Noisy:
			noisy = append(noisy, fmt.Sprintf("%s %.1f%%", c.Protocol, c.Spread*100))
		}
		if c != nil && c.Partial != "" {
			notes = append(notes, fmt.Sprintf("! %s cut short: %s", c.Protocol, c.Partial))
		}
	}
	if differ != "" {
		notes = append(notes, differ)
	}
	if len(noisy) > 0 {
		notes = append(notes, fmt.Sprintf("* noisy: repetitions spread (max-min)/median over %.0f%% (%s): read those ratios with care", vocab.NoisySpread*100, strings.Join(noisy, ", ")))
	}
	return notes
}

// serverNotes: server figures unknown (unless folded) or unreliable, each
// kind in one note for the table, a clause a transport. Cells whose CPU
// was read from /proc lack only the counters, and say so apart.
func serverNotes(cells []*results.Cell, folded bool) []string {
	var notes, unreliable []string
	var unknown, why [2][]string // by serverGap's kind
	for _, c := range cells {
		if c == nil || c.Skipped != "" || len(c.Repetitions) == 0 {
			continue
		}
		m := medianRep(c)
		if k, gap := serverGap(m); gap {
			unknown[k] = append(unknown[k], fmt.Sprintf("%s: %s", c.Protocol, m.ServerNote))
			why[k] = append(why[k], m.ServerNote)
		} else if m.ServerUnreliable != "" {
			unreliable = append(unreliable, fmt.Sprintf("%s: %s", c.Protocol, strings.TrimSuffix(m.ServerUnreliable, ": server figures not used")))
		}
	}
	if len(unreliable) > 0 {
		notes = append(notes, "server figures marked ? are unreliable, and no rule uses them: "+strings.Join(unreliable, "; "))
	}
	for k := range unknown {
		switch {
		case len(unknown[k]) == 0 || folded:
		case len(unknown[k]) > 1 && len(dedupe(why[k])) == 1:
			// One reason for all: the counters are read from one address,
			// which an https cell's clause would otherwise cite as its own.
			notes = append(notes, serverGapWords[k]+" (the server's counters are read once for every transport, from one address): "+why[k][0])
		default:
			notes = append(notes, serverGapWords[k]+": "+strings.Join(dedupe(unknown[k]), "; "))
		}
	}
	return notes
}

// serverGapWords say what a repetition without the server's counters
// lacks, by serverGap's kind: all its server figures, or all but its CPU.
var serverGapWords = [2]string{"server figures n/a", "server counters n/a (its CPU read from /proc)"}

// serverGap says whether m lacks the server's counters with a reason,
// and which kind of gap: 0, every server figure; 1, all but the CPU,
// which came from /proc.
func serverGap(m results.Repetition) (kind int, gap bool) {
	if m.Server != nil || m.ServerNote == "" {
		return 0, false
	}
	if m.ServerCPUSeconds != nil {
		return 1, true
	}
	return 0, true
}

// findingNotes: c's findings' evidence, and its departure from its bound.
func findingNotes(c *results.Cell) []string {
	var notes []string
	for _, f := range c.Findings {
		if c.Baseline == "" || c.Protocol == c.Baseline {
			// The baseline's own findings say how far to trust its
			// figure, every ratio's denominator: not a fix of the gap.
			notes = append(notes, f.Evidence+": "+f.Fix)
			continue
		}
		notes = append(notes, f.Evidence+" [fix: "+f.Rule+", in full at the end]")
	}
	if b := c.Bound; b != nil && b.Departs {
		why := b.Explained
		if b.Unexplained {
			why = "unexplained: no rule accounts for it; the figure measures how it was measured until shown otherwise"
		}
		notes = append(notes, fmt.Sprintf("%s at %s of %s: %s", c.Protocol, shareText(b), b.Basis, why))
	}
	return notes
}

// metricValue formats a cell value of metric: bytes per second in GB/s or MB/s
// (10^9 and 10^6), requests per second as a whole number, seconds as a
// duration (243µs, 12.34ms, 1.2s).
func metricValue(metric string, v float64) string {
	switch metric {
	case results.MetricBytesPerSecond:
		if v >= 1e9 {
			return fmt.Sprintf("%.2f GB/s", v/1e9)
		}
		return fmt.Sprintf("%.1f MB/s", v/1e6)
	case results.MetricRequestsPerSecond:
		return fmt.Sprintf("%.0f req/s", v)
	case results.MetricSeconds:
		return dur(v)
	}
	return fmt.Sprintf("%g", v)
}

// dedupe drops repeated notes ("h1: unreachable", "h2c: unreachable"
// differ; identical ones are said once), keeping the first's order.
func dedupe(notes []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range notes {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// scenarioTitle is a scenario's table heading: its name, what it does and
// the public experiment it reproduces, when it has one.
func scenarioTitle(sc results.ScenarioInfo) string {
	if sc.Reproduces == "" {
		return sc.Name + ": " + sc.Description
	}
	return fmt.Sprintf("%s: %s (%s)", sc.Name, sc.Description, sc.Reproduces)
}

// baseline is the transport the grid's ratios compare with: its cells'
// Baseline, h1 when none says.
func (g *grid) baseline() string {
	for _, c := range g.cells {
		if c != nil && c.Baseline != "" {
			return c.Baseline
		}
	}
	return protoname.H1
}

// estimateText is estimate with its interval, as the verdict prints it:
// "0.70x [0.48, 1.02]"; "-" when there is no ratio.
func estimateText(c *results.Cell) string {
	switch {
	case c.VsBaseline != nil && c.VsBaseline.Pairs > 0:
		return boundsText(*c.VsBaseline)
	case c.RatioToBaseline == 0:
		return "-"
	case c.RatioToBaseline == 1 && c.Protocol == c.Baseline:
		return "1.00x"
	}
	return fmt.Sprintf("%.2fx (medians)", c.RatioToBaseline)
}

// scenarioInfo returns the description of the scenario called name, or
// one with only its name when the run's judgement has none.
func scenarioInfo(j *results.Judgement, name string) results.ScenarioInfo {
	if j != nil {
		for _, s := range j.Scenarios {
			if s.Name == name {
				return s
			}
		}
	}
	return results.ScenarioInfo{Name: name}
}
