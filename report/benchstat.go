package report

import (
	"fmt"
	"io"

	"github.com/httpvs/httpvs/results"
)

// Benchstat writes a matrix run in Go's benchmark format, one line per
// completed repetition, so that `benchstat old.txt new.txt` compares two
// runs (and `-col /proto` puts transports side by side). Names are
// BenchmarkRun/scenario=S/proto=P-GOMAXPROCS. Transfer cells report B/s
// and CPU seconds per GB; request cells ns/op (wall time per request at
// the cell's concurrency), req/s, latency percentiles and allocations.
func Benchstat(w io.Writer, res *results.Results) error {
	bw := &printer{w: w}
	e := res.Env
	fmt.Fprintf(bw, "goos: %s\ngoarch: %s\n", e.OS, e.Arch)
	if e.CPUModel != "" {
		fmt.Fprintf(bw, "cpu: %s\n", e.CPUModel)
	}
	fmt.Fprintf(bw, "pkg: github.com/httpvs/httpvs\nhttpvs-version: %s\nhttpvs-engine: %s\n", e.Version, res.Settings.Engine)
	for _, c := range res.Cells {
		if c.Skipped != "" {
			continue
		}
		name := fmt.Sprintf("BenchmarkRun/scenario=%s/proto=%s-%d", c.Scenario, c.Protocol, e.GOMAXPROCS)
		for _, r := range c.Repetitions {
			if r.Interrupted || r.Requests == 0 {
				continue
			}
			// An unknown or unreliable server figure is left out, not 0.
			server := ""
			if v, ok := serverCPU(r); ok {
				server = fmt.Sprintf("\t%.4f server-sec/%s", v, map[bool]string{true: "GB", false: "1k-req"}[c.Metric == results.MetricBytesPerSecond])
			}
			if c.Metric == results.MetricBytesPerSecond {
				fmt.Fprintf(bw, "%s\t%d\t%.0f B/s\t%.4f client-sec/GB%s\t%.1f allocs/op\n",
					name, r.Requests, r.Value, r.ClientCPUPerUnit, server, r.AllocsPerRequest)
				continue
			}
			if c.Metric == results.MetricSeconds {
				// A time per unit of work (a cold request, a page): ns/op.
				fmt.Fprintf(bw, "%s\t%d\t%.0f ns/op\t%.0f p99-ns\t%.4f client-sec/1k-req%s\t%.1f allocs/op\n",
					name, r.Requests, r.Value*1e9, r.Latency.P99*1e9, r.ClientCPUPerUnit, server, r.AllocsPerRequest)
				continue
			}
			nsPerOp := 0.0
			if r.Value > 0 {
				nsPerOp = 1e9 / r.Value
			}
			fmt.Fprintf(bw, "%s\t%d\t%.1f ns/op\t%.1f req/s\t%.0f p50-ns\t%.0f p99-ns\t%.4f client-sec/1k-req%s\t%.0f B/op\t%.1f allocs/op\n",
				name, r.Requests, nsPerOp, r.Value, r.Latency.P50*1e9, r.Latency.P99*1e9,
				r.ClientCPUPerUnit, server, r.AllocBytesPerRequest, r.AllocsPerRequest)
		}
	}
	return bw.err
}
