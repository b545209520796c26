package linkmodel_test

import (
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/netem"
)

func TestSlowStart(t *testing.T) {
	for _, tt := range []struct {
		spec string
		up   bool
		want time.Duration
	}{
		// 50 Mbit/s x 50 ms = 208 packets: 5 doublings from 10, plus 2.
		{"rtt=50ms,rate=50mbit", false, 350 * time.Millisecond},
		// 83 packets: 4 doublings, plus 2.
		{"rtt=20ms,rate=50mbit", true, 120 * time.Millisecond},
		// 3g's up direction, 768 kbit/s x 300 ms = 19 packets: 1 doubling.
		{"3g", true, 900 * time.Millisecond},
		// A window of 10 fills 1 Mbit/s x 10 ms already.
		{"rtt=10ms,rate=1mbit", false, 20 * time.Millisecond},
		{"rtt=50ms", false, 0},
		{"rate=50mbit", false, 0},
	} {
		spec, err := netem.Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		d := spec.Down
		if tt.up {
			d = spec.Up
		}
		if got := linkmodel.SlowStart(d.Rate, spec.RTT()); got != tt.want {
			t.Errorf("SlowStart(%s, up=%v) = %v, want %v", tt.spec, tt.up, got, tt.want)
		}
	}
}
