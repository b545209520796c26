package results

import (
	"encoding/json"
	"io"
)

// Objective is a service level objective a rate must meet: a latency
// quantile at most MaxLatency, measured from each request's intended send
// time (an open loop: queueing counts), and failed requests at most
// MaxErrorRate of all.
type Objective struct {
	// Quantile is the latency quantile held to MaxLatency: 0.5, 0.9, 0.99
	// or 0.999; zero: no latency bound.
	Quantile float64 `json:"quantile,omitempty"`
	// MaxLatency bounds the quantile, seconds.
	MaxLatency float64 `json:"max_latency_seconds,omitempty"`
	// MaxErrorRate bounds failed requests over all, 0 to 1; zero: none may
	// fail.
	MaxErrorRate float64 `json:"max_error_rate"`
	// Text is the objective as written, e.g. "p99<50ms,errors<1%".
	Text string `json:"text"`
}

// Capacity is, per transport, the highest open-loop rate found to meet
// an Objective against one request (httpvs run --slo).
type Capacity struct {
	Objective Objective `json:"objective"`
	// Request is what was sent, e.g. "GET /small".
	Request string `json:"request"`
	// Transports are the searches, in the order asked.
	Transports []CapacityResult `json:"transports"`
	// Baseline is the transport the ratios are to; "" when it met the
	// objective at no rate tried.
	Baseline string `json:"baseline,omitempty"`
	// Net is the emulated link the search crossed, calibrated; absent on
	// loopback.
	Net *Net `json:"net,omitempty"`
	// Stopped says why the search ended before every bracket was as
	// narrow as asked (its time budget); "" when it was not cut.
	Stopped string `json:"stopped,omitempty"`
	// InFlight is the most requests the search kept in flight: h1
	// connections, h2 and h3 streams on one.
	InFlight int `json:"in_flight"`
	// InFlightBound is the most that InFlight requests carry over the
	// link's round trip, each taking one at least (Little's law: InFlight
	// over the calibrated TCP round trip), requests per second; absent on
	// loopback, where it is far past any server's rate.
	InFlightBound float64 `json:"in_flight_bound_rps,omitempty"`
	// ServerCPU says where the server's CPU came from when its counters
	// were not read (a target not httpvs serve, or turned off): "server
	// CPU read from /proc for caddy (pid 1234)", or why it is unknown;
	// "" when the counters gave it.
	ServerCPU string `json:"server_cpu,omitempty"`
}

// CapacityFile is capacity.json, the file of a capacity search's results
// directory (httpvs run --slo; report.WriteCapacity): the search and what
// was not run. Printed as JSON, a capacity search is this too.
type CapacityFile struct {
	Capacity *Capacity `json:"capacity"`
	// NotRun are the transports the search left out (one the server does
	// not speak, say) and why; absent when none was.
	NotRun []NotRun `json:"not_run,omitempty"`
}

// WriteJSON writes f as indented JSON, as capacity.json holds it.
func (f CapacityFile) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// CapacityResult is one transport's searches.
type CapacityResult struct {
	Protocol string `json:"protocol"`
	// Met is the highest rate that met the objective in the median search
	// (the lower middle of the complete searches by Met; the first search
	// when none completed), requests per second; zero when none did.
	Met float64 `json:"met_rps"`
	// Missed is the lowest rate that missed it in that search; zero when
	// every rate it tried up to the search's bound met it. The capacity
	// lies in [Met, Missed): the search's resolution, not an interval.
	Missed float64 `json:"missed_rps,omitempty"`
	// MissedBecause says how the objective was missed at Missed.
	MissedBecause string `json:"missed_because,omitempty"`
	// Searches are the whole searches, in order: the same search repeated
	// as the budget allowed, so that their spread can be seen.
	Searches []CapacityBracket `json:"searches,omitempty"`
	// Steps are the rates tried, in order, each with its search.
	Steps []CapacityStep `json:"steps"`
	// PastBound says the rate missed (Missed) is past
	// Capacity.InFlightBound: the search's own bound on requests in flight
	// may have missed it, not the server.
	PastBound bool `json:"past_in_flight_bound,omitempty"`
	// VsBaseline is Met over the baseline's Met, with its interval and
	// verdict; absent for the baseline, where either met the objective at
	// no rate, and where neither search closed a bracket.
	VsBaseline *CapacityRatio `json:"vs_baseline,omitempty"`
	// ServerCores is the server's CPU, cores, while it carried Met, when
	// known (its counters, or /proc: Capacity.ServerCPU); absent otherwise.
	ServerCores *float64 `json:"server_cores,omitempty"`
}

// CapacityBracket is one whole search's result: the capacity lies in
// [Met, Missed), the search's resolution.
type CapacityBracket struct {
	Met           float64 `json:"met_rps"`
	Missed        float64 `json:"missed_rps,omitempty"`
	MissedBecause string  `json:"missed_because,omitempty"`
	// Cut says the search's budget ended it before its bracket was as
	// narrow as asked.
	Cut bool `json:"cut,omitempty"`
	// ServerCores is the server's CPU while it carried Met, when known.
	ServerCores *float64 `json:"server_cores,omitempty"`
}

// CapacityStep is one rate tried.
type CapacityStep struct {
	Search   int     `json:"search,omitempty"` // which search, from 1
	Rate     float64 `json:"rate_rps"`         // asked, requests per second
	Achieved float64 `json:"achieved_rps"`     // succeeded per second
	Latency  float64 `json:"latency_seconds"`
	Errors   int64   `json:"errors"`
	Requests int64   `json:"requests"`
	Met      bool    `json:"met"`
	Why      string  `json:"why,omitempty"` // how it missed
	// ServerCores is the server's CPU while it ran, cores, when known
	// (its counters, or /proc: Capacity.ServerCPU); absent otherwise.
	ServerCores *float64 `json:"server_cores,omitempty"`
}

// CapacityRatio is one transport's capacity over the baseline's, from
// the searches both completed (paired by search: search i of each took
// its steps in the same turns).
type CapacityRatio struct {
	// Ratio is the geometric mean of the searches' ratios of Met.
	Ratio float64 `json:"ratio"`
	// ResolutionLow and ResolutionHigh are what the brackets allow
	// (geometric means over the searches of Met/baseline Missed and
	// Missed/baseline Met): the search's resolution, not an interval;
	// zero where a bracket is open (below, or above).
	ResolutionLow  float64 `json:"resolution_low"`
	ResolutionHigh float64 `json:"resolution_high,omitempty"`
	// Low and High are the 95% interval with two searches or more: the
	// wider of Student's t over the searches' log ratios and the
	// resolution (High zero where it is open above); zero with one.
	Low  float64 `json:"low,omitempty"`
	High float64 `json:"high,omitempty"`
	// Searches is how many searches the ratio pairs.
	Searches int `json:"searches"`
	// Verdict is the matrix verdict's rule on [Low, High]: VerdictFaster
	// (carries more), VerdictSlower, VerdictSimilar or
	// VerdictUndetermined; VerdictUnknown with one search, which has no
	// spread.
	Verdict string `json:"verdict"`
}
