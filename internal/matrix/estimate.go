package matrix

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/transport"
)

// EstimateRun works out what Run(ctx, opts) will cost, assuming every
// transport moves at the link's goodput (a transport slower than the link
// takes longer: its transfers are sized by the link). Its error is for
// options Run would refuse.
func EstimateRun(opts Options) (Estimate, error) {
	return estimateRun(opts)
}

// estimateRun is EstimateRun with the runner's methods on its options.
func estimateRun(opts Options) (Estimate, error) {
	if err := opts.fill(); err != nil {
		return Estimate{}, err
	}
	scenarios, err := opts.expand()
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{Rounds: opts.Repeat, MaxRounds: opts.MaxRepeat, Time: opts.crossoverCost() + opts.browserCost()}
	r := &runner{opts: opts}
	most := 0
	for _, sc := range scenarios {
		k := opts.repeat(sc)
		if e.Fewest == 0 || k < e.Fewest {
			e.Fewest = k
		}
		most = max(most, k)
		e.Cells += len(r.columns(sc))
		e.Time += opts.prepCost(sc) + time.Duration(opts.repeat(sc))*opts.stageCost(sc)
	}
	if most > 0 {
		e.Rounds = most
	}
	return e, nil
}

// coldCost is a cold request's expected time over p: its round trips
// across the link (coldRTTs), or a few milliseconds on loopback.
func (o *Options) coldCost(p transport.Protocol, resumed bool) time.Duration {
	k, _ := linkmodel.ColdRTTs(p.String(), resumed)
	return time.Duration(max(k, 1))*o.RTT + 5*time.Millisecond
}

// checkCost is the expected time of a cell's check before its rounds
// (runner.prepare): one request or one small transfer per stream, and on
// loopback a transfer's sizing probe; a user's request measured as a
// transfer, one response of it whole.
func (o *Options) checkCost(sc Scenario, p transport.Protocol) time.Duration {
	d := o.coldCost(p, false) + o.RTT
	if userTransfer(sc) {
		d += spec(&sc).OneResponse[p]
	}
	if scenariospec.Transfer(sc.Metric) && o.Size == 0 && o.linkSize(sc) == 0 {
		d += max(min(o.Duration/2, maxProbe), minProbe)
	}
	return d
}

// roundCost is the expected time of one round of sc over p.
func (o *Options) roundCost(sc Scenario, p transport.Protocol) time.Duration {
	cold := o.coldCost(p, scenariospec.Of(&sc).Resume)
	switch {
	case scenariospec.Of(&sc).ColdStart():
		return o.Duration + cold
	case scenariospec.Of(&sc).PageLoad():
		page := cold
		if o.Link != nil {
			if b := linkmodel.PageBound(p.String(), o.Link); b != nil {
				page = time.Duration(b.Value * float64(time.Second))
			}
		}
		return max(o.Duration, pageMinUnits*page) + page
	case scenariospec.Of(&sc).HeadOfLine():
		return cold + max(o.Warmup, holWarmRTTs*o.RTT) + o.Duration + o.RTT
	case scenariospec.Transfer(sc.Metric):
		return cold + o.transferTime(sc, p) + o.RTT
	case userTransfer(sc):
		return cold + o.transferRound(sc, p) + o.RTT
	}
	r := &runner{opts: *o}
	return cold + o.Warmup + r.firstTry(sc) + o.RTT
}

// MinFirstStage is the fewest first rounds FitBudget cuts a run to:
// Student's t with one degree of freedom (two rounds) is 12.7, an
// interval too wide to decide anything.
const MinFirstStage = 3

// budgetDuration is what FitBudget cuts a default Duration to before it
// cuts rounds: two --budget 30s runs decided 30 and 36 of 44 cells with
// rounds cut, 38 and 37 with 50 ms repetitions and the rounds kept
// (docs/measurements.md).
const budgetDuration = 50 * time.Millisecond

// firstShare is the share of a budget the first rounds may take when
// FitBudget cuts them: the rest goes to the cells whose verdict is open.
const firstShare = 0.8

// FitBudget fits opts's first stage to left, the time its budget leaves
// when the cells start, until its estimate (EstimateRun) takes at most
// firstShare of left: a default Duration (zero, with a zero Warmup) is
// cut to budgetDuration first, then Repeat down to MinFirstStage. When even
// MinFirstStage rounds take more, rounds are fixed at them (MaxRepeat =
// Repeat: one look, no added rounds), and the run takes what their
// estimate says if that is past left. note says, in a line, what it cut
// and why; "" when opts fit as they were.
func FitBudget(opts Options, left time.Duration) (fitted Options, est Estimate, note string, err error) {
	est, err = EstimateRun(opts)
	if err != nil || left <= 0 || opts.Repeat == 0 || float64(est.Time) <= firstShare*float64(left) {
		return opts, est, "", err
	}
	shorter := "" // what cutting Duration did, said first
	if opts.Duration == 0 && opts.Warmup == 0 {
		// Shorter repetitions before fewer rounds: a round's information
		// shrinks with its length, an interval's t quantile grows as its
		// rounds fall.
		opts.Duration = budgetDuration
		if est, err = EstimateRun(opts); err != nil {
			return opts, est, "", err
		}
		shorter = fmt.Sprintf("each repetition cut from %s to %s", defaults.MatrixDuration, budgetDuration)
		if float64(est.Time) <= firstShare*float64(left) {
			return opts, est, fmt.Sprintf("%s to fit the budget (about %s of the %s left), the rest for the cells still undetermined",
				shorter, est.Time.Round(time.Second), left.Round(time.Second)), nil
		}
		shorter += "; "
	}
	asked := opts.Repeat
	for opts.Repeat > MinFirstStage {
		opts.Repeat--
		if est, err = EstimateRun(opts); err != nil {
			return opts, est, "", err
		}
		if float64(est.Time) <= firstShare*float64(left) {
			return opts, est, fmt.Sprintf("%sthe first rounds cut from %d to %d a cell to fit the budget (about %s of the %s left), the rest for the cells still undetermined",
				shorter, asked, opts.Repeat, est.Time.Round(time.Second), left.Round(time.Second)), nil
		}
	}
	opts.Repeat = max(opts.Repeat, min(asked, MinFirstStage))
	opts.MaxRepeat = opts.Repeat
	if est, err = EstimateRun(opts); err != nil {
		return opts, est, "", err
	}
	if est.Time <= left {
		return opts, est, fmt.Sprintf("%s%d rounds a cell, no more: the budget leaves no room past them (about %s of the %s left)",
			shorter, opts.Repeat, est.Time.Round(time.Second), left.Round(time.Second)), nil
	}
	return opts, est, fmt.Sprintf("%sthe budget cannot hold the first %d rounds a cell, the fewest an interval here is worth (about %s, %s left): the run takes about that, with no rounds added",
		shorter, opts.Repeat, est.Time.Round(time.Second), left.Round(time.Second)), nil
}
