package experiment

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// judge says whether st meets obj, and how it missed; behind says the
// requests that ended fell short of the rate asked.
func judge(st results.CapacityStep, behind bool, firstError string, obj results.Objective) (bool, string) {
	switch {
	case st.Requests == 0:
		return false, "no request finished"
	case float64(st.Errors) > obj.MaxErrorRate*float64(st.Requests):
		return false, fmt.Sprintf("%d of %d requests failed (first: %s)", st.Errors, st.Requests, firstError)
	case obj.Quantile > 0 && st.Latency > obj.MaxLatency:
		return false, fmt.Sprintf("p%s %v > %v", quantileName(obj.Quantile), seconds(st.Latency), seconds(obj.MaxLatency))
	case behind:
		return false, fmt.Sprintf("carried %.0f of %.0f req/s asked", st.Achieved, st.Rate)
	}
	return true, ""
}

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(time.Microsecond)
}

func quantileName(q float64) string {
	return map[float64]string{0.5: "50", 0.9: "90", 0.99: "99", 0.999: "999"}[q]
}

// quantile is l's latency at q, seconds (p50, p90, p99, p999).
func quantile(l stats.LatencySummary, q float64) float64 {
	switch q {
	case 0.5:
		return l.P50
	case 0.9:
		return l.P90
	case 0.999:
		return l.P999
	}
	return l.P99
}

// validate refuses a negative bound: zero is the default, never less.
func (c CapacityOptions) validate() error {
	switch {
	case c.Step < 0:
		return fielderr.New("Step", c.Step, "a positive duration; zero: the matrix's Duration, or %v", defaults.CapacityStep)
	case c.Start < 0 || c.MaxRate < 0:
		return fielderr.New("Start", fmt.Sprintf("%v and MaxRate %v", c.Start, c.MaxRate), "positive rates; zero: their defaults")
	case c.Refine < 0:
		return fielderr.New("Refine", c.Refine, "1 bisection or more; zero: %d", defaultCapacityRefine)
	case c.InFlight < 0:
		return fielderr.New("InFlight", c.InFlight, "1 request in flight or more; zero: %d", defaults.CapacityInFlight)
	case c.Budget < 0:
		return fielderr.New("Budget", c.Budget, "a positive duration; zero: Options.Budget, or %v", defaults.CapacityBudget)
	}
	return nil
}
