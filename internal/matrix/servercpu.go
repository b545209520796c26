package matrix

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// procCPU reads the server's CPU from /proc when the target serves no
// counters (not httpvs serve, or --no-server-stats) but listens on this
// machine's loopback: the processes holding each column's listening
// socket, found once, their CPU time and the wall clock read around
// every repetition as the counters would be. Its methods are safe for
// concurrent use.
type procCPU struct {
	mu    sync.Mutex
	start time.Time
	// noCounters is why the target's counters are not read: set once
	// the target answered that it serves none, or they are turned off.
	noCounters string
	found      map[string]*socketOwner // by network and port: "tcp 9180"
	used       []usedOwner             // each column that read, in order
}

// socketOwner is the processes holding one socket, or why they are
// unknown.
type socketOwner struct {
	l   *procstat.Listener
	why string
}

// usedOwner is the owner a column's figures were read from.
type usedOwner struct {
	col   string
	owner *socketOwner
}

// serverStats reads the server's figures for col, giving up on its
// counters after limit: its counters, or, once the target has said it
// serves none, its process's CPU from /proc (a snapshot without
// Protocols: see cpu); nil and a reason when neither is available.
func (r *runner) serverStats(ctx context.Context, col column, limit time.Duration) (*stats.ServerStats, string) {
	pc := &r.proc
	pc.mu.Lock()
	noCounters := pc.noCounters
	pc.mu.Unlock()
	if noCounters == "" && r.opts.NoServerStats {
		noCounters = "server counters not read (turned off)"
	}
	if noCounters == "" {
		st, note, err := serverctl.ReachStats(ctx, r.statsClient, r.statsURL, limit)
		if st != nil || err != nil || ctx.Err() != nil {
			return st, note // the counters, or no answer: unknown, as any repetition's
		}
		noCounters = note
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.noCounters = noCounters
	o := pc.owner(r.opts.Target, col)
	if o.l == nil {
		return nil, noCounters + "; server CPU unknown: " + o.why
	}
	user, sys, err := o.l.CPU()
	if err != nil {
		return nil, noCounters + "; server CPU unknown: " + err.Error()
	}
	if pc.start.IsZero() {
		pc.start = time.Now()
	}
	return &stats.ServerStats{Seconds: time.Since(pc.start).Seconds(), Process: stats.ProcessStats{CPUUserSeconds: user, CPUSystemSeconds: sys}}, noCounters
}

// owner is the processes holding col's socket, found on its first read;
// pc.mu is held.
func (pc *procCPU) owner(t Target, col column) *socketOwner {
	network, host, port, err := socketOf(t, col)
	key := fmt.Sprintf("%s %d", network, port)
	o := pc.found[key]
	switch {
	case err != nil:
		o = &socketOwner{why: err.Error()}
	case o != nil:
	case !dial.LoopbackHost(host):
		o = &socketOwner{why: fmt.Sprintf("the target %s is not on this machine's loopback, the only processes /proc names", host)}
	default:
		o = &socketOwner{}
		if o.l, err = procstat.FindListener(network, port, loopbackAddrs(host)); err != nil {
			o.why = err.Error()
		}
	}
	if err == nil {
		if pc.found == nil {
			pc.found = map[string]*socketOwner{}
		}
		pc.found[key] = o
	}
	for _, u := range pc.used {
		if u.col == col.name {
			return o
		}
	}
	pc.used = append(pc.used, usedOwner{col: col.name, owner: o})
	return o
}

// socketOf is the network, host and port col's connections go to: UDP
// for h3, TCP else; the native gRPC column's own address.
func socketOf(t Target, col column) (network, host string, port uint16, err error) {
	network, hostport := "tcp", t.GRPC
	if !col.native {
		base := targetBase(t, col.proto)
		u, err := url.Parse(base)
		if err != nil {
			return "", "", 0, err
		}
		hostport = u.Host
		if u.Port() == "" && col.proto.TLS() {
			hostport = net.JoinHostPort(u.Hostname(), "443")
		} else if u.Port() == "" {
			hostport = net.JoinHostPort(u.Hostname(), "80")
		}
	}
	if col.proto == transport.H3 && !col.native {
		network = "udp"
	}
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", "", 0, fmt.Errorf("the target's address %q: %w", hostport, err)
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil {
		return "", "", 0, fmt.Errorf("the target's port %q: %w", p, err)
	}
	return network, host, uint16(n), nil
}

// loopbackAddrs are the addresses a loopback host name stands for.
func loopbackAddrs(host string) []netip.Addr {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}
	}
	return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")} // localhost
}

// summary says where the server's CPU came from for the columns that
// read it from /proc, or why it is unknown: one clause per process (or
// reason), naming the columns when there is more than one; "" when no
// column did (the counters gave it).
func (pc *procCPU) summary() string {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	var order []string
	cols := map[string][]string{}
	for _, u := range pc.used {
		text := "unknown: " + u.owner.why
		if u.owner.l != nil {
			text = "read from /proc for " + u.owner.l.String()
		}
		if cols[text] == nil {
			order = append(order, text)
		}
		cols[text] = append(cols[text], u.col)
	}
	if len(order) == 1 {
		return "server CPU " + order[0]
	}
	parts := make([]string, len(order))
	for i, text := range order {
		head, why, _ := strings.Cut(text, ": ")
		over := " over " + strings.Join(cols[text], ", ")
		if strings.HasPrefix(text, "unknown: ") {
			parts[i] = head + over + ": " + why
		} else {
			parts[i] = text + over
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "server CPU " + strings.Join(parts, "; ")
}
