package tune

import (
	"slices"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestLinkTrial: a trial across a link leaves two thirds of it after the
// handshakes and slow start.
func TestLinkTrial(t *testing.T) {
	for _, tt := range []struct {
		spec    string
		goodput float64
		want    time.Duration
	}{
		{"rtt=50ms,rate=20mbit", 0, 3 * (300 + 200) * time.Millisecond}, // 83 packets in flight: 4 doublings + 2 round trips
		{"rtt=1ms,rate=1gbit", 0, defaults.TuneTrial},                   // 12 ms of slow start: the default
		{"rtt=100ms", 240e6, 3 * (1000 + 400) * time.Millisecond},       // unlimited: the calibrated 240 Mbit/s, 2000 packets: 8 doublings + 2
	} {
		spec, err := netem.Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := linkTrial(spec, tt.goodput); got != tt.want {
			t.Errorf("LinkTrial(%s, %g) = %v, want %v", tt.spec, tt.goodput, got, tt.want)
		}
	}
}

// TestLinkDefaults: across a link, a zero trial and budget are sized for
// it; given ones, and those on loopback, are kept or tune's defaults.
func TestLinkDefaults(t *testing.T) {
	spec, err := netem.Parse("rtt=50ms,rate=20mbit")
	if err != nil {
		t.Fatal(err)
	}
	link := &Link{Spec: spec, Net: &results.Net{}}
	o := Options{Link: link}.withDefaults()
	if want := 1500 * time.Millisecond; o.Trial != want || o.Budget != linkTrialsPerProtocol*want*3 || len(o.Protocols) != 3 {
		t.Fatalf("across the link: trial %v, budget %v, %d transports; want %v, %v, 3", o.Trial, o.Budget, len(o.Protocols), want, linkTrialsPerProtocol*want*3)
	}
	o = Options{Link: link, Trial: time.Second, Budget: time.Minute}.withDefaults()
	if o.Trial != time.Second || o.Budget != time.Minute {
		t.Fatalf("given: trial %v, budget %v", o.Trial, o.Budget)
	}
	o = Options{}.withDefaults()
	if o.Trial != defaults.TuneTrial || o.Budget != defaults.TuneBudget {
		t.Fatalf("loopback: trial %v, budget %v", o.Trial, o.Budget)
	}
	if want := []transport.Protocol{transport.H2C, transport.H2, transport.H3}; !slices.Equal(o.Protocols, want) {
		t.Fatalf("transports %v, want %v", o.Protocols, want)
	}
}
