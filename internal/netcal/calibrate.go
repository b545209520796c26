// Package netcal calibrates an emulated link: it measures across a
// netem.Link what the link actually delivers (round trips, one-way loss,
// each direction's rate by paced UDP, TCP goodput each way), the figures
// a run records beside the spec it asked for (results.NetCalibration).
package netcal

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/udpprobe"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/units"
)

// Calibration is a link as measured across it: what a run should record
// next to the spec it asked for.
type Calibration struct {
	// UDPRTT is the median round trip of small UDP probes.
	UDPRTT time.Duration
	// TCPConnect is the median time of a TCP handshake (one round trip).
	TCPConnect time.Duration
	// Probes is the number of UDP probes sent up.
	Probes int
	// UpLoss is the fraction of probes lost client to server, in [0, 1].
	UpLoss float64
	// DownLoss is the fraction of echoes lost server to client, in [0, 1].
	DownLoss float64
	// UpRate and DownRate are each rate-limited direction's rate as
	// paced UDP datagrams found it (probeRate): the link itself, whatever
	// congestion control a transport runs; zero where no rate is set.
	UpRate, DownRate RateProbe
	// Down is the TCP goodput server to client (payload bits per second):
	// one transfer under the link's TCP congestion control, a figure of
	// that controller on this link (on a lossy one, its loss response),
	// not the link's bound.
	Down units.BitsPerSecond
	// Up is the TCP goodput client to server (payload bits per second).
	Up units.BitsPerSecond
	// UpStats and DownStats are the link's counters over the calibration
	// (since the link was made or its counters last reset): Late, MaxLate
	// and Overflow say whether the emulator kept up. Calibrate takes them
	// with netem.Link.ResetStats, so the link counts what follows afresh.
	UpStats, DownStats netem.DirStats
}

// Options sizes a calibration; the zero value is a short one.
type Options struct {
	// Probes is the number of UDP probes; if zero, 200.
	Probes int
	// ProbeGap is the time between two probes; if zero, 1ms.
	ProbeGap time.Duration
	// Connects is the number of TCP handshakes timed; if zero, 5.
	Connects int
	// Bulk is how long each TCP transfer sends; if zero, 2s.
	Bulk time.Duration
}

func (o Options) withDefaults() Options {
	if o.Probes <= 0 {
		o.Probes = 200
	}
	if o.ProbeGap <= 0 {
		o.ProbeGap = time.Millisecond
	}
	if o.Connects <= 0 {
		o.Connects = 5
	}
	if o.Bulk <= 0 {
		o.Bulk = 2 * time.Second
	}
	return o
}

// Calibrate measures l: UDP round trip and one-way loss, each direction's
// rate by paced UDP (probeRate), TCP handshake time, and TCP goodput each
// way; it leaves l's counters at zero.
func Calibrate(ctx context.Context, l *netem.Link, o Options) (Calibration, error) {
	o = o.withDefaults()
	var c Calibration
	p, err := probeUDP(ctx, l, o.Probes, o.ProbeGap)
	if err != nil {
		return c, err
	}
	c.UDPRTT, c.Probes, c.UpLoss, c.DownLoss = p.RTT, p.Sent, p.UpLoss(), p.DownLoss()
	if c.DownRate, err = probeRate(ctx, l, false); err != nil {
		return c, err
	}
	if c.UpRate, err = probeRate(ctx, l, true); err != nil {
		return c, err
	}
	if c.TCPConnect, err = connectTime(ctx, l, o.Connects); err != nil {
		return c, err
	}
	if c.Down, err = goodput(ctx, l, false, o.Bulk); err != nil {
		return c, err
	}
	if c.Up, err = goodput(ctx, l, true, o.Bulk); err != nil {
		return c, err
	}
	c.UpStats, c.DownStats = l.ResetStats()
	return c, nil
}

// probeUDP sends n small UDP probes, gap apart, from the client namespace
// to an echo in the server namespace (udpprobe.Probe), waiting for late
// echoes up to twice the spec's RTT plus one second.
func probeUDP(ctx context.Context, l *netem.Link, n int, gap time.Duration) (udpprobe.Result, error) {
	return udpprobe.Probe(ctx, l.Server(), l.Client(), netem.ServerAddr, n, gap, 2*l.Spec().RTT()+time.Second)
}

// connectTime returns the median of n TCP handshakes from the client
// namespace to the server namespace.
func connectTime(ctx context.Context, l *netem.Link, n int) (time.Duration, error) {
	ln, err := l.Server().Listen("tcp4", netip.AddrPortFrom(netem.ServerAddr, 0).String())
	if err != nil {
		return 0, fmt.Errorf("connect listen: %w", err)
	}
	defer ln.Close()
	go func() { // ends when ln closes
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	times := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		c, err := l.Client().DialContext(ctx, "tcp4", ln.Addr().String())
		if err != nil {
			return 0, fmt.Errorf("connect: %w", err)
		}
		times = append(times, time.Since(start))
		c.Close()
	}
	return analysis.Median(times), nil
}
