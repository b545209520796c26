package experiment_test

import (
	"context"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/runtest"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune"
)

// TestOpenTuneLink: the link it opens is calibrated (round trips measured,
// none shorter than the one asked for), named as the spec, and a tune search runs across it,
// recording it; closing it leaves nothing behind.
func TestOpenTuneLink(t *testing.T) {
	runtest.NeedLink(t)
	before := runtest.NetLeftovers(t)
	l := links(t, "rtt=20ms")[0]
	link, closeLink, err := experiment.OpenTuneLink(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	if link.Host != netem.ServerAddr.String() || link.Spec != l.Spec || link.Client == nil || link.Server == nil {
		t.Errorf("link %+v: want the spec's, its servers at %s", link, netem.ServerAddr)
	}
	// Calibrated: probes sent, round trips measured, none shorter than
	// the link's 20 ms (the ferry may write a packet up to 50 us early,
	// each way). How close to 20 ms is speed: netcal's measured checks.
	if n := link.Net; n == nil || n.Spec != "rtt=20ms" || n.Calibration.Probes == 0 ||
		n.Calibration.UDPRTTSeconds < 0.020-2*50e-6 || n.Calibration.TCPConnectSeconds < 0.020-2*50e-6 {
		t.Fatalf("calibration %+v: want rtt=20ms's, probes sent, round trips of 20 ms or more", n)
	}
	rep, err := tune.Run(context.Background(), tune.Options{Protocols: []transport.Protocol{transport.H2C}, Link: link, Budget: 3 * time.Second, Trial: 150 * time.Millisecond})
	closeLink()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Net != link.Net || len(rep.Results) != 1 || rep.Results[0].H1BytesPerSecond <= 0 {
		t.Errorf("search across the link: net %p (want %p), results %+v", rep.Net, link.Net, rep.Results)
	}
	runtest.CheckNoLeftovers(t, before)
}
