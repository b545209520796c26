package matrix

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/attribution"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/runfiles"
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
				c.Attribution = compareSides(*s, *base)
			}
		}
	}
}

// slowerCells are sr's measured cells the verdict calls slower than the
// baseline.
func (r *runner) slowerCells(sr *scenarioRun, baseline string) []*results.Cell {
	var out []*results.Cell
	for _, col := range sr.cols {
		if c := r.res.Cell(sr.sc.Name, col.name); calledSlower(c, baseline) {
			out = append(out, c)
		}
	}
	return out
}

// calledSlower reports whether the verdict calls c slower than baseline:
// the interval of its paired ratios (Cell.VsH1) lies below 1. The ratio of
// medians is not asked: a cell the verdict calls ≈ is not attributed, and
// one it calls slower is, whatever its medians say.
func calledSlower(c *results.Cell, baseline string) bool {
	return c != nil && c.Protocol != baseline && c.Skipped == "" && c.VsBaseline != nil && c.VsBaseline.Verdict == results.VerdictSlower
}

// profiled is one profiled span of a cell: its profiles and the units of
// work done in it (Cell.CPUUnit).
type profiled struct {
	Profiles
	units float64
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
func (r *runner) profileRound(ctx context.Context, sr *scenarioRun, c *results.Cell) *profiled {
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
		p := profiled{Profiles: stop(), units: units}
		if ctx.Err() != nil || p.units <= 0 {
			return nil
		}
		return &p
	}
	return nil
}

// workUnits is the work m did in its cell's CPUUnit: GB of body bytes for
// transfers, thousands of successful requests otherwise.
func workUnits(sc Scenario, m results.Repetition) float64 {
	return workUnitsOf(transferKind(sc), m)
}

func workUnitsOf(transfer bool, m results.Repetition) float64 {
	if transfer {
		return float64(m.Bytes) / 1e9
	}
	return float64(m.Requests-m.Errors.Total) / 1000
}

// compareSides attributes each side whose profiles both spans hold.
func compareSides(c, base profiled) []*results.AttributionSide {
	var out []*results.AttributionSide
	for _, side := range []struct {
		name     string
		cell, bs []byte
	}{{"client", c.Client, base.Client}, {"server", c.Server, base.Server}} {
		if len(side.cell) == 0 || len(side.bs) == 0 {
			continue
		}
		// The client's process runs the emulated link's ferry: its
		// goroutines carry attribution.EmulatorLabel and are left out.
		s, err := attribution.Compare(side.name,
			attribution.Sample{Profile: side.cell, Units: c.units, ExcludeLabel: attribution.EmulatorLabel},
			attribution.Sample{Profile: side.bs, Units: base.units, ExcludeLabel: attribution.EmulatorLabel})
		if err != nil {
			out = append(out, &results.AttributionSide{Side: side.name, Error: err.Error()})
			continue
		}
		out = append(out, s)
	}
	return out
}

// AttributeProfiles attributes, from profiles kept on disk, the cells of
// res the verdict calls slower than their baseline that carry no
// Attribution: results of
// runs made before profiles had rounds of their own, whose first
// repetition of each cell was profiled (Repetition.Profiled, whose work
// is the units). read returns a cell's CPU profile of one side ("client"
// or "server"). It returns one error per cell it could not attribute.
func AttributeProfiles(res *results.Results, read func(c *results.Cell, side string) ([]byte, error)) []error {
	var errs []error
	baseline := res.Settings.BaselineProtocol()
	for i := range res.Cells {
		c := &res.Cells[i]
		if c.Attribution != nil || !calledSlower(c, baseline) {
			continue
		}
		base := res.Cell(c.Scenario, baseline)
		cp, err := storedProfiles(c, read)
		if err == nil {
			var bp *profiled
			if bp, err = storedProfiles(base, read); err == nil {
				c.Attribution = compareSides(*cp, *bp)
				continue
			}
		}
		errs = append(errs, fmt.Errorf("%s/%s: %w", c.Scenario, c.Protocol, err))
	}
	return errs
}

// ProfilesIn returns a reader for AttributeProfiles of the CPU profiles
// in dir: a cell's profile of one side under the name Options.Profile
// gives it (runfiles.ProfileFile: SCENARIO_PROTOCOL.SIDE.cpu.pprof, a
// variant's ':' as '+'), or, failing that, under the name runs made
// earlier gave it, with the ':' kept. A profile under neither name is an
// error naming the file and dir.
func ProfilesIn(dir string) func(c *results.Cell, side string) ([]byte, error) {
	return func(c *results.Cell, side string) ([]byte, error) {
		name := runfiles.ProfileFile(c.Scenario, c.Protocol, side, "cpu")
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			old := strings.NewReplacer("/", "_", " ", "_").Replace(c.Scenario+"_"+c.Protocol) + "." + side + ".cpu.pprof"
			if b, err = os.ReadFile(filepath.Join(dir, old)); err == nil {
				return b, nil
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no %s in %s", name, dir)
		}
		return b, err
	}
}

// storedProfiles reads c's profiles and the work of its profiled
// repetition.
func storedProfiles(c *results.Cell, read func(c *results.Cell, side string) ([]byte, error)) (*profiled, error) {
	if c == nil {
		return nil, fmt.Errorf("no baseline cell")
	}
	var p profiled
	for _, m := range c.Repetitions {
		if m.Profiled {
			p.units = workUnitsOf(c.CPUUnit == "GB", m)
		}
	}
	if p.units <= 0 {
		return nil, fmt.Errorf("%s: no profiled repetition in the results", c.Protocol)
	}
	var err error
	if p.Client, err = read(c, "client"); err != nil {
		return nil, err
	}
	p.Server, _ = read(c, "server") // a server without profiling has none
	return &p, nil
}
