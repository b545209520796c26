package cli

import (
	"strings"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/plan"
)

// noiseFlags are run's flags for the method that keeps its intervals
// honest: pinning, the A/A column and the rounds' order.
type noiseFlags struct {
	pin  bool
	aa   string
	seed uint64
}

func (n *noiseFlags) register(fs *flagset.Set) {
	fs.BoolVar(&n.pin, "pin", false, "on loopback with the child server and a quiet machine, pin the generator and the server each to its own half of the CPUs (one core each on two), GOMAXPROCS to match: more cells settle (their goroutines no longer trade cores), but each side has one core where Go as shipped has all, which moves the answer (download h2c/h1 0.24-0.27x unpinned, 0.28-0.32x pinned on two cores)")
	fs.StringVar(&n.aa, "aa", "", "scenarios that measure the baseline a second time, as an A/A column in the same rounds, whose interval is the run's noise floor: a `list`, all, each-kind (the first scenario of each kind of work: a transfer, a request load, gRPC), or none (default each-kind; none with --quick and --net)")
	fs.Uint64Var(&n.seed, "seed", 0, "seed of each round's random column order (default: from the clock; the results record it)")
}

// apply sets the matrix options the flags decide over the preset's,
// which o holds, and noAA for --aa none; given holds the flags given.
// The experiment checks --aa's names against the scenarios.
func (n *noiseFlags) apply(o *plan.Options, noAA *bool, given map[string]bool) {
	o.Seed = n.seed
	switch {
	case !given["aa"]:
	case n.aa == "none" || n.aa == "":
		o.AA, *noAA = nil, true
	default:
		o.AA = strings.Split(strings.ReplaceAll(n.aa, " ", ""), ",")
	}
}

// preset is the experiment's preset the flags start from: Quick with
// --quick, else the zero Options (`httpvs run`'s, or across --net's
// link its own).
func (f *runFlags) preset() experiment.Options {
	if f.quick {
		return experiment.Quick()
	}
	return experiment.Options{}
}
