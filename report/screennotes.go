package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// aaLine is the A/A row: the baseline against itself in the same rounds,
// each with its interval and word; nil without A/A cells.
func (s *screen) aaLine() []string {
	if len(s.res.AA) == 0 {
		return nil
	}
	var parts []string
	for i := range s.res.AA {
		c := &s.res.AA[i]
		text := c.Scenario + " " + s.cell(c)
		if c.VsBaseline != nil && (c.VsBaseline.Verdict == results.VerdictSlower || c.VsBaseline.Verdict == results.VerdictFaster) {
			text += " (a false call)"
		}
		parts = append(parts, text)
	}
	line := fmt.Sprintf("A/A %s vs %s: %s", s.base, s.base, strings.Join(parts, ", "))
	calls, cells := 0, 0
	for _, f := range s.j.Floors {
		calls, cells = calls+f.FalseCalls, cells+f.Cells
	}
	if calls > 0 {
		line += fmt.Sprintf(" (%d false call(s) of %d; about one in twenty is expected by chance)", calls, cells)
	}
	return []string{wrapLines(line)}
}

// tunedLine says what the tuned rows' own paired tests found: each
// cell's gain over the same transport as shipped, never the two rows'
// ratios, whose denominators differ; nil without tuned rows.
func (s *screen) tunedLine() []string {
	t := s.j.Tuned
	if t == nil {
		return nil
	}
	byWord := map[string][]string{}
	for _, g := range t.Gains {
		if g.Gain != nil && (g.Word == vocab.GainRaised || g.Word == vocab.GainLowered) {
			byWord[g.Word] = append(byWord[g.Word], fmt.Sprintf("%s ×%.2f [%.2f, %.2f]", g.Cell, g.Gain.Ratio, g.Gain.Low, g.Gain.High))
			continue
		}
		byWord[g.Word] = append(byWord[g.Word], g.Cell)
	}
	var parts []string
	for _, w := range []string{vocab.GainRaised, vocab.GainLowered, vocab.GainNone, vocab.GainCantTell} {
		if len(byWord[w]) > 0 {
			parts = append(parts, w+" "+strings.Join(byWord[w], ", "))
		}
	}
	return []string{wrapLines(fmt.Sprintf(":%s rows over the same transport as shipped, paired by round: %s", t.Knobs, strings.Join(parts, "; ")))}
}

// causeLines are one footnote per cause: its number, rule, what it is,
// the setting that tries its fix, and how many cells it is the main cause
// of.
func (s *screen) causeLines() []string {
	var out []string
	for i, c := range s.j.Causes {
		line := fmt.Sprintf("%s %s: %s", superscript(i+1), c.Rule, c.What)
		if fix := s.fixText(c.Knobs); fix != "" {
			line += "; try " + fix
		} else {
			line += "; the rule names no setting"
		}
		out = append(out, wrapLines(line+cellCount(c.Cells)))
	}
	return out
}

// fixText is knobs as the command's flags when it has them, else as
// fields: "--read-size 256Ki", "Server.HTTP2.MaxConcurrentStreams=250".
func (s *screen) fixText(knobs []results.Knob) string {
	var parts []string
	for _, k := range knobs {
		if s.flags != nil {
			if f, ok := s.flags(k.Field); ok {
				parts = append(parts, f+" "+k.Value)
				continue
			}
		}
		parts = append(parts, k.Field+"="+k.Value)
	}
	return strings.Join(parts, " ")
}

// caveatLines are the caveats about the machine or the measurement, apart
// from causes: each rule once with its cells (once per fix, with the
// setting that tries it), the table's marks first.
func (s *screen) caveatLines() []string {
	var out []string
	for _, c := range s.j.Caveats {
		mark := "caveat"
		if c.Rule == vocab.MarkMachineBound {
			mark = markMachine
		}
		line := fmt.Sprintf("%s %s: %s", mark, c.Rule, c.What)
		if fix := s.fixText(c.Knobs); fix != "" {
			line += "; try " + fix // a rule's cells with and without a fix are two lines
		}
		out = append(out, wrapLines(line+cellCount(c.Cells)))
	}
	var cut []string
	for _, c := range s.res.Cells {
		if c.Partial != "" {
			cut = append(cut, c.Scenario+"/"+c.Protocol)
		}
	}
	if len(cut) > 0 {
		out = append(out, fmt.Sprintf("%s cut short: the run ended before their rounds were done%s", markCut, cellCount(cut)))
	}
	var floors []string
	for _, f := range s.j.Floors {
		if len(f.Within) > 0 {
			floors = append(floors, fmt.Sprintf("%s ±%.0f%%%s", f.Kind, 100*f.Reach, cellCount(f.Within)))
		}
	}
	if len(floors) > 0 {
		out = append(out, wrapLines(fmt.Sprintf("%s called slower or faster by less than its kind's A/A reached with no difference to find: %s",
			markFloor, strings.Join(floors, ", "))))
	}
	return out
}

// cellCount is " (1 cell)", " (3 cells)": the table's marks say which.
func cellCount(cells []string) string {
	if len(cells) == 1 {
		return " (1 cell)"
	}
	return fmt.Sprintf(" (%d cells)", len(cells))
}

// warnings are the run's warnings, a line each with its fix: the UDP
// buffers, the user's requests measured otherwise than asked; and where
// an external target's server CPU came from, or why it is unknown.
func (s *screen) warnings() []string {
	var out []string
	if w := s.res.Settings.UDPBuffers; w != "" {
		if !strings.HasPrefix(w, "warning: ") {
			w = "warning: " + w
		}
		out = append(out, wrapLines(w))
	}
	if len(s.res.Sizing) > 0 {
		out = append(out, wrapLines("your requests' rounds, sized from a probe: "+strings.Join(s.res.Sizing, "; ")))
	}
	if l := s.overrunLine(); l != "" {
		out = append(out, wrapLines(l))
	}
	if c := s.res.Settings.ServerCPU; c != "" {
		out = append(out, wrapLines(c))
	}
	return out
}

// overrunLine says how far past its budget the run ended
// (Settings.OverrunSeconds), what it took and what its first rounds were
// estimated at; "" for a run that ended within it.
func (s *screen) overrunLine() string {
	set := s.res.Settings
	if set.OverrunSeconds <= 0 {
		return ""
	}
	field := "Budget"
	if s.flags != nil {
		if f, ok := s.flags(field); ok {
			field = f
		}
	}
	round := func(sec float64) time.Duration { return time.Duration(sec * float64(time.Second)).Round(time.Second) }
	took := "unknown"
	if !s.res.Started.IsZero() && s.res.Finished.After(s.res.Started) {
		took = s.res.Finished.Sub(s.res.Started).Round(time.Second).String()
	}
	est := "unknown"
	if set.EstimatedSeconds > 0 {
		est = round(set.EstimatedSeconds).String()
	}
	return fmt.Sprintf("over budget: the run's rounds took %s, %s past the %s the budget left them (%s); their first rounds were estimated at %s",
		took, round(set.OverrunSeconds), round(set.BudgetSeconds), field, est)
}
