package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// netFlagUsage is --net's help; sweep tells whether the command takes
// several links (run) or one (tune).
func netFlagUsage(sweep bool) string {
	several := "; one link"
	if sweep {
		several = "; repeat the flag for several links, run one after another with a table across them at the end: --net 4g --net lossy --net rtt=80ms"
	}
	return "emulate a network `link` between the client and the server: a preset (" + strings.Join(netem.Presets(), ", ") +
		"), key=value fields (rtt=50ms,rate=20mbit,loss=1%) or both (4g,loss=2%)" + several + ". backend=tun or backend=netem picks how the link is made (default auto: the kernel's netem where it has it, else TUN devices). cc=bbr|reno|cubic sets TCP's congestion control in the link's namespaces (default: the kernel's for a new namespace; the report names it, and QUIC's, quic-go's cubic). See docs/net-presets.md. Linux: root, or any user where the system allows user namespaces (httpvs then runs itself in one)"
}

// parseNetFlag reads --net; a bad spec is a usage error naming the field.
func parseNetFlag(text string) (netem.Spec, error) {
	spec, err := netem.Parse(text)
	var se *netem.SpecError
	if errors.As(err, &se) {
		return spec, usagef("--net %s=%q: want %s", se.Field, se.Value, se.Want)
	}
	return spec, err
}

// netRun is run's emulated link: made before the child server starts,
// closed (with the child gone) when the run ends.
type netRun struct {
	text string
	spec netem.Spec
	link *netem.Link
	desc *matrix.Net
	// restoreGSO puts QUIC_GO_DISABLE_GSO back as it was; nil when
	// openNet did not change it.
	restoreGSO func()
	// mu guards the counters of the cells so far, which take adds to.
	mu       sync.Mutex
	up, down netem.DirStats
}

// netProfile is one link profile of --net: its text and its spec.
type netProfile struct {
	text string
	spec netem.Spec
}

// netList is --net, repeatable: each value one link, run in order.
type netList []string

func (l *netList) String() string { return strings.Join(*l, " --net ") }

func (l *netList) Set(text string) error {
	*l = append(*l, text)
	return nil
}

// oneLink reads one --net value as one link: a preset, key=value fields,
// or a preset with fields after it. Two presets or a ";" are several
// links in one value, which once ran as something else than typed
// ("lan,4g,rtt=50ms;loss=1%" made "4g,rtt=50ms" and a 0 ms "loss=1%"):
// a usage error that says to repeat the flag.
func oneLink(text string) (netProfile, error) {
	var presets []string
	for _, field := range strings.Split(text, ",") {
		if f := strings.TrimSpace(field); f != "" && !strings.Contains(f, "=") {
			presets = append(presets, f)
		}
	}
	switch {
	case strings.TrimSpace(text) == "":
		return netProfile{}, usagef("--net \"\": want a link: a preset (%s), key=value fields (rtt=50ms,rate=20mbit) or both (4g,loss=2%%)", strings.Join(netem.Presets(), ", "))
	case strings.Contains(text, ";") || len(presets) > 1:
		parts := strings.FieldsFunc(text, func(r rune) bool { return r == ';' })
		if len(presets) > 1 {
			parts = presets
		}
		return netProfile{}, usagef("--net %q: one link per --net; for several links repeat the flag: --net %s", text, strings.Join(parts, " --net "))
	}
	spec, err := parseNetFlag(text)
	return netProfile{text: text, spec: spec}, err
}

// openNet makes p's link; nil without one. A *netem.SetupError (no root,
// no /dev/net/tun) is returned as is and says what is missing.
func openNet(p *netProfile) (*netRun, error) {
	if p == nil {
		return nil, nil
	}
	link, err := netem.NewLink(p.spec)
	if err != nil {
		return nil, err
	}
	n := &netRun{text: p.text, spec: p.spec, link: link}
	if link.Backend() == netem.BackendNetem {
		n.restoreGSO = noUDPGSO()
	}
	return n, nil
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

// close ends the link; n may be nil.
func (n *netRun) close() {
	if n != nil {
		n.link.Close()
		if n.restoreGSO != nil {
			n.restoreGSO()
		}
	}
}

// server is the namespace the child server starts in; nil without a link.
func (n *netRun) server() *netem.Namespace {
	if n == nil {
		return nil
	}
	return n.link.Server()
}

// network is where the client's sockets are made; nil (the process's own
// network) without a link.
func (n *netRun) network() transport.Network {
	if n == nil {
		return nil
	}
	return n.link.Client()
}

// calibrateOptions keep a calibration to a few seconds: 200 UDP probes,
// and TCP transfers of at least six round trips (netem.Goodput measures
// after slow start, which it estimates from the spec, and sends longer
// when that leaves too little to measure).
func calibrateOptions(spec netem.Spec) netem.CalibrateOptions {
	return netem.CalibrateOptions{Probes: 200, Connects: 5, Bulk: max(500*time.Millisecond, 6*spec.RTT())}
}

// calibrate measures the link before the cells.
func (n *netRun) calibrate(ctx context.Context) error {
	start := time.Now()
	c, err := netem.Calibrate(ctx, n.link, calibrateOptions(n.spec))
	if err != nil {
		return fmt.Errorf("calibrate the emulated link: %w", err)
	}
	n.desc = matrix.NewNet(n.text, n.spec, n.link.Backend(), c, time.Since(start))
	n.desc.TCPCongestion = n.link.CongestionControl()
	n.link.ResetStats() // the cells' counters start here
	return nil
}

// rtt is the link's round trip as calibrated: the median TCP handshake.
func (n *netRun) rtt() time.Duration {
	return time.Duration(n.desc.Calibration.TCPConnectSeconds * float64(time.Second))
}

// take returns the link's counters since the last take (or the
// calibration) and adds them to the cells' total: matrix.Options'
// LinkCounters, which gives each repetition its own.
func (n *netRun) take() (up, down netem.DirStats) {
	n.mu.Lock()
	defer n.mu.Unlock()
	up, down = n.link.ResetStats()
	n.up, n.down = n.up.Add(up), n.down.Add(down)
	return up, down
}

// result is the link's record for results.json, with its counters over
// all the cells; nil without a link.
func (n *netRun) result() *matrix.Net {
	if n == nil || n.desc == nil {
		return nil
	}
	n.take()
	n.mu.Lock()
	defer n.mu.Unlock()
	n.desc.SetCounters(n.up, n.down)
	return n.desc
}

// costLine says, before the cells start, what the run will measure and
// how long it is expected to take from its start (spent so far, and the
// estimate), and the budget added rounds fit in.
func costLine(est matrix.Estimate, nr *netRun, spent, budget time.Duration) string {
	where := "on loopback"
	if nr != nil {
		c := nr.desc.Calibration
		where = fmt.Sprintf("across %s (%.1f ms, %s down)", nr.text, c.UDPRTTSeconds*1e3, units.BitsPerSecond(c.DownGoodputBitsPerSecond))
	}
	line := fmt.Sprintf("httpvs run: %d cells %s, %d round(s) each: about %s in all", est.Cells, where, est.Rounds, (spent + est.Time).Round(time.Second))
	if est.MaxRounds > est.Rounds && budget > 0 {
		line += fmt.Sprintf(", at most %s: noisy cells get up to %d rounds within it (--budget)", budget.Round(time.Second), est.MaxRounds)
	}
	return line
}
