package analysis

import (
	"math"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/results"
)

// SetBrowserVerdict sets each browser cell's VsBaseline: its last byte
// against the baseline's, round by round, the baseline being the first
// of h1 and h1-tls that the browser loaded with at least one agreed load.
// A transport's loads are paired with the baseline's of the same round,
// so that what drifts across a run (the machine, the browser's caches
// warming) moves both sides of each ratio.
func SetBrowserVerdict(cells []results.BrowserCell) {
	base := browserBaseline(cells)
	for i := range cells {
		c := &cells[i]
		c.VsBaseline, c.Baseline = nil, ""
		if base == nil || c == base || c.Skipped != "" {
			continue
		}
		logs := pairedLastBytes(c, base)
		if len(logs) == 0 {
			continue
		}
		iv := judged(LogInterval(logs))
		c.VsBaseline, c.Baseline = &iv, base.Protocol
	}
}

// browserBaseline is the cell the others are held to; nil when neither
// h1 nor h1-tls has an agreed load.
func browserBaseline(cells []results.BrowserCell) *results.BrowserCell {
	for _, p := range []string{protoname.H1, protoname.H1TLS} {
		for i := range cells {
			if c := &cells[i]; c.Protocol == p && c.Skipped == "" && c.LastByte.N > 0 {
				return c
			}
		}
	}
	return nil
}

// pairedLastBytes is, for each round where c and base both have a load
// that completed and agreed, the logarithm of base's last byte over c's.
func pairedLastBytes(c, base *results.BrowserCell) []float64 {
	baseBy := agreedByRound(base)
	var logs []float64
	for round, t := range agreedByRound(c) {
		if b, ok := baseBy[round]; ok && t > 0 && b > 0 {
			logs = append(logs, math.Log(b/t))
		}
	}
	return logs
}

// agreedByRound is c's last-byte time per round, over the loads that
// completed and agreed with the transport and the server's counters (the
// loads its figures are over).
func agreedByRound(c *results.BrowserCell) map[int]float64 {
	out := map[int]float64{}
	for i := range c.Loads {
		ld := &c.Loads[i]
		if ld.Error == "" && len(disagreements(ld, c.Protocol, c.Objects)) == 0 {
			out[ld.Round] = ld.LastByteSeconds
		}
	}
	return out
}
