package analysis

import (
	"strings"

	"github.com/httpvs/httpvs/internal/knobs"
	"github.com/httpvs/httpvs/internal/vocab"

	"github.com/httpvs/httpvs/results"
)

// mainCauses picks each slower cell's main cause and gathers the causes
// and caveats across the run, each once (a rule whose fix sets different
// fields in different cells, the client's or the server's, once per set).
func mainCauses(res *results.Results, j *results.Judgement) {
	base := res.Settings.BaselineProtocol()
	causes, caveats := map[string]int{}, map[string]int{}
	for i := range res.Cells {
		c := &res.Cells[i]
		if c.Protocol == base {
			continue
		}
		name := c.Scenario + "/" + c.Protocol
		for _, f := range c.Findings {
			if Caveat(f.Rule) {
				j.Caveats = gather(j.Caveats, caveats, f, name, res.Settings.Alongside)
			}
		}
		if c.VsBaseline == nil || c.VsBaseline.Verdict != results.VerdictSlower {
			continue
		}
		if f := mainCause(c, raised(j.Tuned, name), res.Settings.Alongside); f != nil {
			c.MainCause = f.Rule
			j.Causes = gather(j.Causes, causes, *f, name, res.Settings.Alongside)
		}
	}
}

// mainCause is c's finding that explains its gap best: when the tuned
// row measurably raised c, the first whose fix the tuned knob set holds
// (its fix moved the figure); otherwise the first cause in the rules'
// order. Caveats are never a cause; nil when c has no cause.
func mainCause(c *results.Cell, raised bool, tuned *results.KnobSet) *results.Finding {
	var first *results.Finding
	for i := range c.Findings {
		f := &c.Findings[i]
		if Caveat(f.Rule) {
			continue
		}
		if first == nil {
			first = f
		}
		if raised && len(f.Knobs) > 0 && knobsWithin(f.Knobs, tuned) {
			return f
		}
	}
	return first
}

// knobsWithin says every knob's field is set by set.
func knobsWithin(knobs []results.Knob, set *results.KnobSet) bool {
	if set == nil {
		return false
	}
	for _, k := range knobs {
		if _, ok := valueIn(set, k.Field); !ok {
			return false
		}
	}
	return true
}

// valueIn is the value set gives field (knobs.Value); ok is false
// without a set or a value.
func valueIn(set *results.KnobSet, field string) (string, bool) {
	if set == nil {
		return "", false
	}
	v := knobs.Value(*set, field)
	return v, v != ""
}

// gather adds cell name to f's entry in list (index by key), making it
// when new. A knob the tuned set also sets takes the tuned set's value:
// the value the run measured.
func gather(list []results.Cause, index map[string]int, f results.Finding, name string, tuned *results.KnobSet) []results.Cause {
	var fields []string
	for _, k := range f.Knobs {
		fields = append(fields, k.Field)
	}
	key := f.Rule + " " + strings.Join(fields, ",")
	i, ok := index[key]
	if !ok {
		knobs := make([]results.Knob, len(f.Knobs))
		for n, k := range f.Knobs {
			if v, ok := valueIn(tuned, k.Field); ok {
				k.Value = v
			}
			knobs[n] = k
		}
		index[key] = len(list)
		return append(list, results.Cause{Rule: f.Rule, What: What(f.Rule), Knobs: knobs, Cells: []string{name}})
	}
	list[i].Cells = append(list[i].Cells, name)
	return list
}

// raised says the tuned rows measurably raised the shipped cell name.
func raised(t *results.TunedRows, name string) bool {
	if t == nil {
		return false
	}
	for _, g := range t.Gains {
		if g.Cell == name && g.Word == vocab.GainRaised {
			return true
		}
	}
	return false
}

// tunedRows are the variant rows' knob set and each variant cell's gain
// over its shipped cell; nil without variant rows.
func tunedRows(res *results.Results) *results.TunedRows {
	a := res.Settings.Alongside
	if a == nil {
		return nil
	}
	t := &results.TunedRows{Knobs: a.Name}
	for i := range res.Cells {
		v := &res.Cells[i]
		if v.Knobs == "" || (v.VsBaseline == nil && v.TunedGain == nil) {
			continue
		}
		shipped := res.Cell(strings.TrimSuffix(v.Scenario, vocab.VariantSep+v.Knobs), v.Protocol)
		if shipped == nil || shipped == v {
			continue
		}
		t.Gains = append(t.Gains, tunedGain(shipped, v))
	}
	if len(t.Gains) == 0 {
		return nil
	}
	return t
}

// tunedGain is variant v against shipped as the measuring side's own
// paired test found it (Cell.TunedGain: tuned over shipped, by round, in
// the same rounds), never two intervals with different denominators held
// side by side; "can't tell" without one. The baseline's own row is
// included: its gain is what moved the other rows' denominator.
func tunedGain(shipped, v *results.Cell) results.TunedRow {
	g := results.TunedRow{Cell: shipped.Scenario + "/" + shipped.Protocol, Word: vocab.GainCantTell}
	if shipped.VsBaseline != nil && v.VsBaseline != nil {
		g.From, g.To = shipped.VsBaseline.Ratio, v.VsBaseline.Ratio
	}
	if t := v.TunedGain; t != nil && t.Word != "" {
		gain := t.Gain
		g.Gain, g.Word = &gain, t.Word
	}
	return g
}
