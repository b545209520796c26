package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// diagnosed runs Diagnose on an h1 cell and one other cell of scenario,
// each with one repetition, and returns the other cell's findings.
func diagnosed(scenario, metric string, h1, other results.Repetition, protocol string, edit func(*results.Cell)) []results.Finding {
	return diagnosedIn(nil, scenario, metric, h1, other, protocol, edit)
}

// diagnosedIn is diagnosed in a run with settings set (nil: none).
func diagnosedIn(set *results.Settings, scenario, metric string, h1, other results.Repetition, protocol string, edit func(*results.Cell)) []results.Finding {
	h1.Value, other.Value = 100, 40
	res := &results.Results{Cells: []results.Cell{
		{Scenario: scenario, Protocol: "h1", Metric: metric, CPUUnit: "GB", Repetitions: []results.Repetition{h1}},
		{Scenario: scenario, Protocol: protocol, Metric: metric, CPUUnit: "GB", Repetitions: []results.Repetition{other}},
	}}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	SetRatios(res.Cells, "h1")
	if edit != nil {
		edit(&res.Cells[1])
	}
	if set != nil {
		res.Settings = *set
	}
	Diagnose(res)
	return res.Cells[1].Findings
}

func f64(v float64) *float64 { return &v }

func has(fs []results.Finding, rule string, words ...string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			for _, w := range words {
				if !strings.Contains(f.String(), w) {
					return false
				}
			}
			return true
		}
	}
	return false
}

func h2c(sentUpdates, dataFrames, dataBytes int64) stats.H2Frames {
	return stats.H2Frames{
		Connections: 1,
		Sent:        stats.H2Direction{Frames: map[string]int64{"window_update": sentUpdates}},
		Received:    stats.H2Direction{Frames: map[string]int64{"data": dataFrames}, DataBytes: dataBytes},
	}
}

func TestDiagnoseRules(t *testing.T) {
	const gb = 1 << 30
	base := results.Repetition{Bytes: gb, ClientBodyReads: gb / (256 << 10), ClientCPUPerUnit: 0.2, ServerCPUPerUnit: f64(0.2), ServerCores: f64(0.5), ClientCores: 0.5}
	tests := []struct {
		name     string
		protocol string
		metric   string
		other    results.Repetition
		edit     func(*results.Cell)
		rule     string
		words    []string // in the finding
		absent   bool     // the rule (with words) must not fire
		scenario string   // the cells' scenario; "" for one this build does not know
	}{
		{name: "small reads", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientBodyReads: gb / (8 << 10), ClientH2: h2c(2*gb/(8<<10), gb/(16<<10), gb)},
			rule:  "h2-small-reads", words: []string{"h2c at 0.40x h1", "average 8.0 KiB", "256 WINDOW_UPDATE frames per MiB", "io.CopyBuffer"}},
		{name: "big reads are not flagged", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientBodyReads: gb / (256 << 10)}, rule: "h2-small-reads", absent: true},
		{name: "small frames", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientH2: h2c(0, gb/(16<<10), gb)},
			rule:  "h2-small-frames", words: []string{"DATA frames the client received average 16.0 KiB", "MaxReadFrameSize"}},
		{name: "window updates", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientH2: h2c(2*gb/(8<<10), gb/(1<<20), gb)},
			rule:  "h2-window-updates", words: []string{"262144 WINDOW_UPDATE frames, 256 per MiB (one per 4 KiB)", "MaxReceiveBufferPerStream"}},
		{name: "a fast cell needs no explaining", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientH2: h2c(2*gb/(8<<10), gb/(16<<10), gb)},
			edit:  func(c *results.Cell) { c.RatioToBaseline = 0.97 }, rule: "h2-window-updates", absent: true},
		{name: "flow blocked", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, Seconds: 0.4, ClientH2: stats.H2Frames{Received: stats.H2Direction{FlowBlockedSeconds: 0.1}},
				Server: &stats.ServerStats{H2C: stats.H2Frames{Sent: stats.H2Direction{FlowBlockedSeconds: 0.3}}}},
			rule: "h2-flow-blocked", words: []string{"h2c at 0.40x h1: the server's DATA waited for flow-control window 0.30 s of 0.40 s (75%)", "client's stream receive window", "MaxReceiveBufferPerStream"}},
		// Go's client allows 1 GiB a connection: the fix never asks for less.
		{name: "flow blocked: no client connection window below the default", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, Seconds: 0.4, ClientH2: stats.H2Frames{Received: stats.H2Direction{FlowBlockedSeconds: 0.1}},
				Server: &stats.ServerStats{H2C: stats.H2Frames{Sent: stats.H2Direction{FlowBlockedSeconds: 0.3}}}},
			rule: "h2-flow-blocked", words: []string{"MaxReceiveBufferPerConnection"}, absent: true},
		{name: "flow blocked upload", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, Seconds: 1, ClientH2: stats.H2Frames{Sent: stats.H2Direction{FlowBlockedSeconds: 0.5}}},
			rule:  "h2-flow-blocked", words: []string{"the client's DATA waited", "0.50 s of 1.00 s (50%)", "on the server"}},
		{name: "little blocking is not flagged", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, Seconds: 1, ClientH2: stats.H2Frames{Received: stats.H2Direction{FlowBlockedSeconds: 0.05}}},
			rule:  "h2-flow-blocked", absent: true},
		{name: "cpu per byte", protocol: "h2", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientCPUPerUnit: 0.5, ClientCores: 1, ServerCPUPerUnit: f64(0.25), ServerCores: f64(0.5)},
			rule:  "cpu-per-byte", words: []string{"2.50x h1's on the client (0.500 vs 0.200 s, 1.00 cores)", "1.25x on the server", "the client was busy", "encryption"}},
		{name: "cpu per byte h2c names no encryption", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientCPUPerUnit: 0.5, ClientCores: 1, ServerCPUPerUnit: f64(0.25), ServerCores: f64(0.5)},
			rule:  "cpu-per-byte", words: []string{"framing"}},
		{name: "an idle stall is not cpu per byte", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientCPUPerUnit: 0.5, ClientCores: 0.3, ServerCPUPerUnit: f64(0.5), ServerCores: f64(0.3)},
			rule:  "cpu-per-byte", absent: true},
		{name: "unknown server cpu is not used", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientCPUPerUnit: 0.2, ClientCores: 1, ServerCores: nil},
			rule:  "cpu-per-byte", absent: true},
		{name: "unreliable server cpu is not used", protocol: "h2c", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientCPUPerUnit: 0.2, ClientCores: 1, ServerCPUPerUnit: f64(2), ServerCores: f64(1), ServerUnreliable: "counts differ"},
			rule:  "cpu-per-byte", absent: true},
		{name: "cpu per byte h3", protocol: "h3", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientCPUPerUnit: 2, ClientCores: 1, ServerCPUPerUnit: f64(2), ServerCores: f64(1)},
			rule:  "cpu-per-byte", words: []string{"10.00x", "quic-go"}},
		{name: "allocations", protocol: "h2c", metric: results.MetricRequestsPerSecond,
			other: results.Repetition{AllocsPerRequest: 72, AllocBytesPerRequest: 7000, ClientCores: 1},
			rule:  "allocations", words: []string{"72 objects (7000 bytes) per request, h1 57"}},
		{name: "allocations of an idle client are not flagged", protocol: "h2c", metric: results.MetricRequestsPerSecond,
			other: results.Repetition{AllocsPerRequest: 72, AllocBytesPerRequest: 7000, ClientCores: 0.1}, rule: "allocations", absent: true},
		{name: "fewer bytes allocated is not flagged", protocol: "h2c", metric: results.MetricRequestsPerSecond,
			other: results.Repetition{AllocsPerRequest: 72, AllocBytesPerRequest: 4000}, rule: "allocations", absent: true},
		{name: "generator", protocol: "h2c", metric: results.MetricRequestsPerSecond, scenario: "small-concurrent",
			other: results.Repetition{Bottleneck: results.BottleneckClient, ClientCores: 1.2, ServerCores: f64(0.6), Engine: "std"},
			rule:  "generator-bound", words: []string{"client used 1.20 cores, the server 0.60", "fast engine"}},
		{name: "generator one request at a time", protocol: "h2c", metric: results.MetricRequestsPerSecond, scenario: "small-sequential",
			other: results.Repetition{Bottleneck: results.BottleneckClient, ClientCores: 1.2, ServerCores: f64(0.6), Engine: "std"},
			rule:  "generator-bound", words: []string{"fast engine"}, absent: true},
		{name: "generator already fast", protocol: "h2c", metric: results.MetricRequestsPerSecond,
			other: results.Repetition{Bottleneck: results.BottleneckClient, ClientCores: 1.2, Engine: "fast"},
			rule:  "generator-bound", words: []string{"the server unknown", "more cores"}},
		{name: "quic losses", protocol: "h3", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientQUIC: stats.QUICStats{PacketsSent: 10, PacketsReceived: 1000, PacketsLost: 7}},
			rule:  "quic-losses", words: []string{"7 QUIC packets declared lost on the path", "rmem_max"}},
		{name: "one lost packet in a million is no cause", protocol: "h3", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientQUIC: stats.QUICStats{PacketsSent: 10, PacketsReceived: 1_000_000},
				Server: &stats.ServerStats{QUIC: stats.QUICStats{PacketsSent: 1_000_000, PacketsLost: 1}}},
			rule: "quic-losses", absent: true},
		{name: "quic flow blocked", protocol: "h3", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb, ClientQUIC: stats.QUICStats{Traced: 1, BlockedFramesReceived: 12},
				Server: &stats.ServerStats{QUIC: stats.QUICStats{Traced: 1, BlockedFramesSent: 14}}},
			rule: "quic-flow-blocked", words: []string{"h3 at 0.40x h1: the server sent 14 DATA_BLOCKED/STREAM_DATA_BLOCKED frames", "client bigger QUIC receive windows"}},
		{name: "untraced quic is not flagged", protocol: "h3", metric: results.MetricBytesPerSecond,
			other: results.Repetition{Bytes: gb}, rule: "quic-flow-blocked", absent: true},
		{name: "errors", protocol: "h1-tls", metric: results.MetricRequestsPerSecond,
			other: results.Repetition{Errors: stats.ErrorCounts{Total: 3, Refused: 3}, FirstError: "dial tcp: connection refused"},
			rule:  "errors", words: []string{"3 errors (3 refused)", "connection refused", "file-descriptor limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h1 := base
			h1.AllocsPerRequest, h1.AllocBytesPerRequest = 57, 4600
			scenario := tt.scenario
			if scenario == "" {
				scenario = "s"
			}
			fs := diagnosed(scenario, tt.metric, h1, tt.other, tt.protocol, tt.edit)
			if got := has(fs, tt.rule, tt.words...); got == tt.absent {
				t.Errorf("rule %s (absent %v), words %q; findings:\n%v", tt.rule, tt.absent, tt.words, fs)
			}
		})
	}
}

// TestVariantGetsNoFindings: the rules read the run's settings, which are
// not a variant's ("download:tuned" ran with the tuned client): the same
// small reads that explain download/h2c explain nothing there.
func TestVariantGetsNoFindings(t *testing.T) {
	const gb = 1 << 30
	h1 := results.Repetition{Bytes: gb, ClientBodyReads: gb / (256 << 10)}
	small := results.Repetition{Bytes: gb, ClientBodyReads: gb / (8 << 10), ClientH2: h2c(2*gb/(8<<10), gb/(16<<10), gb)}
	if got := diagnosed("download", results.MetricBytesPerSecond, h1, small, "h2c", nil); !has(got, "h2-small-reads") {
		t.Fatalf("download/h2c: findings %v, want h2-small-reads", got)
	}
	variant := func(c *results.Cell) { c.Knobs = "tuned" }
	if got := diagnosed("download:tuned", results.MetricBytesPerSecond, h1, small, "h2c", variant); len(got) != 0 {
		t.Errorf("download:tuned/h2c: findings %v, want none", got)
	}
}

// TestQUICLossesDefersToTheWarning: quic-losses on loopback offers no
// sysctl, with or without the run's UDP buffer warning: raising the caps
// was measured not to move h3's rate (bench/udpbuffers.sh).
func TestQUICLossesDefersToTheWarning(t *testing.T) {
	const gb = 1 << 30
	h3 := results.Repetition{Value: 40, Bytes: gb, ClientQUIC: stats.QUICStats{PacketsSent: 10, PacketsReceived: 1000, PacketsLost: 7}}
	res := &results.Results{Settings: results.Settings{Target: "child", UDPBuffers: "warning: UDP socket buffers are capped ..."}, Cells: []results.Cell{
		{Scenario: "s", Protocol: "h1", Metric: results.MetricBytesPerSecond, CPUUnit: "GB", Repetitions: []results.Repetition{{Value: 100, Bytes: gb}}},
		{Scenario: "s", Protocol: "h3", Metric: results.MetricBytesPerSecond, CPUUnit: "GB", Repetitions: []results.Repetition{h3}},
	}}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	SetRatios(res.Cells, "h1")
	Diagnose(res)
	fs := res.Cells[1].Findings
	if !has(fs, "quic-losses", "not a setting") || has(fs, "quic-losses", "sysctl") {
		t.Errorf("findings %v: want quic-losses saying it is not a setting, without the command", fs)
	}
}

// TestCatalogueCoversRules: every rule has a sentence, and the catalogue
// names no rule that is gone.
func TestCatalogueCoversRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules {
		seen[r.name] = true
		if What(r.name) == "" {
			t.Errorf("rule %s has no sentence in catalogue", r.name)
		}
	}
	for name := range catalogue {
		if !seen[name] {
			t.Errorf("catalogue names %s, which is not a rule", name)
		}
	}
	if !Caveat("machine-bound") || Caveat("h2-small-reads") {
		t.Error("machine-bound must be a caveat and h2-small-reads a cause")
	}
}
