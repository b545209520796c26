package experiment

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/netcal"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/results"
)

// LinkSpec is an emulated link as asked for: Name as the user wrote it
// ("4g,loss=2%"), Spec what it parses to (netem.Parse).
type LinkSpec struct {
	Name string
	Spec netem.Spec
}

// emuLink is an experiment's emulated link: made before the child server
// starts (which runs in its server namespace), calibrated before the
// cells, closed with the child gone.
type emuLink struct {
	spec LinkSpec
	link *netem.Link
	// Desc is the link's record for results.json, once calibrated.
	Desc *results.Net
	// restoreGSO puts QUIC_GO_DISABLE_GSO back as it was; nil when
	// openLink did not change it.
	restoreGSO func()
	// mu guards the counters of the cells so far, which Take adds to.
	mu       sync.Mutex
	up, down netem.DirStats
}

// openLink makes s's link. A *netem.SetupError (no root, no
// /dev/net/tun) is returned as is and says what is missing.
func openLink(s LinkSpec) (*emuLink, error) {
	link, err := netem.NewLink(s.Spec)
	if err != nil {
		return nil, err
	}
	l := &emuLink{spec: s, link: link}
	if link.Backend() == netem.BackendNetem {
		l.restoreGSO = noUDPGSO()
	}
	return l, nil
}

// quicNoGSO is quic-go's switch for UDP GSO, read as each connection
// starts (in this process and in the child server, which inherits it).
const quicNoGSO = "QUIC_GO_DISABLE_GSO"

// noUDPGSO turns quic-go's UDP GSO off for a netem link and returns what
// puts it back. With GSO a QUIC sender hands the kernel up to 64 datagrams
// as one buffer, which a netem qdisc delays, loses and counts as one
// packet (the TUN link gets them one by one: the kernel splits them
// before a TUN device).
func noUDPGSO() func() {
	old, had := os.LookupEnv(quicNoGSO)
	os.Setenv(quicNoGSO, "true")
	return func() {
		if had {
			os.Setenv(quicNoGSO, old)
		} else {
			os.Unsetenv(quicNoGSO)
		}
	}
}

// Close ends the link; l may be nil.
func (l *emuLink) Close() {
	if l != nil {
		l.link.Close()
		if l.restoreGSO != nil {
			l.restoreGSO()
		}
	}
}

// Netem is the emulated link itself: its namespaces and counters.
func (l *emuLink) Netem() *netem.Link { return l.link }

// Name is the link as the user wrote it.
func (l *emuLink) Name() string { return l.spec.Name }

// server is the namespace the child server starts in; nil without a link.
func (l *emuLink) server() *netem.Namespace {
	if l == nil {
		return nil
	}
	return l.link.Server()
}

// calibrateOptions keep a calibration to a few seconds: 200 UDP probes,
// and TCP transfers of at least six round trips (netem.Goodput measures
// after slow start, which it estimates from the spec, and sends longer
// when that leaves too little to measure).
func calibrateOptions(spec netem.Spec) netcal.Options {
	return netcal.Options{Probes: 200, Connects: 5, Bulk: max(500*time.Millisecond, 6*spec.RTT())}
}

// Calibrate measures the link (Desc) and starts its counters afresh.
func (l *emuLink) Calibrate(ctx context.Context) error {
	start := time.Now()
	c, err := netcal.Calibrate(ctx, l.link, calibrateOptions(l.spec.Spec))
	if err != nil {
		return fmt.Errorf("calibrate the emulated link: %w", err)
	}
	l.Desc = matrix.NewNet(l.spec.Name, l.spec.Spec, l.link.Backend(), c, time.Since(start))
	l.Desc.TCPCongestion = l.link.CongestionControl()
	// Calibrate left the link's counters at zero: the cells' start here.
	return nil
}

// RTT is the link's round trip as calibrated: the median TCP handshake.
func (l *emuLink) RTT() time.Duration {
	return time.Duration(l.Desc.Calibration.TCPConnectSeconds * float64(time.Second))
}

// take returns the link's counters since the last take (or the
// calibration) and adds them to the cells' total: plan.Options'
// LinkCounters, which gives each repetition its own.
func (l *emuLink) take() (up, down netem.DirStats) {
	l.mu.Lock()
	defer l.mu.Unlock()
	up, down = l.link.ResetStats()
	l.up, l.down = l.up.Add(up), l.down.Add(down)
	return up, down
}

// result is the link's record for results.json, with its counters over
// all the cells; nil without a link.
func (l *emuLink) result() *results.Net {
	if l == nil || l.Desc == nil {
		return nil
	}
	l.take()
	l.mu.Lock()
	defer l.mu.Unlock()
	matrix.SetNetCounters(l.Desc, l.up, l.down)
	return l.Desc
}
