package analysis

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/results"
)

// quantiles are the latency quantiles an objective may name.
var quantiles = map[string]float64{"p50": 0.5, "p90": 0.9, "p99": 0.99, "p999": 0.999}

// ParseObjective reads an objective: comma-separated bounds, each
// "pNN<DURATION" (p50, p90, p99, p999) or "errors<PERCENT%", e.g.
// "p99<50ms" or "p99<50ms,errors<1%". At most one latency bound.
func ParseObjective(s string) (results.Objective, error) {
	o := results.Objective{Text: strings.TrimSpace(s)}
	if o.Text == "" {
		return o, fmt.Errorf("objective %q: want e.g. p99<50ms or p99<50ms,errors<1%%", s)
	}
	for _, part := range strings.Split(o.Text, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "<")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		q, isQuantile := quantiles[name]
		switch {
		case !ok:
			return o, fmt.Errorf("objective %q: %q: want NAME<BOUND, e.g. p99<50ms", s, part)
		case isQuantile:
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 || o.Quantile != 0 {
				return o, fmt.Errorf("objective %q: %q: want one latency bound, a positive duration, e.g. p99<50ms", s, part)
			}
			o.Quantile, o.MaxLatency = q, d.Seconds()
		case name == "errors":
			pct, err := strconv.ParseFloat(strings.TrimSuffix(value, "%"), 64)
			if err != nil || !strings.HasSuffix(value, "%") || pct < 0 || pct >= 100 {
				return o, fmt.Errorf("objective %q: %q: want errors<PERCENT%%, 0 to under 100, e.g. errors<1%%", s, part)
			}
			o.MaxErrorRate = pct / 100
		default:
			return o, fmt.Errorf("objective %q: %q: want p50, p90, p99, p999 or errors", s, name)
		}
	}
	if o.Quantile == 0 && o.MaxErrorRate == 0 {
		return o, fmt.Errorf("objective %q: want a latency bound, e.g. p99<50ms", s)
	}
	return o, nil
}
