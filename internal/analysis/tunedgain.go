package analysis

import (
	"strings"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// SetTunedGains sets the TunedGain of every tuned variant's cell among
// cells ("download:tuned"): its figure over the shipped cell of the same
// transport ("download"), paired round by round (the two scenarios are
// measured in the same rounds), with its interval under the cells' own
// design (sequentialJudged over their looks, as the verdict's: the
// rounds were planned from the verdict cells' data, and repeated
// intervals hold however rounds were chosen) and its word. Cells whose
// shipped cell is missing or skipped get none.
func SetTunedGains(cells []results.Cell) {
	shipped := map[[2]string]*results.Cell{}
	for i, c := range cells {
		if c.Knobs == "" && c.Skipped == "" {
			shipped[[2]string{c.Scenario, c.Protocol}] = &cells[i]
		}
	}
	for i := range cells {
		c := &cells[i]
		c.TunedGain = nil
		base, set, ok := strings.Cut(c.Scenario, vocab.VariantSep)
		if !ok || set == "" || c.Knobs == "" || c.Skipped != "" {
			continue
		}
		s := shipped[[2]string{base, c.Protocol}]
		if s == nil {
			continue
		}
		c.TunedGain = TunedGain(c, s)
		c.TunedGain.Shipped = base
	}
}

// TunedGain is tuned's gain over shipped, paired by round (SetTunedGains).
func TunedGain(tuned, shipped *results.Cell) *results.TunedGain {
	logs := pairedLogRatios(tuned, shipped)
	first := min(tuned.FirstStage, shipped.FirstStage)
	var iv results.Interval
	if first > 0 && tuned.LastLook > first {
		iv = sequentialJudged(logs, first, tuned.LastLook)
	} else {
		iv = judged(LogInterval(logs))
	}
	g := &results.TunedGain{Word: gainWord(iv.Verdict)}
	iv.Verdict = ""
	g.Gain = iv
	return g
}

// gainWord is a verdict word in a gain's terms.
func gainWord(v string) string {
	switch v {
	case results.VerdictFaster:
		return vocab.GainRaised
	case results.VerdictSlower:
		return vocab.GainLowered
	case results.VerdictSimilar:
		return vocab.GainNone
	case results.VerdictUndetermined:
		return vocab.GainCantTell
	}
	return ""
}
