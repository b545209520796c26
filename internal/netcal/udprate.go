package netcal

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/units"
)

// RateProbe is the result of probeRate: a direction's rate as paced UDP
// datagrams found it, with no congestion control involved.
type RateProbe struct {
	// Offered is the rate the datagrams were sent at, bits per second of
	// IP packets.
	Offered units.BitsPerSecond
	// Sent and Received count the datagrams.
	Sent, Received int
	// Rate is what the receiver got, bits per second of IP packets, from
	// its first datagram to its last; 0 with fewer than two.
	Rate units.BitsPerSecond
}

// Bounds of probeRate.
const (
	// rateOffer is how far above the configured rate the probe sends
	// (over what the loss model leaves): the queue in front of the rate
	// limit never empties, so the receiver sees the rate itself.
	rateOffer = 1.25
	// rateProbePackets sizes the probe: the time this many full packets
	// take at the configured rate, within [minRateProbe, maxRateProbe].
	rateProbePackets = 500
	minRateProbe     = 200 * time.Millisecond
	maxRateProbe     = 1500 * time.Millisecond
	// rateIdle is how long the receiver waits past a round trip for a
	// datagram before it takes the probe as over.
	rateIdle = 300 * time.Millisecond
	// udpPayload is a full datagram's payload on an MTU-sized packet.
	udpPayload = linkmodel.MTU - linkmodel.UDPIPHeaders
)

// rateProbeTime is how long probeRate sends for on a direction of rate
// bits per second: rateProbePackets full packets' time, within 0.2-1.5 s.
func rateProbeTime(rate units.BitsPerSecond) time.Duration {
	if rate <= 0 {
		return 0
	}
	d := time.Duration(float64(rateProbePackets*linkmodel.MTU*8) / float64(rate) * float64(time.Second))
	return min(max(d, minRateProbe), maxRateProbe)
}

// probeRate measures the rate of one direction of l (client to server
// when up is true) with paced UDP: full-sized datagrams sent for
// rateProbeTime at rateOffer times the configured rate (over what the
// loss model leaves), counted where they arrive. The rate limit's queue
// stays full, so the receiver's IP bytes over the time from its first
// datagram to its last are the link's rate as the emulator delivers it:
// no congestion control decides it. A direction with no rate set is not
// probed (a zero RateProbe): nothing sets the pace to offer.
func probeRate(ctx context.Context, l *netem.Link, up bool) (RateProbe, error) {
	dir := l.Spec().Down
	if up {
		dir = l.Spec().Up
	}
	if dir.Rate <= 0 {
		return RateProbe{}, nil
	}
	p := RateProbe{Offered: units.BitsPerSecond(float64(dir.Rate) * rateOffer / (1 - min(dir.Loss.Mean(), 0.5)))}
	srv, err := l.Server().ListenPacket("udp4", netip.AddrPortFrom(netem.ServerAddr, 0).String())
	if err != nil {
		return p, fmt.Errorf("rate probe listen: %w", err)
	}
	defer srv.Close()
	cli, err := l.Client().DialContext(ctx, "udp4", srv.LocalAddr().String())
	if err != nil {
		return p, fmt.Errorf("rate probe dial: %w", err)
	}
	defer cli.Close()
	d, idle := rateProbeTime(dir.Rate), l.Spec().RTT()+rateIdle
	var sent atomic.Int64
	sendErr := make(chan error, 1)
	var got arrivals
	if up {
		go func() { sendErr <- pace(ctx, cli.Write, p.Offered, d, &sent) }()
		got, err = receive(srv.(*net.UDPConn), idle+d)
	} else {
		go func() { sendErr <- serveDown(ctx, srv, p.Offered, d, idle, &sent) }()
		got, err = receiveDown(cli.(*net.UDPConn), idle)
	}
	serr := <-sendErr
	p.Sent, p.Received, p.Rate = int(sent.Load()), got.n, got.rate()
	return p, errors.Join(err, serr)
}

// pace writes full-sized datagrams at offer bits per second of IP packets
// for d, counting them in sent.
func pace(ctx context.Context, write func([]byte) (int, error), offer units.BitsPerSecond, d time.Duration, sent *atomic.Int64) error {
	buf := make([]byte, udpPayload)
	start := time.Now()
	for ctx.Err() == nil {
		since := time.Since(start)
		if since >= d {
			return nil
		}
		due := int64(float64(offer) / 8 * since.Seconds() / linkmodel.MTU)
		for sent.Load() <= due {
			if _, err := write(buf); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				return fmt.Errorf("rate probe send: %w", err)
			}
			sent.Add(1)
		}
		time.Sleep(time.Millisecond)
	}
	return ctx.Err()
}

// serveDown waits (at most idle plus a second) for the client's first
// datagram and paces the probe back to its sender.
func serveDown(ctx context.Context, srv net.PacketConn, offer units.BitsPerSecond, d, idle time.Duration, sent *atomic.Int64) error {
	_ = srv.SetReadDeadline(time.Now().Add(idle + time.Second))
	buf := make([]byte, 64)
	_, from, err := srv.ReadFrom(buf)
	if err != nil {
		return fmt.Errorf("rate probe: no start from the client: %w", err)
	}
	return pace(ctx, func(b []byte) (int, error) { return srv.WriteTo(b, from) }, offer, d, sent)
}

// receiveDown asks the server to start, again every round trip until its
// first datagram arrives (the request may be lost), and receives.
func receiveDown(c *net.UDPConn, idle time.Duration) (arrivals, error) {
	started := make(chan struct{})
	go func() {
		t := time.NewTicker(idle - rateIdle + 20*time.Millisecond)
		defer t.Stop()
		for range 20 {
			_, _ = c.Write([]byte("go"))
			select {
			case <-started:
				return
			case <-t.C:
			}
		}
	}()
	got, err := receive(c, idle+time.Second, started)
	return got, err
}

// arrivals are what a probe's receiver counted.
type arrivals struct {
	n           int
	bytes       int64 // IP bytes after the first datagram
	first, last time.Time
}

// rate is the IP bits per second from the first datagram to the last.
func (a arrivals) rate() units.BitsPerSecond {
	if a.n < 2 || !a.last.After(a.first) {
		return 0
	}
	return units.Rate(units.Bytes(a.bytes), a.last.Sub(a.first).Seconds())
}

// receive counts datagrams on c until none comes for idle after the
// first (before it: wait); it closes started, if given, on the first.
func receive(c *net.UDPConn, wait time.Duration, started ...chan struct{}) (arrivals, error) {
	_ = c.SetReadBuffer(4 << 20)
	var a arrivals
	buf := make([]byte, linkmodel.MTU)
	idle := wait
	for {
		_ = c.SetReadDeadline(time.Now().Add(idle))
		k, err := c.Read(buf)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) && a.n > 0 {
				return a, nil
			}
			return a, fmt.Errorf("rate probe receive: %w", err)
		}
		now := time.Now()
		if a.n == 0 {
			a.first = now
			for _, s := range started {
				close(s)
			}
			idle = rateIdle
		} else {
			a.bytes += int64(k + linkmodel.UDPIPHeaders)
		}
		a.n++
		a.last = now
	}
}
