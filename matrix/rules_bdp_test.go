package matrix

import (
	"strings"
	"testing"
)

// netSubject is a one-stream download of bytes in seconds across a link
// of rate (0: unlimited), rtt and calibrated goodput, both in bit/s.
func netSubject(bytes int64, seconds, rate, rtt, goodput float64) *subject {
	sc, _ := ScenarioByName("download")
	c := &Cell{Scenario: sc.Name, Protocol: "h2c", Metric: MetricBytesPerSecond, RatioToH1: 0.5}
	n := &Net{Spec: "test", Down: NetDirection{RateBitsPerSecond: rate}, Calibration: NetCalibration{UDPRTTSeconds: rtt, DownGoodputBitsPerSecond: goodput}}
	return &subject{c: c, m: Repetition{Value: float64(bytes) / seconds, Bytes: bytes, Seconds: seconds}, sc: sc, set: &Settings{Net: n}}
}

// TestWindowLimited: Go's client's 4 MiB stream window over 100 ms allows
// 335 Mbit/s; a download at 300 Mbit/s on a 1 Gbit/s link is held by it,
// one at 100 Mbit/s is not (slow start, or something else), and one on
// a 300 Mbit/s link is the link's.
func TestWindowLimited(t *testing.T) {
	f := windowLimited(netSubject(375e6, 10, 1e9, 0.1, 900e6))
	if f == nil || !strings.Contains(f.Evidence, "the client's 4Mi stream window (Go's default) per 100 ms round trip") ||
		len(f.Knobs) != 1 || f.Knobs[0] != (Knob{"Client.HTTP2.MaxReceiveBufferPerStream", "32Mi"}) {
		t.Fatalf("%+v: want the client's window named and 32 MiB (twice 12.5 MB) asked for", f)
	}
	if f := windowLimited(netSubject(125e6, 10, 1e9, 0.1, 900e6)); f != nil {
		t.Errorf("100 Mbit/s against a 335 Mbit/s bound: %s", f.Evidence)
	}
	if f := windowLimited(netSubject(375e6, 10, 300e6, 0.1, 290e6)); f != nil {
		t.Errorf("at the link's own rate: %s", f.Evidence)
	}
	if f := windowLimited(&subject{c: &Cell{}, set: &Settings{}}); f != nil {
		t.Errorf("no link: %s", f.Evidence)
	}
}

// TestEmulatorBound: 280 Mbit/s through an emulator that carried 300 in
// calibration is flagged on an unlimited link, not under a 100 Mbit/s rate.
func TestEmulatorBound(t *testing.T) {
	if f := emulatorBound(netSubject(35e6, 1, 0, 0.01, 300e6)); f == nil || !strings.Contains(f.Evidence, "93% of the emulator's ceiling") {
		t.Fatalf("%+v", f)
	}
	if f := emulatorBound(netSubject(12e6, 1, 100e6, 0.01, 300e6)); f != nil {
		t.Errorf("under a configured rate: %s", f.Evidence)
	}
	if f := emulatorBound(netSubject(10e6, 1, 0, 0.01, 300e6)); f != nil {
		t.Errorf("80 Mbit/s of 300: %s", f.Evidence)
	}
}
