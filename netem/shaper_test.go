package netem

import (
	"math"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/units"
)

func TestShaperDelayAndRate(t *testing.T) {
	// 12 Mbit/s: a 1500-byte packet takes 1 ms to serialize.
	s := newShaper(Direction{Delay: 20 * time.Millisecond, Rate: 12e6}, 1)
	var due []time.Duration
	for range 3 { // a burst at t=0
		d, v := s.admit(0, 1500)
		if v != pass {
			t.Fatalf("verdict %v, want pass", v)
		}
		due = append(due, d)
	}
	want := []time.Duration{21 * time.Millisecond, 22 * time.Millisecond, 23 * time.Millisecond}
	for i := range want {
		if due[i] != want[i] {
			t.Errorf("packet %d due %v, want %v", i, due[i], want[i])
		}
	}
	// After the link went idle, a packet waits for no one.
	if d, _ := s.admit(100*time.Millisecond, 1500); d != 121*time.Millisecond {
		t.Errorf("idle-link packet due %v, want 121ms", d)
	}
}

func TestShaperLongRunRate(t *testing.T) {
	// Offer twice the rate for 10 s of model time: what passes must leave
	// at the configured rate, within 0.1%, and the rest is dropped at the
	// queue, never delivered late.
	const rate = 50e6
	s := newShaper(Direction{Rate: rate, Queue: Queue{Packets: 100}}, 1)
	var passed, dropped int
	var last time.Duration
	gap := time.Duration(1500 * 8 / (2 * rate) * float64(time.Second))
	for now := time.Duration(0); now < 10*time.Second; now += gap {
		d, v := s.admit(now, 1500)
		switch v {
		case pass:
			passed++
			last = d
		case queueFull:
			dropped++
		}
	}
	got := float64(passed) * 1500 * 8 / last.Seconds()
	if math.Abs(got-rate)/rate > 0.001 {
		t.Errorf("long-run rate %.0f bit/s, want %.0f", got, float64(rate))
	}
	if dropped < passed*9/10 {
		t.Errorf("dropped %d of %d offered at twice the rate, want about half", dropped, passed+dropped)
	}
}

func TestShaperQueueLimits(t *testing.T) {
	tests := []struct {
		name string
		q    Queue
		want int // packets of 1500 bytes that a burst gets in
	}{
		{"packets", Queue{Packets: 10}, 10},
		{"bytes", Queue{Bytes: 15000}, 10},
		{"both, the smaller wins", Queue{Packets: 4, Bytes: 15000}, 4},
		{"default", Queue{}, defaults.QueuePackets},
		{"bytes round down", Queue{Bytes: 16 * units.KiB}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newShaper(Direction{Rate: 1e6, Queue: tt.q}, 1)
			got := 0
			for range 2000 {
				if _, v := s.admit(0, 1500); v == pass {
					got++
				}
			}
			if got != tt.want {
				t.Errorf("a burst got %d packets in, want %d", got, tt.want)
			}
			// Once the queue drains, packets pass again.
			if _, v := s.admit(time.Hour, 1500); v != pass {
				t.Errorf("after draining: verdict %v, want pass", v)
			}
		})
	}
}

func TestShaperJitterKeepsOrder(t *testing.T) {
	s := newShaper(Direction{Delay: 10 * time.Millisecond, Jitter: 5 * time.Millisecond}, 7)
	var last time.Duration
	spread := map[time.Duration]bool{}
	for i := range 10000 {
		now := time.Duration(i) * 2 * time.Millisecond
		d, _ := s.admit(now, 100)
		if d < last {
			t.Fatalf("packet %d due %v before the previous one's %v", i, d, last)
		}
		// Order-keeping only raises a delay to the previous packet's due
		// time, which is itself at most 15ms after an earlier arrival.
		if d < now+10*time.Millisecond || d > now+15*time.Millisecond {
			t.Fatalf("packet %d delay %v outside [10ms, 15ms]", i, d-now)
		}
		spread[(d-now)/time.Millisecond] = true
		last = d
	}
	if len(spread) < 4 {
		t.Errorf("jitter spread delays over %d ms buckets, want at least 4", len(spread))
	}
}

func TestShaperLoss(t *testing.T) {
	const n = 200000
	tests := []struct {
		name string
		loss Loss
	}{
		{"uniform 5%", Loss{Rate: 0.05}},
		{"gilbert-elliott", Loss{GE: true, P: 0.01, R: 0.25, LossBad: 1}},
		{"gilbert-elliott, lossy good state", Loss{GE: true, P: 0.02, R: 0.5, LossBad: 0.5, LossGood: 0.01}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newShaper(Direction{Loss: tt.loss}, 42)
			lostN, bursts, run := 0, 0, 0
			for i := range n {
				if _, v := s.admit(time.Duration(i), 100); v == lost {
					lostN++
					run++
				} else if run > 0 {
					bursts++
					run = 0
				}
			}
			mean := tt.loss.Mean()
			sd := math.Sqrt(mean * (1 - mean) / n)
			// GE losses are correlated: allow 5 standard deviations of a
			// binomial times the mean burst length.
			slack := 5 * sd
			if tt.loss.GE {
				slack *= 1 / tt.loss.R
			}
			got := float64(lostN) / n
			if math.Abs(got-mean) > slack {
				t.Errorf("lost %.4f, want %.4f ± %.4f", got, mean, slack)
			}
			if tt.loss.GE && tt.loss.LossGood == 0 {
				meanBurst := float64(lostN) / float64(bursts)
				if want := 1 / tt.loss.R; math.Abs(meanBurst-want) > 0.15*want {
					t.Errorf("mean burst %.2f packets, want %.2f", meanBurst, want)
				}
			}
		})
	}
}
