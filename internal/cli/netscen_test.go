package cli

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/matrix"
)

// TestRunNetColdStartRoundTrips runs cold-start and cold-start-resumed
// across a 40 ms link and checks the round trips each transport's first
// byte costs, as multiples of the measured TCP handshake (one round trip),
// within half a round trip: HTTP/1.1 and h2c 2 (TCP, then the request),
// over TLS 1.3 3 (TCP, TLS, request) resumed or not (a resumed TLS 1.3
// handshake still takes its round trip without early data), HTTP/3 2
// (QUIC handshake, request) and 1 with 0-RTT. Physics, not speed.
func TestRunNetColdStartRoundTrips(t *testing.T) {
	needLink(t)
	out := t.TempDir()
	code, _, stderr := runMain(t, "run", "--net", "rtt=40ms", "--scenarios", "cold-start,cold-start-resumed",
		"--quick", "--duration", "300ms", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, _ := readResults(t, out)
	rtt := res.Settings.Net.Calibration.TCPConnectSeconds
	want := map[string]map[string]float64{
		"cold-start":         {"h1": 2, "h2c": 2, "h1-tls": 3, "h2": 3, "h3": 2},
		"cold-start-resumed": {"h1": 2, "h2c": 2, "h1-tls": 3, "h2": 3, "h3": 1},
	}
	cells := 0
	for _, c := range res.Cells {
		w, ok := want[c.Scenario][c.Protocol]
		if !ok || c.Skipped != "" || len(c.Repetitions) != 1 {
			t.Errorf("%s/%s: unexpected, skipped %q, %d repetitions", c.Scenario, c.Protocol, c.Skipped, len(c.Repetitions))
			continue
		}
		cells++
		m := c.Repetitions[0]
		if m.Errors.Total != 0 || m.Phases == nil || m.Phases.TTFB.Count < 3 { // at least 3 units a repetition
			t.Errorf("%s/%s: errors %v (%s), phases %+v", c.Scenario, c.Protocol, m.Errors, m.FirstError, m.Phases)
			continue
		}
		got := m.Phases.TTFB.P50 / rtt
		t.Logf("%s/%s: first byte %.1f ms = %.2f RTT (want %.0f)", c.Scenario, c.Protocol, m.Phases.TTFB.P50*1e3, got, w)
		if math.Abs(got-w) > 0.5 {
			t.Errorf("%s/%s: first byte after %.2f round trips (%.1f ms, RTT %.1f ms), want %.0f ± 0.5",
				c.Scenario, c.Protocol, got, m.Phases.TTFB.P50*1e3, rtt*1e3, w)
		}
		if c.Scenario == "cold-start-resumed" && c.Protocol != "h1" && c.Protocol != "h2c" && m.Phases.Resumed != m.Phases.TTFB.Count {
			t.Errorf("%s/%s: %d of %d connections resumed", c.Scenario, c.Protocol, m.Phases.Resumed, m.Phases.TTFB.Count)
		}
	}
	if cells != 10 {
		t.Errorf("%d cells, want 10", cells)
	}
	if c := res.Cell("cold-start-resumed", "h3"); c != nil && (c.Metric != matrix.MetricSeconds || c.RatioToH1 <= 1) {
		t.Errorf("resumed h3: metric %s, %.2fx h1: want seconds, faster than h1", c.Metric, c.RatioToH1)
	}
}
