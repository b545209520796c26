package netem

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/units"
)

func TestParse(t *testing.T) {
	mbit := func(f float64) units.BitsPerSecond { return units.BitsPerSecond(f * 1e6) }
	tests := []struct {
		name, in string
		up, down Direction
	}{
		{"the example", "rtt=50ms,rate=20mbit,loss=1%",
			Direction{Delay: 25 * time.Millisecond, Rate: mbit(20), Loss: Loss{Rate: 0.01}},
			Direction{Delay: 25 * time.Millisecond, Rate: mbit(20), Loss: Loss{Rate: 0.01}}},
		{"odd rtt splits to the nanosecond", "rtt=3ns", Direction{Delay: 1}, Direction{Delay: 2}},
		{"per direction rates", "rtt=40ms,down=20mbit,up=5mbit",
			Direction{Delay: 20 * time.Millisecond, Rate: mbit(5)},
			Direction{Delay: 20 * time.Millisecond, Rate: mbit(20)}},
		{"prefixed fields", "up.delay=10ms,down.delay=30ms,down.loss=2%,up.jitter=1ms",
			Direction{Delay: 10 * time.Millisecond, Jitter: time.Millisecond},
			Direction{Delay: 30 * time.Millisecond, Loss: Loss{Rate: 0.02}}},
		{"gilbert-elliott with defaults", "loss=ge:1%:25%",
			Direction{Loss: Loss{GE: true, P: 0.01, R: 0.25, LossBad: 1}},
			Direction{Loss: Loss{GE: true, P: 0.01, R: 0.25, LossBad: 1}}},
		{"gilbert-elliott full", "loss=GE:1%:25%:50%:0.1%",
			Direction{Loss: Loss{GE: true, P: 0.01, R: 0.25, LossBad: 0.5, LossGood: 0.001}},
			Direction{Loss: Loss{GE: true, P: 0.01, R: 0.25, LossBad: 0.5, LossGood: 0.001}}},
		{"queue in packets and bytes", "up.queue=100,down.queue=64KiB",
			Direction{Queue: Queue{Packets: 100}}, Direction{Queue: Queue{Bytes: 64 * units.KiB}}},
		{"rates in every unit", "up=1.5gbit,down=768kbit",
			Direction{Rate: mbit(1500)}, Direction{Rate: 768e3}},
		{"unlimited and spaces", " rate=unlimited , delay=5ms ",
			Direction{Delay: 5 * time.Millisecond}, Direction{Delay: 5 * time.Millisecond}},
		{"preset then override", "4g,loss=2%",
			Direction{Delay: 35 * time.Millisecond, Rate: mbit(12), Loss: Loss{Rate: 0.02}},
			Direction{Delay: 35 * time.Millisecond, Rate: mbit(12), Loss: Loss{Rate: 0.02}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if s.Up != tt.up || s.Down != tt.down {
				t.Errorf("Parse(%q)\n up   %+v, want %+v\n down %+v, want %+v", tt.in, s.Up, tt.up, s.Down, tt.down)
			}
			again, err := Parse(s.String())
			if err != nil || again.Up != s.Up || again.Down != s.Down {
				t.Errorf("String %q does not parse back: %+v, %v", s.String(), again, err)
			}
		})
	}
}

func TestParseCC(t *testing.T) {
	s, err := Parse("4g,cc=BBR")
	if err != nil || s.CC != "bbr" || !strings.HasSuffix(s.String(), ",cc=bbr") {
		t.Fatalf("Parse(4g,cc=BBR) = %+v (%q), %v: want cc bbr, printed last", s, s.String(), err)
	}
	back, err := Parse(s.String())
	if err != nil || back.CC != "bbr" {
		t.Errorf("round trip of %q: %+v, %v", s.String(), back, err)
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct{ in, field, want string }{
		{"", "spec", "preset"},
		{"rtt=-5ms", "rtt", "non-negative duration"},
		{"rtt=fast", "rtt", "duration"},
		{"cc=cu-bic", "cc", "congestion control"},
		{"cc=", "cc", "congestion control"},
		{"delay=2h", "delay", "up to 1m"},
		{"loss=101%", "loss", "percentage"},
		{"loss=100%", "loss", "below 100%"},
		{"loss=0.01", "loss", "percentage"},
		{"up.loss=ge:1%", "up.loss", "ge:P%:R%"},
		{"loss=ge:1%:0%", "loss", "R above 0%"},
		{"rate=0mbit", "rate", "positive rate"},
		{"rate=0", "rate", "positive rate"},
		{"rate=20mbps", "rate", "mbit"},
		{"rate=1bit", "rate", "from 8kbit"},
		{"down=fast", "down.rate", "positive rate"},
		{"queue=0", "queue", "packet count"},
		{"queue=1.5k", "queue", "packet count"},
		{"queue=100B", "queue", "from 1500B"},
		{"bandwidth=1mbit", "bandwidth", "rtt, delay"},
		{"up.rtt=5ms", "up.rtt", "rtt, delay"},
		{"rtt", "preset", "key=value"},
		{"rtt=5ms,", "spec", "key=value"},
		{"moon", "preset", "one of 3g, 4g"},
		{"rtt=10ms,rtt=50ms", "rtt", "one value: rtt=10ms is given too"},
		{"4g,loss=1%,LOSS=2%", "loss", "one value: loss=1% is given too"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Parse(tt.in)
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) = %v, want a *SpecError", tt.in, err)
			}
			if se.Field != tt.field || !strings.Contains(se.Want, tt.want) {
				t.Errorf("Parse(%q): field %q want %q; got field %q want %q", tt.in, tt.field, tt.want, se.Field, se.Want)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name the field %q", err, tt.field)
			}
		})
	}
}

func TestPresets(t *testing.T) {
	names := Presets()
	for _, want := range []string{"lan", "wifi", "4g", "3g", "satellite", "intercontinental", "lossy"} {
		s, err := preset(want)
		if err != nil {
			t.Errorf("preset(%q): %v", want, err)
			continue
		}
		if s.Name != want || s.RTT() <= 0 || s.Down.Rate <= 0 {
			t.Errorf("preset(%q) = %+v: want a name, an RTT and a rate", want, s)
		}
	}
	if len(names) != 7 {
		t.Errorf("Presets() = %v, want the 7 documented", names)
	}
	if s, _ := Parse("lossy"); s.Up.Loss.Mean() == 0 {
		t.Errorf("lossy preset loses nothing: %+v", s)
	}
}

func TestLossMean(t *testing.T) {
	tests := []struct {
		l    Loss
		want float64
	}{
		{Loss{}, 0},
		{Loss{Rate: 0.05}, 0.05},
		{Loss{GE: true, P: 0.01, R: 0.25, LossBad: 1}, 0.01 / 0.26},
		{Loss{GE: true, P: 0, R: 0.5, LossBad: 1, LossGood: 0.02}, 0.02},
	}
	for _, tt := range tests {
		if got := tt.l.Mean(); got < tt.want-1e-12 || got > tt.want+1e-12 {
			t.Errorf("%v.Mean() = %v, want %v", tt.l, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"rtt=50ms,rate=20mbit,loss=1%", "4g,loss=2%", "loss=ge:1%:25%:50%:1%", "up.queue=64KiB", "down=1.5gbit"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): %v is not a *SpecError", in, err)
			}
			return
		}
		for _, d := range []Direction{s.Up, s.Down} {
			if d.Delay < 0 || d.Jitter < 0 || d.Rate < 0 || d.Loss.Mean() < 0 || d.Loss.Mean() >= 1 {
				t.Fatalf("Parse(%q) = %+v: out of range", in, s)
			}
		}
		again, err := Parse(s.String())
		if err != nil || again.Up != s.Up || again.Down != s.Down {
			t.Fatalf("Parse(%q).String() = %q does not parse back: %+v, %v", in, s.String(), again, err)
		}
	})
}
