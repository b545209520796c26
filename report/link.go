package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// linkMark is what a verdict cell adds across a link: "unexplained" when
// the cell departs from the link's bound with nothing to explain it, or
// its baseline does (its ratio then compares an artefact); "emulator
// behind" when the emulator fell behind over it.
func linkMark(c *results.Cell, n *results.Net) string {
	var mark string
	if c.Bound != nil && c.Bound.Unexplained {
		mark = " unexplained"
	}
	if c.EmulatorBehind != "" {
		mark += " (emulator behind)"
	}
	return mark
}

// linkLines are the verdict's lines across an emulated link: each
// scenario's cells as shares of the link's bound, the cells that depart
// from it unexplained, and per transport where it wins, loses or ties and
// why; nil on loopback.
func linkLines(res *results.Results) []string {
	n := res.Settings.Net
	if n == nil {
		return nil
	}
	c := n.Calibration
	lines := []string{fmt.Sprintf("against the link (round trip %.1f ms as set, %.1f ms measured; %s): each cell's median beside the best the link allows",
		(n.Up.DelaySeconds+n.Down.DelaySeconds)*1e3, c.TCPConnectSeconds*1e3, linkRates(n))}
	rtt := n.Up.DelaySeconds + n.Down.DelaySeconds
	if rtt <= 0 {
		rtt = c.TCPConnectSeconds
	}
	var odd []string
	for _, name := range res.ScenarioNames() {
		var parts, inRTT []string
		basis, same := "", true
		for _, p := range res.ProtocolNames(name) {
			cell := res.Cell(name, p)
			if cell == nil || cell.Bound == nil {
				continue
			}
			b := cell.Bound
			parts = append(parts, p+" "+shareText(b)+lossNote(b))
			inRTT = append(inRTT, fmt.Sprintf("%s %s of %.1f round trips", p, shareText(b), b.Value/rtt))
			same = same && (basis == "" || basis == b.Basis)
			basis = b.Basis
			if b.Unexplained {
				why := "below"
				if b.Faster {
					why = "beyond"
				}
				odd = append(odd, fmt.Sprintf("%s/%s (%s, %s it)", name, p, shareText(b), why))
			}
		}
		switch {
		case len(parts) == 0:
		case same:
			lines = append(lines, fmt.Sprintf("  %s: %s of %s", name, strings.Join(parts, ", "), basis))
		default: // each transport's own round trips: handshakes, a page's critical path
			lines = append(lines, fmt.Sprintf("  %s: %s", name, strings.Join(inRTT, ", ")))
		}
	}
	var late []string
	for i := range res.Cells {
		if why := res.Cells[i].EmulatorBehind; why != "" {
			late = append(late, fmt.Sprintf("%s/%s (%s)", res.Cells[i].Scenario, res.Cells[i].Protocol, why))
		}
	}
	if len(late) > 0 {
		lines = append(lines, "emulator behind: "+strings.Join(late, "; ")+": these were measured on a slower link than the one set (the machine was too busy for the emulator); rerun on a quieter machine or a slower link")
	}
	if len(odd) > 0 {
		lines = append(lines, "unexplained: "+strings.Join(odd, "; ")+": these depart from the link's bound and no rule explains why; their figures measure how they were measured (rounds too short for the link, say), not the transport: do not act on their verdicts; rerun with longer rounds (--duration)")
	}
	lines = append(lines, whenWords(res)...)
	return append(lines, crossoverLines(res)...)
}

// linkRates says each direction's rate as set and as paced UDP read it,
// and, apart, what one TCP transfer under the link's controller moved.
func linkRates(n *results.Net) string {
	c := n.Calibration
	if n.Down.RateBitsPerSecond <= 0 && n.Up.RateBitsPerSecond <= 0 {
		return fmt.Sprintf("no rate set; TCP goodput %s down, %s up", units.BitsPerSecond(c.DownGoodputBitsPerSecond), units.BitsPerSecond(c.UpGoodputBitsPerSecond))
	}
	text := fmt.Sprintf("rate %s down, %s up", units.BitsPerSecond(n.Down.RateBitsPerSecond), units.BitsPerSecond(n.Up.RateBitsPerSecond))
	if c.DownRateBitsPerSecond > 0 {
		text += fmt.Sprintf(" (paced UDP read %s, %s)", units.BitsPerSecond(c.DownRateBitsPerSecond), units.BitsPerSecond(c.UpRateBitsPerSecond))
	}
	cc := n.TCPCongestion
	if cc == "" {
		cc = "the kernel's default"
	}
	return text + fmt.Sprintf("; one TCP transfer under %s moved %s down, %s up", cc, units.BitsPerSecond(c.DownGoodputBitsPerSecond), units.BitsPerSecond(c.UpGoodputBitsPerSecond))
}

// lossNote places a transfer on a lossy link against its link and its
// controller's loss model (verdict.BoundClass), and any cell beyond its
// bound or undetermined against it; "" elsewhere.
func lossNote(b *results.Bound) string {
	class := b.Class
	if b.Loss == nil {
		switch class {
		case vocab.ClassBeyond:
			return " (beyond the link's bound: a measurement defect)"
		case vocab.ClassUndecided: // too few rounds to say where it is
			return " (" + class + ")"
		}
		return ""
	}
	l := b.Loss
	model := fmt.Sprintf("%s's loss model %s", l.Controller, units.BitsPerSecond(l.Value*8))
	switch class {
	case vocab.ClassAtLossBound:
		return fmt.Sprintf(" (%s: %s, read at %.0f%% of it)", class, model, 100*l.Share)
	case vocab.ClassAtLink, vocab.ClassBeyond, vocab.ClassUnexplained, vocab.ClassUndecided:
		return fmt.Sprintf(" (%s; %s, %.0f%% of it)", class, model, 100*l.Share)
	}
	return fmt.Sprintf(" (%s; %s)", class, model)
}

// shareText is a bound's share in a few words: "97%" of a rate's bound,
// "1.04x" of a time's.
func shareText(b *results.Bound) string {
	if strings.Contains(b.Basis, "round trip") && !strings.Contains(b.Basis, "in flight") {
		return fmt.Sprintf("%.2fx", b.Share)
	}
	return fmt.Sprintf("%.0f%%", 100*b.Share)
}

// whenWords says, for each transport other than the baseline, where it
// wins, loses or ties on this link and why: the bound or the rule behind
// each scenario's verdict.
func whenWords(res *results.Results) []string {
	base := res.Settings.BaselineProtocol()
	var lines []string
	for _, p := range res.ProtocolNames("") {
		if p == base {
			continue
		}
		groups := map[string][]string{}
		var order []string
		for _, name := range res.ScenarioNames() {
			c, b := res.Cell(name, p), res.Cell(name, base)
			class, why := wordOf(c, b, res)
			if class == "" {
				continue
			}
			if groups[class] == nil {
				order = append(order, class)
			}
			item := name
			if why != "" {
				item += " (" + why + ")"
			}
			groups[class] = append(groups[class], item)
		}
		if len(order) == 0 {
			continue
		}
		var parts []string
		for _, class := range order {
			parts = append(parts, class+" "+strings.Join(groups[class], ", "))
		}
		lines = append(lines, fmt.Sprintf("  %s against %s: %s", p, base, strings.Join(parts, "; ")))
	}
	if len(lines) == 0 {
		return nil
	}
	return append([]string{"in words:"}, lines...)
}

// wordOf classes a cell against its baseline b for whenWords ("ties on",
// "wins on", "loses on", "is machine-bound on" where either was held by
// this machine rather than the link, "is unexplained on"; "" when there
// is no verdict) and says why in a few words: a reason from the link only
// where its bound places both cells.
func wordOf(c, b *results.Cell, res *results.Results) (class, why string) {
	n := res.Settings.Net
	if c == nil || c.VsBaseline == nil || c.VsBaseline.Verdict == results.VerdictUnknown || b == nil {
		return "", ""
	}
	if (c.Bound != nil && c.Bound.Unexplained) || (b.Bound != nil && b.Bound.Unexplained) {
		return "is unexplained on", "a figure departs from the link's bound"
	}
	ratio := fmt.Sprintf("%.2fx", c.VsBaseline.Ratio)
	if c.VsBaseline.Verdict != results.VerdictSimilar {
		for _, m := range []*results.Cell{c, b} {
			if machineBound(m) {
				return "is machine-bound on", fmt.Sprintf("%s: this machine, not the link, held %s (%s)", ratio, m.Protocol, machineWhy(m))
			}
		}
	}
	if class, why := unplaced(c, b, ratio); class != "" {
		return class, why
	}
	switch c.VsBaseline.Verdict {
	case results.VerdictSimilar:
		if atBound(c) && atBound(b) {
			return "ties on", "both at the link's bound"
		}
		return "ties on", ""
	case results.VerdictFaster:
		return "wins on", ratio + ": " + reasonOf(c, b, n)
	case results.VerdictUndetermined:
		return "cannot be told apart on", ratio + " with an interval too wide to exclude a difference of " + fmt.Sprintf("%.0f%%", 100*vocab.Matters)
	}
	return "loses on", ratio + ": " + reasonOf(c, b, n)
}

// unplaced words a call between c and b where the bound places neither's
// figure (undetermined): the ratio stands, no reason drawn from the link
// does; "" when both are placed or there is no call.
func unplaced(c, b *results.Cell, ratio string) (class, why string) {
	v := c.VsBaseline.Verdict
	if v != results.VerdictSlower && v != results.VerdictFaster {
		return "", ""
	}
	for _, m := range []*results.Cell{c, b} {
		if m.Bound != nil && m.Bound.Undetermined {
			class = "loses on"
			if v == results.VerdictFaster {
				class = "wins on"
			}
			return class, fmt.Sprintf("%s; %s is %s, so the link says nothing of why", ratio, m.Protocol, vocab.ClassUndecided)
		}
	}
	return "", ""
}

// bulkBeside compares head-of-line's downloads: a transport whose small
// requests wait less may only be moving its download slower. "" for other
// scenarios.
func bulkBeside(c, b *results.Cell, n *results.Net) string {
	mc, mb := medianRep(c), medianRep(b)
	if c.Scenario != "head-of-line" || n == nil || mc.Seconds <= 0 || mb.Seconds <= 0 {
		return ""
	}
	link := downRate(n) / 8
	if link <= 0 {
		return ""
	}
	return fmt.Sprintf("head-of-line; its download beside ran at %.0f%% of the link, %s's at %.0f%%",
		100*float64(mc.BulkBytes)/mc.Seconds/link, b.Protocol, 100*float64(mb.BulkBytes)/mb.Seconds/link)
}

// atBound says a cell reads within its bound's tolerance, and no loss
// model places it below (vocab.ClassAtLink).
func atBound(c *results.Cell) bool {
	return c.Bound != nil && c.Bound.Class == vocab.ClassAtLink
}

// reasonOf is why c differs from its baseline b: a bound of its own that
// differs (fewer round trips), what explains its departure from the link's
// bound, or its first finding; "no rule names why" otherwise.
func reasonOf(c, b *results.Cell, n *results.Net) string {
	if bulk := bulkBeside(c, b, n); bulk != "" {
		return bulk
	}
	if c.Bound != nil && b.Bound != nil {
		if d := c.Bound.Value / b.Bound.Value; d < 0.95 || d > 1/0.95 {
			return fmt.Sprintf("its bound is %s, %s's %s", boundShort(c.Bound), b.Protocol, boundShort(b.Bound))
		}
		if !c.Bound.Departs && !b.Bound.Departs {
			return fmt.Sprintf("the same bound; %s of it against %s's %s", shareText(c.Bound), b.Protocol, shareText(b.Bound))
		}
	}
	if c.Bound != nil && c.Bound.Explained != "" {
		rule, _, _ := strings.Cut(c.Bound.Explained, ":")
		return rule
	}
	if b.Bound != nil && b.Bound.Explained != "" && c.Bound != nil && !c.Bound.Departs {
		rule, _, _ := strings.Cut(b.Bound.Explained, ":")
		return b.Protocol + " " + rule
	}
	if len(c.Findings) > 0 {
		return c.Findings[0].Rule
	}
	return "no rule names why"
}

// boundShort is a bound's basis up to its first parenthesis or "of".
func boundShort(b *results.Bound) string {
	s, _, _ := strings.Cut(b.Basis, " (")
	s, _, _ = strings.Cut(s, " of ")
	return s
}

// seconds formats a time given in seconds as a duration rounded to the
// millisecond: "1.214s", "300ms".
func seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

// crossoverLines say where each transport stops being bound by the link
// on this machine: its loopback speed in the same run (res.Crossover).
func crossoverLines(res *results.Results) []string {
	if len(res.Crossover) == 0 {
		return nil
	}
	var keeps, parts []string
	for _, x := range res.Crossover {
		if x.BytesPerSecond <= 0 {
			parts = append(parts, fmt.Sprintf("%s unknown (%s)", x.Protocol, x.Error))
			continue
		}
		part := fmt.Sprintf("%s %s (%s, client %.2f CPU s/GB)", x.Protocol, metricValue(results.MetricBytesPerSecond, x.BytesPerSecond), units.BitsPerSecond(x.BytesPerSecond*8), x.ClientCPUPerGB)
		if x.RequestsPerSecond > 0 {
			part += fmt.Sprintf(" and %.0f req/s", x.RequestsPerSecond)
		}
		parts = append(parts, part)
		keeps = append(keeps, fmt.Sprintf("%s below %s", x.Protocol, units.BitsPerSecond(x.BytesPerSecond*8)))
	}
	lines := []string{"where the link stops deciding: each transport's one download (and 50 small requests at a time) on this machine's loopback, same run: " + strings.Join(parts, "; ")}
	if len(keeps) > 0 {
		lines = append(lines, "  so here, Go as run keeps up with links of "+strings.Join(keeps, ", ")+"; on faster links its own cost sets the figure (golang/go#47840), on slower ones the link does and the transports read ≈")
	}
	return lines
}

// machineWhy names what of the machine held c: the explanation of its
// departure, its saturated side, or the emulator falling behind.
func machineWhy(c *results.Cell) string {
	if b := c.Bound; b != nil && b.Departs && b.Explained != "" {
		rule, _, _ := strings.Cut(b.Explained, ":")
		return rule
	}
	if m := medianRep(c); m.Bottleneck != results.BottleneckNone {
		return "the " + m.Bottleneck + "'s CPU saturated"
	}
	return "the emulator fell behind: a slower link than the one set"
}
