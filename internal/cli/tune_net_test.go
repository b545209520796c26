package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/tune/tuneresult"
)

// TestTuneNet searches h2c's knobs across a 20 ms, 50 Mbit/s link: the
// report records the link and its calibration, every download moved
// data, none faster than the link carries, and nothing of the link is
// left afterwards.
func TestTuneNet(t *testing.T) {
	parallelLink(t)
	code, stdout, stderr := runMain(t, "tune", "--net", "rtt=20ms,rate=50mbit", "--protocols", "h2c", "--budget", "10s", "--trial", "400ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep tuneresult.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("tune --json: %v\n%s", err, stdout)
	}
	n := rep.Net
	if n == nil || n.Spec != "rtt=20ms,rate=50mbit" || n.Down.RateBitsPerSecond != 50e6 {
		t.Fatalf("report's link %+v: want the spec rtt=20ms,rate=50mbit", n)
	}
	// The link's delay is there: no round trip shorter than 20 ms. How
	// little longer is speed (a loaded machine adds to it): the measured
	// link checks hold it.
	if rtt := n.Calibration.UDPRTTSeconds; rtt < 0.020-2*50e-6 {
		t.Errorf("calibrated RTT %.1f ms, want 20 or more", rtt*1e3)
	}
	if len(rep.Results) != 1 || rep.Results[0].Protocol != "h2c" {
		t.Fatalf("results %+v: want h2c's", rep.Results)
	}
	r := rep.Results[0]
	// Payload over a 50 Mbit/s link of IP packets: below 6.25 MB/s, and
	// not nothing. How close to it is speed (the measured link checks).
	const link = 50e6 / 8
	for name, rate := range map[string]float64{"h1": r.H1BytesPerSecond, "default": r.DefaultBytesPerSecond, "best": r.BestBytesPerSecond} {
		if rate <= 0 || rate > link {
			t.Errorf("%s: %.2f MB/s across a 6.25 MB/s link: want some, at most all of it", name, rate/1e6)
		}
	}
}

// TestTuneNetRefuses: tune takes one link, and one --net is one link.
func TestTuneNetRefuses(t *testing.T) {
	code, _, stderr := runMain(t, "tune", "--net", "4g", "--net", "lossy")
	if code != 2 || !strings.Contains(stderr, "--net given 2 times: tune searches across one link") {
		t.Errorf("exit %d, %q: want 2 and one line saying tune takes one link", code, stderr)
	}
	code, _, stderr = runMain(t, "tune", "--net", "4g,lossy")
	if code != 2 || !strings.Contains(stderr, "one link per --net") {
		t.Errorf("exit %d, %q: want 2 and one line saying one link per --net", code, stderr)
	}
}
