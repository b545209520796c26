package experiment

import (
	"context"

	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/plan"
)

// Estimate is how long o's matrix is planned to take against a loopback
// server, from its options alone (no clock read, no machine assumed, no
// child started): what help says a preset takes. The child's start and
// the machine's load come on top.
func Estimate(o Options) (plan.Estimate, error) {
	target := plan.Target{Plain: "http://127.0.0.1:1", TLS: "https://127.0.0.1:1", GRPC: "127.0.0.1:1"}
	planned, err := matrix.Plan(context.Background(), matrix.Options{Options: o.Matrix, Wiring: matrix.Wiring{Target: target}}, matrix.PlanOptions{})
	return planned.Estimate, err
}
