package experiment_test

import (
	"context"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/runtest"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune"
)

// TestTuneAcrossLink: the search runs across the link Tune makes, which
// is calibrated (its round trip the one asked for) and named as the spec
// in the report; nothing is left behind once it returns.
func TestTuneAcrossLink(t *testing.T) {
	runtest.NeedLink(t)
	before := runtest.NetLeftovers(t)
	l := links(t, "rtt=20ms")[0]
	rep, err := experiment.Tune(context.Background(), tune.Options{Protocols: []transport.Protocol{transport.H2C}, Budget: 3 * time.Second, Trial: 150 * time.Millisecond}, &l)
	if err != nil {
		t.Fatal(err)
	}
	if n := rep.Net; n == nil || n.Spec != "rtt=20ms" || n.Calibration.UDPRTTSeconds < 0.020-2*50e-6 || n.Calibration.UDPRTTSeconds > 0.030 {
		t.Fatalf("calibration %+v: want rtt=20ms's, 20-30 ms", n)
	}
	if len(rep.Results) != 1 || rep.Results[0].H1BytesPerSecond <= 0 {
		t.Errorf("search across the link: results %+v", rep.Results)
	}
	runtest.CheckNoLeftovers(t, before)
}
