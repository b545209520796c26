package analysis

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/httpvs/httpvs/internal/attribution"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/results"
)

// Attribution from CPU profiles: where a cell called slower spent its
// extra CPU per unit of work, against its baseline's. The measuring side
// profiles a round of its own (internal/matrix); explain attributes from
// profiles kept on disk.

// CalledSlower reports whether the verdict calls c slower than baseline:
// the interval of its paired ratios (Cell.VsH1) lies below 1. The ratio of
// medians is not asked: a cell the verdict calls ≈ is not attributed, and
// one it calls slower is, whatever its medians say.
func CalledSlower(c *results.Cell, baseline string) bool {
	return c != nil && c.Protocol != baseline && c.Skipped == "" && c.VsBaseline != nil && c.VsBaseline.Verdict == results.VerdictSlower
}

// ProfileSpan is one profiled span of a cell: its CPU profiles, each
// side's (nil where that side was not profiled), and the units of work
// done in it (Cell.CPUUnit).
type ProfileSpan struct {
	Client, Server []byte
	Units          float64
}

// WorkUnits is the work m did in its cell's CPUUnit: GB of body bytes
// for a transfer, thousands of successful requests otherwise.
func WorkUnits(transfer bool, m results.Repetition) float64 {
	if transfer {
		return float64(m.Bytes) / 1e9
	}
	return float64(m.Requests-m.Errors.Total) / 1000
}

// CompareProfiles attributes each side whose profiles both spans hold:
// where c's extra CPU per unit over base's went.
func CompareProfiles(c, base ProfileSpan) []*results.AttributionSide {
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
			attribution.Sample{Profile: side.cell, Units: c.Units, ExcludeLabel: attribution.EmulatorLabel},
			attribution.Sample{Profile: side.bs, Units: base.Units, ExcludeLabel: attribution.EmulatorLabel})
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
		if c.Attribution != nil || !CalledSlower(c, baseline) {
			continue
		}
		base := res.Cell(c.Scenario, baseline)
		cp, err := storedProfiles(c, read)
		if err == nil {
			var bp *ProfileSpan
			if bp, err = storedProfiles(base, read); err == nil {
				c.Attribution = CompareProfiles(*cp, *bp)
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
func storedProfiles(c *results.Cell, read func(c *results.Cell, side string) ([]byte, error)) (*ProfileSpan, error) {
	if c == nil {
		return nil, fmt.Errorf("no baseline cell")
	}
	var p ProfileSpan
	for _, m := range c.Repetitions {
		if m.Profiled {
			p.Units = WorkUnits(c.CPUUnit == "GB", m)
		}
	}
	if p.Units <= 0 {
		return nil, fmt.Errorf("%s: no profiled repetition in the results", c.Protocol)
	}
	var err error
	if p.Client, err = read(c, "client"); err != nil {
		return nil, err
	}
	p.Server, _ = read(c, "server") // a server without profiling has none
	return &p, nil
}
