package netcal

import (
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/testenv"
)

// The unlimited link's ceiling: what the ferry carries when nothing but
// the machine limits it, reported; packets within the MTU. Its floor is
// a measured check (TestLinkCeilingFloor).
func TestLinkCeiling(t *testing.T) {
	l := newTestLink(t, "delay=0s,backend=tun")
	ctx := testenv.Context(t, time.Minute)
	got, err := goodput(ctx, l, false, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, d := l.ResetStats()
	t.Logf("unlimited: TCP goodput %v; down %+v", got, d)
	if got <= 0 {
		t.Errorf("unlimited link carried %v", got)
	}
	if d.Largest > linkmodel.MTU {
		t.Errorf("a %d-byte packet crossed a %d-byte MTU link", d.Largest, linkmodel.MTU)
	}
}

// Calibrate puts the pieces together on a link with different directions.
func TestCalibrate(t *testing.T) {
	l := newTestLink(t, "rtt=30ms,down=40mbit,up=10mbit")
	ctx := testenv.Context(t, time.Minute)
	c, err := Calibrate(ctx, l, Options{Probes: 100, Bulk: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", c)
	// Physics bounds the round trips from below and the goodput from
	// above; how close a loaded machine comes is a measured check
	// (TestCalibrateAtTheLink).
	if c.UDPRTT < 30*time.Millisecond || c.TCPConnect < 30*time.Millisecond {
		t.Errorf("round trips UDP %v, TCP %v: want at least 30ms", c.UDPRTT, c.TCPConnect)
	}
	if c.UpLoss != 0 || c.DownLoss != 0 {
		t.Errorf("a lossless link lost %.3f up, %.3f down", c.UpLoss, c.DownLoss)
	}
	if c.Down <= 0 || c.Down > 40e6 || c.Up <= 0 || c.Up > 10e6 {
		t.Errorf("goodput down %v (want at most 40 Mbit/s), up %v (want at most 10 Mbit/s)", c.Down, c.Up)
	}
	if c.UpStats.Packets == 0 || c.DownStats.Delivered == 0 {
		t.Errorf("calibration carries no link counters: %+v %+v", c.UpStats, c.DownStats)
	}
}
