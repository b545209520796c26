package experiment_test

import (
	"context"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune"
)

// TestTuneAcrossLink: the search runs across the link Tune makes, which
// is calibrated (round trips measured, none shorter than the one asked
// for) and named as the spec in the report; nothing is left behind once
// it returns.
func TestTuneAcrossLink(t *testing.T) {
	needLink(t)
	before := testenv.NetLeftovers(t)
	l := links(t, "rtt=20ms")[0]
	rep, err := experiment.Tune(context.Background(), tune.Options{Protocols: []transport.Protocol{transport.H2C}, Budget: 3 * time.Second, Trial: 150 * time.Millisecond}, &l)
	if err != nil {
		t.Fatal(err)
	}
	// Calibrated: probes sent, round trips measured, none shorter than
	// the link's 20 ms (the ferry may write a packet up to 50 us early,
	// each way). How close to 20 ms is speed: netcal's measured checks.
	if n := rep.Net; n == nil || n.Spec != "rtt=20ms" || n.Calibration.Probes == 0 ||
		n.Calibration.UDPRTTSeconds < 0.020-2*50e-6 || n.Calibration.TCPConnectSeconds < 0.020-2*50e-6 {
		t.Fatalf("calibration %+v: want rtt=20ms's, probes sent, round trips of 20 ms or more", n)
	}
	if len(rep.Results) != 1 || rep.Results[0].H1BytesPerSecond <= 0 {
		t.Errorf("search across the link: results %+v", rep.Results)
	}
	testenv.CheckNoLeftovers(t, before)
}
