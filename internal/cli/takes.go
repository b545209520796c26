package cli

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// planTakes says how long a preset's run of the default matrix is planned
// to take on loopback: experiment.Estimate from the options' constants (no
// clock read, no machine assumed), beside the tuned rows a run as shipped
// measures; the child's start and the machine's load come on top.
func planTakes(o experiment.Options) string {
	est, err := presetPlan(o)
	if err != nil {
		return "its plan unknown"
	}
	return fmt.Sprintf("planned at %.0f s of cells, more under load", est.Seconds())
}

// presetPlan is o's planned time for the default matrix against a
// loopback child.
func presetPlan(o experiment.Options) (time.Duration, error) {
	o.Matrix.Protocols, o.Matrix.Scenarios, o.Matrix.AA = transport.All, plan.Scenarios, nil
	tuned := knobs.Tuned
	o.Matrix.Alongside = &tuned
	est, err := experiment.Estimate(o)
	if err != nil {
		return 0, err
	}
	return est.Time, nil
}
