package analysis

import (
	"slices"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// Saturation thresholds for Bottleneck, as fractions of the cores the
// processes may use.
const (
	busyMachine = 0.85 // both processes together used this share of the machine's cores
	busyClient  = 0.90 // the client alone used this share of its GOMAXPROCS
)

// bottleneck guesses which end limited a repetition from each process's
// cores in use: the client when it had (nearly) all the cores it may use,
// or when the machine was busy and the client used more than the server;
// the server in the converse case; neither when the machine had headroom.
// serverKnown is false when the server's CPU could not be read.
func BottleneckOf(clientCores, serverCores float64, serverKnown bool, cores, gomaxprocs int) string {
	limit := float64(min(cores, gomaxprocs))
	switch {
	case clientCores >= busyClient*limit:
		return results.BottleneckClient
	case !serverKnown:
		return results.BottleneckNone
	case clientCores+serverCores >= busyMachine*float64(cores):
		if clientCores > serverCores {
			return results.BottleneckClient
		}
		return results.BottleneckServer
	case serverCores >= busyClient*float64(cores):
		return results.BottleneckServer
	}
	return results.BottleneckNone
}

// SummariseCell sets c's summary (Median, Min, Max, Spread, Noisy, Errors,
// Negotiated, Bottleneck) from its repetitions, as matrix.Run does for its
// cells: Errors and Negotiated from every one not interrupted, the figures
// from those that count (Counts).
func SummariseCell(c *results.Cell) {
	var values []float64
	votes := map[string]int{}
	c.Errors = stats.ErrorCounts{}
	c.Median, c.Min, c.Max, c.Spread, c.Noisy, c.Bottleneck = 0, 0, 0, 0, false, results.BottleneckNone
	for _, r := range c.Repetitions {
		if r.Interrupted {
			// Cut short by the run's end or a Ctrl-C: its resets are the
			// interrupt's, not the server's.
			continue
		}
		c.Errors.Add(r.Errors)
		if c.Negotiated == "" {
			c.Negotiated = r.Negotiated
		}
		if !Counts(r) {
			continue
		}
		values = append(values, r.Value)
		votes[r.Bottleneck]++
	}
	if len(values) == 0 {
		return
	}
	slices.Sort(values)
	c.Min, c.Max = values[0], values[len(values)-1]
	c.Median = Median(values)
	if c.Median > 0 {
		c.Spread = (c.Max - c.Min) / c.Median
	}
	c.Noisy = c.Spread > NoisySpread
	best := -1
	for _, b := range []string{results.BottleneckNone, results.BottleneckClient, results.BottleneckServer} {
		if votes[b] > best {
			c.Bottleneck, best = b, votes[b]
		}
	}
}

// ratios sets each cell's RatioToBaseline against the baseline cell of its
// scenario (the transport named baseline, Settings.BaselineProtocol).
func SetRatios(cells []results.Cell, baseline string) {
	base := map[string]*results.Cell{}
	for i, c := range cells {
		if c.Protocol == baseline && c.Skipped == "" {
			base[c.Scenario] = &cells[i]
		}
	}
	for i := range cells {
		c := &cells[i]
		c.RatioToBaseline, c.VsBaseline, c.Baseline = 0, nil, ""
		b := base[c.Scenario]
		if b == nil || b.Median <= 0 || c.Skipped != "" || len(c.Repetitions) == 0 {
			continue
		}
		c.Baseline = baseline
		c.RatioToBaseline = c.Median / b.Median
		if LowerIsBetter(c.Metric) {
			c.RatioToBaseline = 0
			if c.Median > 0 {
				c.RatioToBaseline = b.Median / c.Median
			}
		}
		if c.Protocol != baseline {
			if iv := ratioInterval(c, b); iv.Pairs > 0 {
				c.VsBaseline = &iv
			}
		}
	}
}

// SummariseCells recomputes every cell's summary (median, min, max, spread,
// errors, bottleneck) and ratio to the baseline from its repetitions:
// after editing or merging results (analysis.Summarise judges them too).
func SummariseCells(res *results.Results) {
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	SetRatios(res.Cells, res.Settings.BaselineProtocol())
	SetTunedGains(res.Cells)
}
