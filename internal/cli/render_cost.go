package cli

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/units"
)

// CostLine says, before the cells start, what the run will measure and
// how long it is expected to take from its start (spent so far, and the
// estimate), and the budget added rounds fit in.
func CostLine(p experiment.Cost) string {
	where := "on loopback"
	if p.Link != nil {
		c := p.Link.Calibration
		where = fmt.Sprintf("across %s (%.1f ms, %s down)", p.LinkName, c.UDPRTTSeconds*1e3, units.BitsPerSecond(linkmodel.Rate(p.Link, false)))
	}
	est := p.Estimate
	rounds := fmt.Sprintf("%d", est.Rounds)
	if est.Fewest > 0 && est.Fewest < est.Rounds {
		rounds = fmt.Sprintf("%d to %d", est.Fewest, est.Rounds)
	}
	line := fmt.Sprintf("httpvs run: %d cells %s, %s round(s) each: about %s in all", est.Cells, where, rounds, (p.Spent + est.Time).Round(time.Second))
	switch {
	case p.Budget > 0 && p.Spent+est.Time > p.Budget:
		line += fmt.Sprintf(", past --budget %s: every cell still gets its %s first round(s)", p.Budget.Round(time.Second), rounds)
	case est.MaxRounds > est.Rounds && p.Budget > 0:
		line += fmt.Sprintf(", at most %s: cells still undetermined get up to %d rounds within it (--budget)", p.Budget.Round(time.Second), est.MaxRounds)
	}
	return line
}
