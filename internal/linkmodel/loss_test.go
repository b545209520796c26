package linkmodel

import (
	"math"
	"testing"
)

// TestPredictLoss: each controller's model at the published setup (10
// Mbit/s, 100 ms, 1% loss) and where its model says nothing.
func TestPredictLoss(t *testing.T) {
	link := 10e6 / 8 * PayloadShare(false, true)
	mss := PacketPayload(false)
	for _, c := range []struct {
		name, cc      string
		p, rtt        float64
		lowMbit, high float64 // the predicted rate, Mbit/s
		limited, ok   bool
	}{
		{"reno: Mathis", "reno", 0.01, 0.1, 1.41, 1.43, true, true},
		// At 100 ms Cubic's own response (5.9 segments) is below Reno's
		// (12.2): its Reno-friendly region decides.
		{"cubic at 100 ms: Reno-friendly", "cubic", 0.01, 0.1, 1.41, 1.43, true, true},
		// At 500 ms and 0.1% loss Cubic's response (111 segments) is
		// higher than Reno's (39).
		{"cubic at 500 ms, 0.1%: its response function", "cubic", 0.001, 0.5, 2.5, 2.65, true, true},
		{"quic-go's cubic", QUICCongestion, 0.01, 0.1, 1.38, 1.42, true, true},
		{"bbr below its threshold: the link", "bbr", 0.01, 0.1, 9.6, 9.7, false, true},
		{"bbr above its threshold: no model", "bbr", 0.2, 0.1, 0, 0, false, false},
		{"no loss: no model", "reno", 0, 0.1, 0, 0, false, false},
		{"an unknown controller", "vegas", 0.01, 0.1, 0, 0, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, ok := PredictLoss(c.cc, link, mss, c.rtt, c.p)
			if c.cc == QUICCongestion {
				m, ok = PredictLoss(c.cc, 10e6/8*PayloadShare(true, true), PacketPayload(true), c.rtt, c.p)
			}
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, c.ok, m)
			}
			if !ok {
				return
			}
			if got := m.Rate * 8 / 1e6; got < c.lowMbit || got > c.high || m.LossLimited != c.limited || m.Basis == "" {
				t.Errorf("%s: %.3f Mbit/s limited %v (%s); want %.2f-%.2f limited %v", c.cc, got, m.LossLimited, m.Basis, c.lowMbit, c.high, c.limited)
			}
		})
	}
}

// TestCubicBound: Cubic's response function (RFC 9438 5.1) at 0.01% loss
// and 200 ms is (0.4 x 3.7 / 1.2)^(1/4) x (0.2/1e-4)^(3/4) = 317 segments,
// above Reno's 122.
func TestCubicBound(t *testing.T) {
	got := CubicBound(1, 0.2, 1e-4) * 0.2
	if math.Abs(got-317) > 2 {
		t.Errorf("Cubic's window = %.1f segments, want 317", got)
	}
	if reno := LossBound(1, 0.2, 1e-4) * 0.2; math.Abs(reno-122.5) > 1 {
		t.Errorf("Reno's window = %.1f segments, want 122.5", reno)
	}
}

// TestPayloadShare: TCP's 1448 of 1500 bytes (less 22 per 16 KiB TLS
// record), quic-go's 1423 of 1480.
func TestPayloadShare(t *testing.T) {
	for _, c := range []struct {
		quic, tls bool
		want      float64
	}{{false, false, 1448.0 / 1500}, {false, true, 1448.0 / 1500 * 16384 / 16406}, {true, true, 1423.0 / 1480}} {
		if got := PayloadShare(c.quic, c.tls); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("PayloadShare(%v, %v) = %.5f, want %.5f", c.quic, c.tls, got, c.want)
		}
	}
	if LossEvents(100, 0.01) != 1e4 || LossEvents(100, 0) != 0 {
		t.Error("LossEvents: 100 events at 1% want 10,000 packets; none without loss")
	}
}
