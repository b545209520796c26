package matrix

import (
	"context"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/results"
)

// attribute profiles, in a round of their own after the measured ones,
// every cell of an engine scenario the verdict calls slower than its
// baseline (calledSlower), and the
// baseline, and records in each slower cell where its extra CPU per unit
// went (Cell.Attribution). The round is not a repetition: profiling costs
// CPU, so no measured figure carries it. Without Options.Profile it does
// nothing.
func (r *runner) attribute(ctx context.Context, runs []*scenarioRun, baseline string) {
	if r.opts.Profile == nil {
		return
	}
	for _, sr := range runs {
		if !scenariospec.Of(&sr.sc).Engine() || ctx.Err() != nil {
			continue
		}
		slower := r.slowerCells(sr, baseline)
		if len(slower) == 0 {
			continue
		}
		base := r.profileRound(ctx, sr, r.res.Cell(sr.sc.Name, baseline))
		if base == nil {
			continue
		}
		for _, c := range slower {
			if s := r.profileRound(ctx, sr, c); s != nil {
				c.Attribution = analysis.CompareProfiles(*s, *base)
			}
		}
	}
}

// slowerCells are sr's measured cells the verdict calls slower than the
// baseline.
func (r *runner) slowerCells(sr *scenarioRun, baseline string) []*results.Cell {
	var out []*results.Cell
	for _, col := range sr.cols {
		if c := r.res.Cell(sr.sc.Name, col.name); analysis.CalledSlower(c, baseline) {
			out = append(out, c)
		}
	}
	return out
}

// maxProfiled bounds the measurements of one profiling round of
// defaults.ProfileSpan; a longer round may take proportionally more.
const maxProfiled = 50

// profileSpan is Options.ProfileSpan, or defaults.ProfileSpan.
func (o Options) profileSpan() time.Duration {
	if o.ProfileSpan > 0 {
		return o.ProfileSpan
	}
	return defaults.ProfileSpan
}

// profileRound measures c again with profiling on, for the profile span;
// nil when it could not (interrupted, nothing done).
func (r *runner) profileRound(ctx context.Context, sr *scenarioRun, c *results.Cell) *analysis.ProfileSpan {
	if c == nil || ctx.Err() != nil {
		return nil
	}
	for i, col := range sr.cols {
		if col.name != c.Protocol {
			continue
		}
		stop := r.opts.Profile(sr.sc.Name, col.name)
		var units float64
		span := r.opts.profileSpan()
		most := max(maxProfiled, int(maxProfiled*span/defaults.ProfileSpan))
		for n, began := 0, time.Now(); n < most && time.Since(began) < span && ctx.Err() == nil; n++ {
			var m results.Repetition
			switch {
			case userTransfer(sr.sc):
				m = r.requestTransfer(ctx, sr.sc, col.proto, false)
			case scenariospec.Transfer(sr.sc.Metric):
				m = r.transfer(ctx, sr.sc, col.proto, sr.sizes[i])
			default:
				m = r.load(ctx, sr.sc, col)
			}
			if !m.Interrupted {
				units += workUnits(sr.sc, m)
			}
		}
		got := stop()
		p := analysis.ProfileSpan{Client: got.Client, Server: got.Server, Units: units}
		if ctx.Err() != nil || p.Units <= 0 {
			return nil
		}
		return &p
	}
	return nil
}

// workUnits is the work m did in its cell's CPUUnit: GB of body bytes for
// transfers, thousands of successful requests otherwise.
func workUnits(sc Scenario, m results.Repetition) float64 {
	return analysis.WorkUnits(transferKind(sc), m)
}
