package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestUserTransferGetsTransferRules: a user's request measured as a
// transfer (a large response: its cells in bytes per second) is judged
// by the transfer rules, small reads and frames, and never gets the
// advice meant for small requests (batching, the fast engine), however
// many objects its client allocated per request.
func TestUserTransferGetsTransferRules(t *testing.T) {
	const gb = 1 << 30
	res := &results.Results{Settings: results.Settings{Target: "http://127.0.0.1:9080",
		Requests: []results.Request{{Method: "GET", Path: "/big", ResponseBytes: 50 << 20, Transfer: true}}}}
	h1 := results.Repetition{Value: 100, Bytes: gb, ClientBodyReads: gb / (256 << 10), AllocsPerRequest: 50, AllocBytesPerRequest: 5000, ClientCPUPerUnit: 0.2, ClientCores: 1, Engine: "std"}
	other := results.Repetition{Value: 40, Bytes: gb, ClientBodyReads: gb / (8 << 10), ClientH2: h2c(2*gb/(8<<10), gb/(16<<10), gb),
		AllocsPerRequest: 5000, AllocBytesPerRequest: 500000, ClientCPUPerUnit: 0.3, ClientCores: 1.2, Bottleneck: results.BottleneckClient, Engine: "std"}
	for _, sc := range []string{"request-1", "request-1-x50"} {
		res.Cells = append(res.Cells,
			results.Cell{Scenario: sc, Protocol: "h1", Metric: results.MetricBytesPerSecond, CPUUnit: "GB", Repetitions: []results.Repetition{h1}},
			results.Cell{Scenario: sc, Protocol: "h2c", Metric: results.MetricBytesPerSecond, CPUUnit: "GB", Repetitions: []results.Repetition{other}})
	}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	SetRatios(res.Cells, "h1")
	Diagnose(res)
	for _, c := range res.Cells {
		if c.Protocol != "h2c" {
			continue
		}
		if !has(c.Findings, "h2-small-reads", "average 8.0 KiB") || !has(c.Findings, "h2-small-frames") {
			t.Errorf("%s: findings %v, want h2-small-reads and h2-small-frames", c.Scenario, c.Findings)
		}
		for _, f := range c.Findings {
			if f.Rule == "allocations" || strings.Contains(f.String(), "batch small requests") || strings.Contains(f.String(), "fast engine") {
				t.Errorf("%s: small-request advice %q", c.Scenario, f)
			}
		}
	}
}
