package tune

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// search tunes p, then measures h1, the default and the best side by side,
// all before shareEnd. Each candidate is measured back to back with the
// current best. The search stops while the pair and the final 6
// measurements still fit, each as long as one over its transport has taken
// so far.
func (b *bench) search(ctx context.Context, p transport.Protocol, shareEnd time.Time) (tuneresult.Result, error) {
	res := tuneresult.Result{Protocol: p.String(), Default: goDefaults(p)}
	best, err := b.descend(ctx, p, shareEnd, res.Default, &res.Trials)
	if err != nil {
		return res, err
	}
	f, err := b.final(ctx, p, res.Default, best)
	if err != nil {
		return res, err
	}
	if len(f.h1s) == 0 {
		// A final figure of 0 would read as "infinitely slower than h1".
		return res, fmt.Errorf("tune: %s: the budget ran out before the final measurements of h1, the default and the best (a measurement took %v on average; raise the budget): %w",
			p, b.perMeasure(p).Round(time.Millisecond), errCutOff)
	}
	if res.Trials == 0 {
		// Nothing was searched: "best" would be the starting point.
		return res, fmt.Errorf("tune: %s: no trial fit in the budget (a measurement took %v on average; raise the budget): %w",
			p, b.perMeasure(p).Round(time.Millisecond), errCutOff)
	}
	res.Best = best
	res.H1BytesPerSecond, res.DefaultBytesPerSecond, res.BestBytesPerSecond = analysis.Mean(f.h1s), analysis.Mean(f.defs), analysis.Mean(f.bests)
	res.Gain, res.GainLow, res.GainHigh, res.Pairs = pairedGain(f.defs, f.bests)
	conclude(&res, p, f.defRep, b.opts.Link)
	return res, nil
}

// descend is the coordinate descent over p's knobs from start: one knob
// at a time, up to three passes while a pass improves. It returns the
// best settings found and adds the measurements it made to *trials. It
// stops early, keeping what it found, when the candidate pair and the
// final rounds would no longer fit before shareEnd, or ctx ends.
func (b *bench) descend(ctx context.Context, p transport.Protocol, shareEnd time.Time, start tuneresult.Settings, trials *int) (tuneresult.Settings, error) {
	best := start
	for pass := 0; pass < 3; pass++ {
		improved := false
		for _, k := range knobs(p) {
			for _, v := range k.values {
				if time.Until(shareEnd) < b.reserve(p) || ctx.Err() != nil {
					return best, nil
				}
				cand := best
				if *k.get(&cand) == v {
					continue
				}
				*k.get(&cand) = v
				won, err := b.duel(ctx, p, cand, best)
				if errors.Is(err, errCutOff) {
					return best, nil
				} else if err != nil {
					return best, err
				}
				*trials += 2
				if won {
					best, improved = cand, true
				}
			}
		}
		if !improved {
			break
		}
	}
	return best, nil
}

// duel measures cand, then best, and says whether cand won clearly (by
// more than 5%). Paired with a fresh measurement of the best, so that
// drift on a shared machine hits both.
func (b *bench) duel(ctx context.Context, p transport.Protocol, cand, best tuneresult.Settings) (bool, error) {
	rate, _, err := b.measure(ctx, p, cand)
	if err != nil {
		return false, err
	}
	bestRate, _, err := b.measure(ctx, p, best)
	if err != nil {
		return false, err
	}
	return rate > bestRate*1.05, nil
}

// finals are the final rounds' rates in bytes per second, one a round
// each for h1, the default and the best; defRep is the last round's
// default transfer, which the diagnosis reads.
type finals struct {
	h1s, defs, bests []float64
	defRep           transferresult.Result
}

// final measures h1, def and best interleaved, finalRounds times, for
// the means of the rounds and the best's gain paired by round. A round
// the budget or an interrupt cuts off ends them with the rounds before
// it, possibly none.
func (b *bench) final(ctx context.Context, p transport.Protocol, def, best tuneresult.Settings) (finals, error) {
	var f finals
	for i := 0; i < finalRounds && ctx.Err() == nil; i++ {
		h1, d, bb, dr, err := b.finalRound(ctx, p, def, best)
		if errors.Is(err, errCutOff) {
			break
		} else if err != nil {
			return f, err
		}
		f.h1s, f.defs, f.bests, f.defRep = append(f.h1s, h1), append(f.defs, d), append(f.bests, bb), dr
	}
	return f, nil
}

// finalRound measures h1 (256 KiB reads and writes), then
// def and best over p, and returns their rates in bytes per second and
// the default's transfer.
func (b *bench) finalRound(ctx context.Context, p transport.Protocol, def, best tuneresult.Settings) (h1, d, bb float64, dr transferresult.Result, err error) {
	if h1, _, err = b.measure(ctx, transport.H1, tuneresult.Settings{ReadSize: 256 * units.KiB, WriteSize: 256 * units.KiB}); err != nil {
		return
	}
	if d, dr, err = b.measure(ctx, p, def); err != nil {
		return
	}
	bb, _, err = b.measure(ctx, p, best)
	return
}

// conclude fills res's ratios, diagnosis and code from its final means,
// keeping the defaults when the best found measured no better.
func conclude(res *tuneresult.Result, p transport.Protocol, defRep transferresult.Result, link *Link) {
	res.Candidate, res.CandidateBytesPerSecond = res.Best, res.BestBytesPerSecond
	if res.Pairs < 2 || res.GainLow <= 1 || res.Best == res.Default {
		// Never offer what did not measure better than the defaults
		// beyond the final rounds' noise, nor the defaults themselves
		// (the same settings measured twice differ by noise alone).
		res.Best, res.BestBytesPerSecond, res.DefaultsBest = res.Default, res.DefaultBytesPerSecond, true
	}
	if res.H1BytesPerSecond > 0 {
		res.DefaultRatioToH1 = res.DefaultBytesPerSecond / res.H1BytesPerSecond
		res.RatioToH1 = res.BestBytesPerSecond / res.H1BytesPerSecond
	}
	res.Diagnosis = diagnose(p, defRep, *res, link)
	if !res.DefaultsBest {
		res.GoCode = goCode(p, res.Best)
	}
}

// finalRounds is how many times the final measurements interleave h1,
// the defaults and the best: enough rounds for the best's gain to have an
// interval (two give Student's t 12.7 times the spread).
const finalRounds = 4
