//go:build measured

package experiment_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/results"
)

// TestRunNetColdStartRoundTrips runs cold-start and cold-start-resumed
// across a 40 ms link and checks the round trips each transport's first
// byte costs at the fastest of its units, as multiples of the measured TCP
// handshake (one round trip), within half a round trip: HTTP/1.1 and h2c 2 (TCP, then the request),
// over TLS 1.3 3 (TCP, TLS, request) resumed or not (a resumed TLS 1.3
// handshake still takes its round trip without early data), HTTP/3 2
// (QUIC handshake, request) and 1 with 0-RTT. Physics, not speed.
func TestRunNetColdStartRoundTrips(t *testing.T) {
	// 100 ms round trips: the tolerance below (half of one) is then 50 ms,
	// more than a busy machine's handshake adds.
	res, _ := runQuickAcross(t, "rtt=100ms", "cold-start,cold-start-resumed", 1500*time.Millisecond)
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
		// The fastest unit: round trips are a floor, and a busy machine
		// (-race, other tests) only adds to some units.
		got := m.Phases.TTFB.Min / rtt
		t.Logf("%s/%s: first byte %.1f ms = %.2f RTT (want %.0f; median %.1f ms)", c.Scenario, c.Protocol, m.Phases.TTFB.Min*1e3, got, w, m.Phases.TTFB.P50*1e3)
		if math.Abs(got-w) > 0.5 {
			t.Errorf("%s/%s: first byte after %.2f round trips at the fastest (%.1f ms, RTT %.1f ms), want %.0f ± 0.5",
				c.Scenario, c.Protocol, got, m.Phases.TTFB.Min*1e3, rtt*1e3, w)
		}
		if c.Scenario == "cold-start-resumed" && c.Protocol != "h1" && c.Protocol != "h2c" && m.Phases.Resumed != m.Phases.TTFB.Count {
			t.Errorf("%s/%s: %d of %d connections resumed", c.Scenario, c.Protocol, m.Phases.Resumed, m.Phases.TTFB.Count)
		}
	}
	if cells != 10 {
		t.Errorf("%d cells, want 10", cells)
	}
	if c := res.Cell("cold-start-resumed", "h3"); c != nil && (c.Metric != results.MetricSeconds || c.RatioToBaseline <= 1) {
		t.Errorf("resumed h3: metric %s, %.2fx h1: want seconds, faster than h1", c.Metric, c.RatioToBaseline)
	}
}

// TestRunNetHeadOfLineUnderLoss runs head-of-line across a link that
// loses 3% of packets each way and checks what was measured, not how
// fast: every transport's cell met loss on the link (within five binomial
// standard deviations of 3% over the packets it sent down), its download
// moved bytes beside the small requests, every small request either
// completed (at least 3, each taking at least the round trip) or was
// counted failed, and none failed (TCP and QUIC recover from 3% loss).
func TestRunNetHeadOfLineUnderLoss(t *testing.T) {
	res, text := runQuickAcross(t, "rtt=40ms,rate=20mbit,loss=3%", "head-of-line", 300*time.Millisecond)
	if !strings.Contains(text, "link lost up/down (set 3.0%/3.0%)") {
		t.Errorf("the report does not show the loss measured beside the loss set:\n%s", text)
	}
	cells := 0
	for _, c := range res.Cells {
		if c.Skipped != "" || len(c.Repetitions) != 1 {
			t.Errorf("%s: skipped %q, %d repetitions", c.Protocol, c.Skipped, len(c.Repetitions))
			continue
		}
		cells++
		m := c.Repetitions[0]
		l := m.Link
		if l == nil {
			t.Fatalf("%s: no link counters", c.Protocol)
		}
		lost, sent := float64(l.Down.Lost), float64(l.Down.Packets)
		sigma := math.Sqrt(sent * 0.03 * 0.97)
		t.Logf("%s: small requests p50 %.1f ms, %d done; download %d bytes; down %d packets, %d lost (%.1f%%), %d queue drops",
			c.Protocol, m.Value*1e3, m.Latency.Count, m.BulkBytes, l.Down.Packets, l.Down.Lost, 100*lost/max(sent, 1), l.Down.QueueDrops)
		if l.Down.Lost == 0 || l.Up.Lost == 0 || math.Abs(lost-0.03*sent) > 5*sigma {
			t.Errorf("%s: the link lost %d of %d packets down, %d of %d up: want about 3%% each way", c.Protocol, l.Down.Lost, l.Down.Packets, l.Up.Lost, l.Up.Packets)
		}
		if m.BulkBytes <= 0 || l.Down.Bytes <= m.BulkBytes {
			t.Errorf("%s: download of %d bytes beside, %d bytes down the link: want a download, all of it crossing the link", c.Protocol, m.BulkBytes, l.Down.Bytes)
		}
		if m.Requests != m.Latency.Count+m.Errors.Total || m.Latency.Count < 3 || m.Errors.Total != 0 || m.Latency.Min < rttFloor {
			t.Errorf("%s: %d requests, %d completed (fastest %.1f ms), %d failed (%s): want every one completed or counted failed, at least 3, none failed, none under the round trip",
				c.Protocol, m.Requests, m.Latency.Count, m.Latency.Min*1e3, m.Errors.Total, m.FirstError)
		}
	}
	if cells != 5 {
		t.Errorf("%d cells, want 5", cells)
	}
}
