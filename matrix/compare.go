package matrix

import (
	"golang.org/x/perf/benchmath"
)

// Delta is one cell of two runs side by side.
type Delta struct {
	Scenario string `json:"scenario"`
	Protocol string `json:"protocol"`
	Metric   string `json:"metric"`
	// Old and New are the cells' medians; zero when the cell is missing
	// or skipped on that side.
	Old float64 `json:"old"`
	New float64 `json:"new"`
	// OldN and NewN are their completed repetitions.
	OldN int `json:"old_n"`
	NewN int `json:"new_n"`
	// Change is New/Old - 1: +0.10 is 10% more throughput.
	Change float64 `json:"change"`
	// P is the Mann-Whitney U test's p-value (as benchstat computes it)
	// that both samples come from one distribution; Significant says
	// P < Alpha. With fewer repetitions than the test needs, Note says so.
	P           float64 `json:"p"`
	Alpha       float64 `json:"alpha"`
	Significant bool    `json:"significant"`
	Note        string  `json:"note,omitempty"`
}

// Compare pairs the cells of old and new by scenario and transport, in
// new's order followed by cells only old has.
func Compare(old, new *Results) []Delta {
	var out []Delta
	seen := map[[2]string]bool{}
	add := func(o, n *Cell, c *Cell) {
		d := Delta{Scenario: c.Scenario, Protocol: c.Protocol, Metric: c.Metric, Alpha: benchmath.DefaultThresholds.CompareAlpha}
		ov, nv := values(o), values(n)
		d.OldN, d.NewN = len(ov), len(nv)
		switch {
		case len(ov) == 0 && len(nv) == 0:
			d.Note = "not measured in either"
		case len(ov) == 0:
			d.New, d.Note = n.Median, "only in new"
		case len(nv) == 0:
			d.Old, d.Note = o.Median, "only in old"
		default:
			d.Old, d.New = o.Median, n.Median
			if d.Old > 0 {
				d.Change = d.New/d.Old - 1
			}
			cmp := benchmath.AssumeNothing.Compare(
				benchmath.NewSample(ov, &benchmath.DefaultThresholds),
				benchmath.NewSample(nv, &benchmath.DefaultThresholds))
			d.P, d.Alpha = cmp.P, cmp.Alpha
			d.Significant = cmp.P < cmp.Alpha
			if len(cmp.Warnings) > 0 {
				d.Note = cmp.Warnings[0].Error()
			}
		}
		out = append(out, d)
	}
	for i := range new.Cells {
		n := &new.Cells[i]
		seen[[2]string{n.Scenario, n.Protocol}] = true
		add(old.Cell(n.Scenario, n.Protocol), n, n)
	}
	for i := range old.Cells {
		o := &old.Cells[i]
		if !seen[[2]string{o.Scenario, o.Protocol}] {
			add(o, nil, o)
		}
	}
	return out
}

// values returns the completed repetitions' values of c, nil for a
// missing or skipped cell.
func values(c *Cell) []float64 {
	if c == nil || c.Skipped != "" {
		return nil
	}
	var v []float64
	for _, r := range c.Repetitions {
		if !r.Interrupted {
			v = append(v, r.Value)
		}
	}
	return v
}
