package matrix

import (
	"context"

	"github.com/httpvs/httpvs/attribution"
)

// Profiles are CPU profiles in pprof's format taken over one span: the
// client's (this process) and the server's; nil where none was taken.
type Profiles struct {
	Client, Server []byte
}

// attribute profiles, in a round of their own after the measured ones,
// every cell of an engine scenario slower than its baseline, and the
// baseline, and records in each slower cell where its extra CPU per unit
// went (Cell.Attribution). The round is not a repetition: profiling costs
// CPU, so no measured figure carries it. Without Options.Profile it does
// nothing.
func (r *runner) attribute(ctx context.Context, runs []*scenarioRun, baseline string) {
	if r.opts.Profile == nil {
		return
	}
	for _, sr := range runs {
		if sr.sc.kind != kindEngine || ctx.Err() != nil {
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
				c.Attribution = compareSides(*s, *base)
			}
		}
	}
}

// slowerCells are sr's measured cells slower than baseline's by more than
// Negligible.
func (r *runner) slowerCells(sr *scenarioRun, baseline string) []*Cell {
	var out []*Cell
	for _, col := range sr.cols {
		c := r.res.Cell(sr.sc.Name, col.name)
		if c == nil || c.Protocol == baseline || c.Skipped != "" || c.RatioToH1 <= 0 || c.RatioToH1 >= 1/(1+Negligible) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// profiled is one profiled span of a cell: its profiles and the units of
// work done in it (Cell.CPUUnit).
type profiled struct {
	Profiles
	units float64
}

// profileRound measures c once more with profiling on; nil when it could
// not (interrupted, nothing done, no profile).
func (r *runner) profileRound(ctx context.Context, sr *scenarioRun, c *Cell) *profiled {
	if c == nil || ctx.Err() != nil {
		return nil
	}
	for i, col := range sr.cols {
		if col.name != c.Protocol {
			continue
		}
		stop := r.opts.Profile(sr.sc.Name, col.name)
		var m Repetition
		if sr.sc.Transfer() {
			m = r.transfer(ctx, sr.sc, col.proto, sr.sizes[i])
		} else {
			m = r.load(ctx, sr.sc, col)
		}
		p := profiled{Profiles: stop(), units: workUnits(sr.sc, m)}
		if m.Interrupted || p.units <= 0 {
			return nil
		}
		return &p
	}
	return nil
}

// workUnits is the work m did in its cell's CPUUnit: GB of body bytes for
// transfers, thousands of successful requests otherwise.
func workUnits(sc Scenario, m Repetition) float64 {
	if sc.Transfer() {
		return float64(m.Bytes) / 1e9
	}
	return float64(m.Requests-m.Errors.Total) / 1000
}

// compareSides attributes each side whose profiles both spans hold.
func compareSides(c, base profiled) []*attribution.Side {
	var out []*attribution.Side
	for _, side := range []struct {
		name     string
		cell, bs []byte
	}{{"client", c.Client, base.Client}, {"server", c.Server, base.Server}} {
		if len(side.cell) == 0 || len(side.bs) == 0 {
			continue
		}
		s, err := attribution.Compare(side.name, attribution.Sample{Profile: side.cell, Units: c.units}, attribution.Sample{Profile: side.bs, Units: base.units})
		if err != nil {
			out = append(out, &attribution.Side{Side: side.name, Error: err.Error()})
			continue
		}
		out = append(out, s)
	}
	return out
}
