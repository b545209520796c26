package cli

import (
	"context"
	"strings"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

var sloUsage = "find each transport's capacity at this `objective` instead of the matrix: the highest open-loop rate of your --request (one; default GET /small) whose latency quantile (from the intended send time) and failed share meet it, e.g. 'p99<50ms' or 'p99<50ms,errors<1%' (bounds: p50, p90, p99, p999, errors), with the ratio to h1 and the server's CPU at that rate (its counters, or /proc for another server on this machine's loopback), on loopback or across --net; a search as Envoy Nighthawk's adaptive load controller does, each rate tried once for --duration (default " + defaults.CapacityStep.String() + "), the whole search repeated while --budget (default " + defaults.CapacityBudget.String() + ") holds another, up to five times, so that the ratios have a spread and a verdict (one search shows its resolution only); prints it (text or --format json) and writes capacity.json and report.md to a new directory under --out (none with --no-files)"

// capacity is run --slo: the capacity search against the child server or
// the target, printed.
func (f *runFlags) capacity(ctx context.Context, e *env, fs *flagset.Set, began time.Time) error {
	obj, err := analysis.ParseObjective(f.slo)
	if err != nil {
		return usagef("--slo: %v", err)
	}
	if err := f.sloAlone(fs, f.reqs); err != nil {
		return err
	}
	xo := f.xo
	xo.Began = began
	if err := f.place(&xo); err != nil {
		return err
	}
	if f.external() {
		f.sayStats(e)
	}
	// The request, --duration as the step and --budget: the search's.
	res, notRun, err := experiment.Capacity(ctx, xo, experiment.CapacityOptions{Objective: obj, InFlight: f.inFlight})
	if err := f.runError(fs, err); err != nil {
		return err
	}
	return f.printCapacity(ctx, e, res, notRun, began)
}

// sloAlone refuses what --slo does not go with, in one line: among them
// the matrix's rounds, profiles and pinning, which a capacity search has
// no use for.
func (f *runFlags) sloAlone(fs *flagset.Set, reqs []results.Request) error {
	set := fs.Given()
	ignored := fs.GivenOf("quick", "repeat", "max-repeat", "warmup", "omit", "loss-events", "size", "rep-timeout", "aa", "seed", "pin", "profile", "profile-span")
	switch {
	case len(reqs) > 1:
		return usagef("--slo searches one request's capacity: give one --request, not %d", len(reqs))
	case set["scenarios"] || len(f.nets) > 1 || f.browser.on || f.peers != "":
		return usagef("--slo searches one request's capacity (on loopback, across one --net link, or against --target): it does not go with --scenarios, several --net links, --browser or --peers")
	case len(ignored) > 0:
		return usagef("--slo tries each rate once for --duration within --budget, unpinned and unprofiled: it does not go with %s", strings.Join(ignored, ", "))
	case f.format != "text" && f.format != "json":
		return usagef("--slo prints text or json, not %s", f.format)
	}
	return nil
}

// printCapacity prints the search's results as --format asks and writes
// them to a new results directory under --out (capacity.json and
// report.md), interrupted searches included.
func (f *runFlags) printCapacity(ctx context.Context, e *env, res *results.Capacity, notRun []results.NotRun, began time.Time) error {
	if err := Capacity(e.stdout, f.format, res, notRun); err != nil {
		return err
	}
	if !f.noFiles {
		dir, err := report.WriteCapacity(f.out, res, notRun, began)
		if err != nil {
			return err
		}
		e.say("wrote %s (capacity.json, report.md)", dir)
	}
	if ctx.Err() != nil {
		return e.fail("interrupted: the capacities above are what the search found until then")
	}
	return nil
}
