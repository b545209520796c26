package matrix

import (
	"context"
	"fmt"
)

// cutShort notes that the run's context ended before column i's
// repetition of the current round was measured, or while it was.
func (sr *scenarioRun) cutShort(i int) {
	if sr.cut == nil {
		sr.cut = make([]bool, len(sr.cols))
	}
	sr.cut[i] = true
	if sr.cutRound == 0 {
		sr.cutRound = sr.rounds
	}
}

// markCut marks each cell whose rounds the end of the run's context cut
// short (results.Cell.Partial), with the cause and the repetitions kept,
// and drops from every cell of sr the failed repetitions of the round in
// which it ended: a server that died under a repetition can fail it just
// before its death is heard of, and such a repetition measured the death,
// not the transport, so it gives no verdict.
func (sr *scenarioRun) markCut(ctx context.Context) {
	if sr.cut == nil {
		return
	}
	reason := "interrupted"
	if cause := context.Cause(ctx); cause != nil {
		reason = cause.Error()
	}
	for i := range sr.cells {
		c := &sr.cells[i]
		kept := c.Repetitions[:0]
		dropped := 0
		for _, m := range c.Repetitions {
			if m.Round == sr.cutRound && m.Errors.Total > 0 {
				dropped++
				continue
			}
			kept = append(kept, m)
		}
		c.Repetitions = kept
		if !sr.cut[i] && dropped == 0 {
			continue
		}
		c.Partial = fmt.Sprintf("the run ended in round %d (%s): %s kept", sr.cutRound, reason, plural(len(kept), "repetition"))
		if dropped > 0 {
			c.Partial += fmt.Sprintf(", %s of that round that failed left out", plural(dropped, "repetition"))
		}
	}
}

// plural returns n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
