package matrix

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/netcal"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// TestNetBackend: results record the backend that made the link, and the
// summary line counts late packets only where the emulator counts them.
func TestNetBackend(t *testing.T) {
	spec, err := netem.Parse("rtt=40ms")
	if err != nil {
		t.Fatal(err)
	}
	c := netcal.Calibration{UDPRTT: 40 * time.Millisecond}
	tun := NewNet("rtt=40ms", spec, netem.BackendTUN, c, time.Second)
	if tun.Backend != results.NetBackendTUN || !strings.Contains(report.NetSummary(tun), "packets were late") {
		t.Errorf("tun: backend %q, summary %q", tun.Backend, report.NetSummary(tun))
	}
	kernel := NewNet("rtt=40ms", spec, netem.BackendNetem, c, time.Second)
	if s := report.NetSummary(kernel); kernel.Backend != results.NetBackendNetem || strings.Contains(s, "packets were late") || !strings.HasSuffix(s, "; the kernel's netem qdisc applied it") {
		t.Errorf("netem: backend %q, summary %q", kernel.Backend, s)
	}
}
