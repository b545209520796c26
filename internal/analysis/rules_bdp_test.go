package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// netSubject is a one-stream download of bytes in seconds across a link
// of rate (0: unlimited), rtt and calibrated goodput, both in bit/s.
func netSubject(bytes int64, seconds, rate, rtt, goodput float64) *subject {
	sc, _ := plan.ScenarioOf(nil, "download")
	c := &results.Cell{Scenario: sc.Name, Protocol: "h2c", Metric: results.MetricBytesPerSecond, RatioToBaseline: 0.5}
	n := &results.Net{Spec: "test", Down: results.NetDirection{RateBitsPerSecond: rate}, Calibration: results.NetCalibration{UDPRTTSeconds: rtt, DownGoodputBitsPerSecond: goodput}}
	return &subject{c: c, m: results.Repetition{Value: float64(bytes) / seconds, Bytes: bytes, Seconds: seconds}, sc: sc, set: &results.Settings{Net: n}}
}

// TestWindowLimited: Go's client's 4 MiB stream window over 100 ms allows
// 335 Mbit/s; a download at 300 Mbit/s on a 1 Gbit/s link is held by it,
// one at 100 Mbit/s is not (slow start, or something else), and one on
// a 300 Mbit/s link is the link's.
func TestWindowLimited(t *testing.T) {
	f := windowLimited(netSubject(375e6, 10, 1e9, 0.1, 900e6))
	if f == nil || !strings.Contains(f.Evidence, "the client's 4Mi stream window (Go's default) per 100 ms round trip") ||
		len(f.Knobs) != 1 || f.Knobs[0] != (results.Knob{Field: "Client.HTTP2.MaxReceiveBufferPerStream", Value: "32Mi"}) {
		t.Fatalf("%+v: want the client's window named and 32 MiB (twice 12.5 MB) asked for", f)
	}
	if f := windowLimited(netSubject(125e6, 10, 1e9, 0.1, 900e6)); f != nil {
		t.Errorf("100 Mbit/s against a 335 Mbit/s bound: %s", f.Evidence)
	}
	if f := windowLimited(netSubject(375e6, 10, 300e6, 0.1, 290e6)); f != nil {
		t.Errorf("at the link's own rate: %s", f.Evidence)
	}
	if f := windowLimited(&subject{c: &results.Cell{}, set: &results.Settings{}}); f != nil {
		t.Errorf("no link: %s", f.Evidence)
	}
}

// TestEmulatorBound: 280 Mbit/s through a TUN emulator that carried 300
// in calibration with a fifth of its packets late is flagged on an
// unlimited link; not under a 100 Mbit/s rate, not at 80 Mbit/s, not at
// 400 (above the ceiling: not held by it), and not when the calibration's
// packets were on time (TCP, not the emulator, set its goodput).
func TestEmulatorBound(t *testing.T) {
	tun := func(s *subject, late int64) *subject {
		s.set.Net.Backend = results.NetBackendTUN
		s.set.Net.Calibration.DownCounters = results.NetCounters{Packets: 1000, Late: late}
		return s
	}
	if f := emulatorBound(tun(netSubject(35e6, 1, 0, 0.01, 300e6), 200)); f == nil || !strings.Contains(f.Evidence, "93% of the emulator's ceiling (300.00 Mbit/s through it on one TCP connection in calibration, 20% of its packets late)") {
		t.Fatalf("%+v", f)
	}
	if f := emulatorBound(tun(netSubject(12e6, 1, 100e6, 0.01, 300e6), 200)); f != nil {
		t.Errorf("under a configured rate: %s", f.Evidence)
	}
	if f := emulatorBound(tun(netSubject(10e6, 1, 0, 0.01, 300e6), 200)); f != nil {
		t.Errorf("80 Mbit/s of 300: %s", f.Evidence)
	}
	if f := emulatorBound(tun(netSubject(50e6, 1, 0, 0.01, 300e6), 200)); f != nil {
		t.Errorf("400 Mbit/s of 300: %s", f.Evidence)
	}
	if f := emulatorBound(tun(netSubject(35e6, 1, 0, 0.1, 300e6), 30)); f != nil {
		t.Errorf("3%% of the calibration's packets late: %s", f.Evidence)
	}
	// A lossy 10 Mbit/s link whose calibration ran Reno: its 1.07 Mbit/s
	// was Reno's loss response, not the emulator's ceiling.
	lossy := tun(netSubject(134e3, 1, 10e6, 0.1, 1.07e6), 200)
	lossy.set.Net.TCPCongestion, lossy.set.Net.Down.Loss = "reno", 0.01
	if f := emulatorBound(lossy); f != nil {
		t.Errorf("Reno's loss response taken for the emulator's ceiling: %s", f.Evidence)
	}
	netem := netSubject(35e6, 1, 0, 0.01, 300e6)
	netem.set.Net.Backend = results.NetBackendNetem
	if f := emulatorBound(netem); f == nil || !strings.HasSuffix(f.Evidence, "in calibration)") {
		t.Errorf("netem backend (no late counts): %+v", f)
	}
}
