package report

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/stat"
	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
)

// sameRounds are the medians a scenario's table prints beside its ratios,
// each from the rounds its ratio used: a transport's over the rounds it
// paired with the baseline (verdict.PairRounds), the baseline's over the
// rounds every other column paired with it. Rounds added to settle one
// column measure the baseline too (and an A/A column's are the
// baseline's as well): over all of them the baseline's median would come
// from rounds the others never saw, and can point the other way.
type sameRounds struct {
	median map[*results.Cell]float64
	// base is the baseline's cell; baseRounds the rounds its median is
	// over, of its all.
	base            *results.Cell
	baseRounds, all int
}

// newSameRounds computes cells' medians over the rounds their ratios used.
func newSameRounds(cells []*results.Cell, baseline string) sameRounds {
	s := sameRounds{median: map[*results.Cell]float64{}}
	for _, c := range cells {
		if c != nil && c.Protocol == baseline && c.Skipped == "" {
			s.base = c
		}
	}
	if s.base == nil {
		return s
	}
	shared := map[int]int{} // round -> columns that paired in it
	others := 0
	for _, c := range cells {
		if c == nil || c == s.base || c.Skipped != "" {
			continue
		}
		pairs := verdict.PairRounds(c, s.base)
		if len(pairs) == 0 {
			continue
		}
		others++
		var vs []float64
		for _, p := range pairs {
			vs = append(vs, p.Cell.Value)
			shared[p.Round]++
		}
		s.median[c] = stat.Median(vs)
	}
	var vs []float64
	for _, p := range verdict.PairRounds(s.base, s.base) {
		s.all++
		if shared[p.Round] == others && others > 0 {
			vs = append(vs, p.Base.Value)
		}
	}
	if len(vs) > 0 {
		s.median[s.base], s.baseRounds = stat.Median(vs), len(vs)
	}
	return s
}

// of is c's median as the table prints it: over its ratio's rounds where
// it has one, else over its repetitions.
func (s sameRounds) of(c *results.Cell) float64 {
	if m, ok := s.median[c]; ok {
		return m
	}
	return c.Median
}

// against says why c's printed median and the baseline's point the other
// way from c's verdict, "" when they agree (or there is no call): the
// baseline's median over other rounds than c's, or, over the very same
// rounds, medians that do not follow the rounds' ratios.
func (s sameRounds) against(c *results.Cell) string {
	if s.base == nil || c == s.base || c.VsH1 == nil {
		return ""
	}
	v := c.VsH1.Verdict
	if v != results.VerdictSlower && v != results.VerdictFaster {
		return ""
	}
	if faster(c, s.of(c), s.of(s.base)) == (v == results.VerdictFaster) {
		return ""
	}
	var cv, bv []float64
	for _, p := range verdict.PairRounds(c, s.base) {
		cv, bv = append(cv, p.Cell.Value), append(bv, p.Base.Value)
	}
	bm := stat.Median(bv)
	if len(bv) > 0 && faster(c, stat.Median(cv), bm) == (v == results.VerdictFaster) {
		return fmt.Sprintf("%s's median over %s's %d rounds is %s: the medians printed are over other rounds", s.base.Protocol, c.Protocol, len(bv), metricValue(c.Metric, bm))
	}
	return fmt.Sprintf("over the same %d rounds the medians point the other way: the rounds moved more than the transports differ, and the ratio takes each round's pair, the medians do not", len(bv))
}

// faster says a cell reading cm beats a baseline reading bm in c's metric.
func faster(c *results.Cell, cm, bm float64) bool {
	if results.LowerIsBetter(c.Metric) {
		return cm < bm
	}
	return cm > bm
}

// note says over which rounds the baseline's median is, when not all of
// them; "" otherwise.
func (s sameRounds) note() string {
	if s.base == nil || s.baseRounds == 0 || s.baseRounds == s.all {
		return ""
	}
	return fmt.Sprintf("medians over the rounds each ratio used: %s's over the %d of its %d rounds in which every other column paired with it (not those with errors or cut short, nor those added to settle one column), each other column's over the rounds it paired with %s",
		s.base.Protocol, s.baseRounds, s.all, s.base.Protocol)
}

// notes are the table's lines on its medians: over which rounds the
// baseline's is, and each ratio they point against, with why.
func (s sameRounds) notes(cells []*results.Cell) []string {
	var out []string
	if n := s.note(); n != "" {
		out = append(out, n)
	}
	for _, c := range cells {
		if c == nil {
			continue
		}
		if why := s.against(c); why != "" {
			out = append(out, fmt.Sprintf("%s %s: %s %s, while %s's median and %s's beside it point the other way: %s",
				sameRoundsMark, c.Protocol, boundsText(*c.VsH1), c.VsH1.Verdict, c.Protocol, s.base.Protocol, why))
		}
	}
	return out
}

// sameRoundsMark follows a ratio whose medians beside it point the other
// way (sameRounds.against); the notes say why.
const sameRoundsMark = "‡"
