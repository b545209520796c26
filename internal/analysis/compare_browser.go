package analysis

import (
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// browserDeltas are the real browser's cells of old and new side by side
// (Results.Browser), one a transport, as Compare gives the matrix's: the
// load event's mean over the loads that completed, tested on its values
// (a browser load has no round paired with a baseline), in new's order
// followed by transports only old has.
func browserDeltas(old, new *results.Results) []delta {
	var out []delta
	seen := map[string]bool{}
	for _, n := range new.Browser {
		seen[n.Protocol] = true
		out = append(out, browserDelta(browserCell(old, n.Protocol), &n))
	}
	for _, o := range old.Browser {
		if !seen[o.Protocol] {
			out = append(out, browserDelta(&o, nil))
		}
	}
	return out
}

// browserCell is res's browser cell over protocol, nil without one.
func browserCell(res *results.Results, protocol string) *results.BrowserCell {
	for i := range res.Browser {
		if res.Browser[i].Protocol == protocol {
			return &res.Browser[i]
		}
	}
	return nil
}

// browserDelta compares one transport's browser cell of the two runs (o
// or n nil where missing).
func browserDelta(o, n *results.BrowserCell) delta {
	c := n
	if c == nil {
		c = o
	}
	d := delta{Delta: results.Delta{Scenario: vocab.BrowserScenario, Protocol: c.Protocol, Metric: results.MetricSeconds, Alpha: compareAlpha}}
	ov, nv := loadEvents(o), loadEvents(n)
	d.OldN, d.NewN = len(ov), len(nv)
	switch {
	case len(ov) == 0 && len(nv) == 0:
		d.Note = "not loaded in either"
		return d
	case len(ov) == 0:
		d.New, d.Note = Mean(nv), "only in new"
		return d
	case len(nv) == 0:
		d.Old, d.Note = Mean(ov), "only in old"
		return d
	}
	d.Old, d.New = Mean(ov), Mean(nv)
	if d.Old > 0 {
		d.Change = d.New/d.Old - 1
	}
	d.Tested = TestedValue
	testDelta(&d, logs(ov), logs(nv))
	return d
}

// loadEvents are c's load event times, seconds, of the loads that
// completed; none for a nil or skipped cell.
func loadEvents(c *results.BrowserCell) []float64 {
	if c == nil || c.Skipped != "" {
		return nil
	}
	var out []float64
	for _, ld := range c.Loads {
		if ld.Error == "" && ld.LoadEventSeconds > 0 {
			out = append(out, ld.LoadEventSeconds)
		}
	}
	return out
}
