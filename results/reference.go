package results

// ReferenceCell is one scenario over one transport measured with reference
// peers (httpvs run --peers): a server (a C server such as h2o, or "go",
// the run's own httpvs serve) and a client (curl for transfers; h2load,
// wrk or oha for requests). Its ratio to h1 is against the same server
// and client over h1, paired by round, so it says what the transport
// costs where neither end is Go's code (or only one end is).
type ReferenceCell struct {
	Scenario string `json:"scenario"`
	Server   string `json:"server"` // the server peer, or ReferenceGo
	// Language is what the server is written in (the peers' catalogue;
	// "Go" for ReferenceGo); "" in results written before it was
	// recorded, which then count as Go's.
	Language string `json:"language,omitempty"`
	Client   string `json:"client"`   // the client peer: curl, h2load, wrk or oha
	Protocol string `json:"protocol"` // the transport
	Metric   string `json:"metric"`   // MetricBytesPerSecond or MetricRequestsPerSecond
	// Rounds holds each round's value in the metric's unit; a failed
	// round is 0 and its error is in Errors.
	Rounds []float64 `json:"rounds"`
	Errors []string  `json:"errors,omitempty"`
	// Median is over the rounds that succeeded; 0 when none did.
	Median float64 `json:"median"`
	// ServerCPUPerUnit is the server's CPU seconds per GB or per 1,000
	// requests (as Cell.CPUUnit), median over rounds; nil when unknown.
	ServerCPUPerUnit *float64 `json:"server_cpu_per_unit"`
	// VsH1 is the ratio to the same server and client over h1; absent for
	// h1 and when fewer than one round paired.
	VsH1 *Interval `json:"vs_h1,omitempty"`
	// Skipped says why the cell was not measured (the server cannot take
	// uploads over this transport, for example).
	Skipped string `json:"skipped,omitempty"`
}

// ReferenceGo is ReferenceCell.Server for the run's own server.
const ReferenceGo = "go"
