package report

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// sameRounds are the medians a scenario's table prints beside its ratios,
// each from the rounds its ratio used, as the analysis set them
// (Cell.RoundsMedian, Cell.MediansAgainst): it formats them only.
type sameRounds struct {
	base *results.Cell // the baseline's cell; nil when not measured
}

// newSameRounds finds the table's baseline among cells.
func newSameRounds(cells []*results.Cell, baseline string) sameRounds {
	for _, c := range cells {
		if c != nil && c.Protocol == baseline && c.Skipped == "" {
			return sameRounds{base: c}
		}
	}
	return sameRounds{}
}

// of is c's median as the table prints it: over its ratio's rounds where
// it has one, else over its repetitions.
func (s sameRounds) of(c *results.Cell) float64 {
	if c.RoundsMedian != nil {
		return *c.RoundsMedian
	}
	return c.Median
}

// against says why c's printed median and the baseline's point the other
// way from c's verdict, "" when they agree.
func (s sameRounds) against(c *results.Cell) string {
	if s.base == nil || c == s.base {
		return ""
	}
	switch c.MediansAgainst {
	case vocab.AgainstOtherRounds:
		return fmt.Sprintf("%s's median over %s's %d rounds is %s: the medians printed are over other rounds", s.base.Protocol, c.Protocol, c.RoundsUsed, metricValue(c.Metric, c.AgainstBaseMedian))
	case vocab.AgainstSameRounds:
		return fmt.Sprintf("over the same %d rounds the medians point the other way: the rounds moved more than the transports differ, and the ratio takes each round's pair, the medians do not", c.RoundsUsed)
	}
	return ""
}

// note says over which rounds the baseline's median is, when not all of
// them; "" otherwise.
func (s sameRounds) note() string {
	if s.base == nil || s.base.RoundsUsed == 0 || s.base.RoundsUsed == s.base.RoundsOf {
		return ""
	}
	return fmt.Sprintf("medians over the rounds each ratio used: %s's over the %d of its %d rounds in which every other column paired with it (not those with errors or cut short, nor those added to settle one column), each other column's over the rounds it paired with %s",
		s.base.Protocol, s.base.RoundsUsed, s.base.RoundsOf, s.base.Protocol)
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
				sameRoundsMark, c.Protocol, boundsText(*c.VsBaseline), c.VsBaseline.Verdict, c.Protocol, s.base.Protocol, why))
		}
	}
	return out
}

// sameRoundsMark follows a ratio whose medians beside it point the other
// way (sameRounds.against); the notes say why.
const sameRoundsMark = "‡"
