package results

import "slices"

// ReferenceCell is one scenario over one transport measured with reference
// peers (httpvs run --peers): a server (a C server such as h2o, or "go",
// the run's own httpvs serve) and a client (curl for transfers; h2load,
// wrk or oha for requests). Its ratio to h1 is against the same server
// and client over h1, paired by round, so it says what the transport
// costs where neither end is Go's code (or only one end is).
type ReferenceCell struct {
	Scenario string `json:"scenario"`
	Server   string `json:"server"` // the server peer, or "go"
	// Language is what the server is written in (the peers' catalogue;
	// "Go" for "go"); "" in results written before it was
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
	// WithoutGo says the cell can speak for its transport without Go: a
	// server not written in Go, a ratio to h1 over at least two rounds
	// no wider than ±50% (set by the analysis).
	WithoutGo bool `json:"without_go,omitempty"`
}

// ReferenceRow is one client's scenario over one transport, as the
// reference peers played it: a cell per server.
type ReferenceRow struct {
	Scenario, Protocol, Client string
	ByServer                   map[string]*ReferenceCell
}

// ReferenceRows groups r.References into rows (h1's included, which the
// others' ratios are to), in the order they first appear, and lists the
// servers in the same order.
func (r *Results) ReferenceRows() (servers []string, rows []ReferenceRow) {
	index := map[[3]string]int{}
	for i := range r.References {
		c := &r.References[i]
		if !slices.Contains(servers, c.Server) {
			servers = append(servers, c.Server)
		}
		k := [3]string{c.Scenario, c.Protocol, c.Client}
		j, ok := index[k]
		if !ok {
			j = len(rows)
			index[k] = j
			rows = append(rows, ReferenceRow{Scenario: c.Scenario, Protocol: c.Protocol, Client: c.Client, ByServer: map[string]*ReferenceCell{}})
		}
		rows[j].ByServer[c.Server] = c
	}
	return servers, rows
}
