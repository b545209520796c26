package goversions

import (
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// finish summarises the cells into r.out: each cell's ratio to the
// baseline built by the same toolchain, and the changes between
// toolchains measured one after the other in the list.
func (r *runner) finish() {
	for _, k := range r.order {
		c := r.cells[k]
		analysis.SummariseCell(c)
		if base := r.base(k); base != nil && k.p != r.baseline {
			if base.Median > 0 {
				c.RatioToBaseline = c.Median / base.Median
			}
			if iv := analysis.RatioInterval(c, base); iv.Pairs > 0 {
				c.VsBaseline = &iv
			}
		}
		r.out.Cells = append(r.out.Cells, results.GoVersionCell{Toolchain: r.toolchains[k.v].tc.Toolchain, Cell: *c})
	}
	for _, sc := range r.scenarios {
		r.out.Changes = append(r.out.Changes, r.changes(sc, false)...)
	}
}

// base is the baseline cell of k's scenario and toolchain; nil when it
// was skipped or never measured.
func (r *runner) base(k key) *results.Cell {
	b := r.cells[key{k.scenario, k.v, r.baseline}]
	if b == nil || b.Skipped != "" || len(b.Repetitions) == 0 {
		return nil
	}
	return b
}

// changes are sc's changes from each toolchain with measurements to the
// next one listed, per transport; with running, only those between two
// toolchains still running (the ones more rounds can narrow).
func (r *runner) changes(sc string, running bool) []results.GoVersionChange {
	var out []results.GoVersionChange
	prev := -1
	for v, t := range r.toolchains {
		if !r.hasMeasurements(sc, v) {
			continue
		}
		if prev >= 0 && (!running || !t.stopped && !r.toolchains[prev].stopped) {
			for _, p := range r.protocols {
				if ch, ok := r.change(sc, prev, v, p); ok {
					out = append(out, ch)
				}
			}
		}
		prev = v
	}
	return out
}

func (r *runner) hasMeasurements(sc string, v int) bool {
	for _, p := range r.protocols {
		if c := r.cells[key{sc, v, p}]; c != nil && len(c.Repetitions) > 0 {
			return true
		}
	}
	return false
}

// change is p's change in sc from toolchain a to toolchain b; false when
// no round paired.
func (r *runner) change(sc string, a, b int, p transport.Protocol) (results.GoVersionChange, bool) {
	ca, cb := r.cells[key{sc, a, p}], r.cells[key{sc, b, p}]
	if ca.Skipped != "" || cb.Skipped != "" {
		return results.GoVersionChange{}, false
	}
	ch := results.GoVersionChange{Scenario: sc, Protocol: p.String(), From: r.toolchains[a].tc.Toolchain, To: r.toolchains[b].tc.Toolchain}
	ch.Figure = analysis.RatioInterval(cb, ca)
	if ch.Figure.Pairs == 0 {
		return ch, false
	}
	if p != r.baseline {
		ba, bb := r.base(key{sc, a, p}), r.base(key{sc, b, p})
		if ba != nil && bb != nil {
			if iv := analysis.RatioInterval(perRound(cb, bb), perRound(ca, ba)); iv.Pairs > 0 {
				ch.Ratio = &iv
			}
		}
	}
	return ch, true
}

// perRound is a cell whose repetitions are c's value over base's in each
// round the two pair (analysis.PairRounds): c's ratio to the baseline,
// round by round, so that two toolchains' ratios pair by round; its
// interval follows c's looks.
func perRound(c, base *results.Cell) *results.Cell {
	out := &results.Cell{Scenario: c.Scenario, Protocol: c.Protocol, Metric: c.Metric, FirstStage: c.FirstStage, LastLook: c.LastLook}
	for _, p := range analysis.PairRounds(c, base) {
		out.Repetitions = append(out.Repetitions, results.Repetition{Round: p.Round, Value: p.Cell.Value / p.Base.Value})
	}
	return out
}

// settled reports whether every ratio to the baseline in sc, and every
// change of a ratio between toolchains, is known within
// analysis.StableHalfWidth (or has fewer than two pairs, which more rounds
// of errors do not cure).
func (r *runner) settled(sc string) bool {
	for v, t := range r.toolchains {
		if t.stopped {
			continue
		}
		for _, p := range r.protocols {
			k := key{sc, v, p}
			base := r.base(k)
			if p == r.baseline || base == nil || r.cells[k].Skipped != "" {
				continue
			}
			if iv := analysis.RatioInterval(r.cells[k], base); iv.Pairs >= 2 && !analysis.Stable(iv) {
				return false
			}
		}
	}
	for _, ch := range r.changes(sc, true) {
		if ch.Ratio != nil && ch.Ratio.Pairs >= 2 && !analysis.Stable(*ch.Ratio) {
			return false
		}
	}
	return true
}
