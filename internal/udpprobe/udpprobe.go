// Package udpprobe sends small UDP probes from one end of a link to an
// echo at the other and counts what arrived each way, with each echo's
// round trip: the calibration's round trip and loss (internal/netcal),
// and the traffic netem's tests count on its links. It knows the ends
// only as what listens and what dials, so netem's own tests can use it.
package udpprobe

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
)

// Listener is the end the echo listens in (a link's server namespace).
type Listener interface {
	ListenPacket(network, addr string) (net.PacketConn, error)
}

// Dialer is the end the probes are sent from (a link's client namespace).
type Dialer interface {
	DialContext(ctx context.Context, network, addr string) (net.Conn, error)
}

// Result counts a probe's datagrams.
type Result struct {
	// Sent is the number of probes the client sent.
	Sent int
	// Reached is the number the server received.
	Reached int
	// Echoed is the number of echoes the client received.
	Echoed int
	// RTT is the median round trip of the echoed probes.
	RTT time.Duration
}

// UpLoss returns the fraction of probes lost client to server.
func (p Result) UpLoss() float64 { return ratioLost(p.Reached, p.Sent) }

// DownLoss returns the fraction of echoes lost server to client.
func (p Result) DownLoss() float64 { return ratioLost(p.Echoed, p.Reached) }

func ratioLost(got, sent int) float64 {
	if sent == 0 {
		return 0
	}
	return 1 - float64(got)/float64(sent)
}

// Size is the UDP payload of a probe, in bytes: a sequence number and
// padding.
const Size = 64

// Probe sends n probes, gap apart, from client to an echo that server
// listens with at addr (any port), and counts what arrived each way. It
// waits for late echoes up to wait after the last is sent, or until every
// probe is back.
func Probe(ctx context.Context, server Listener, client Dialer, addr netip.Addr, n int, gap, wait time.Duration) (Result, error) {
	srv, err := server.ListenPacket("udp4", netip.AddrPortFrom(addr, 0).String())
	if err != nil {
		return Result{}, fmt.Errorf("probe listen: %w", err)
	}
	defer srv.Close()
	var reached atomic.Int64
	go func() { // ends when srv closes
		buf := make([]byte, 2048)
		for {
			k, from, err := srv.ReadFrom(buf)
			if err != nil {
				return
			}
			reached.Add(1)
			_, _ = srv.WriteTo(buf[:k], from)
		}
	}()
	cli, err := client.DialContext(ctx, "udp4", srv.LocalAddr().String())
	if err != nil {
		return Result{}, fmt.Errorf("probe dial: %w", err)
	}
	defer cli.Close()
	sent := make([]time.Duration, n)
	rtts := make([]time.Duration, 0, n)
	epoch := time.Now()
	var mu sync.Mutex
	recvDone := make(chan struct{})
	go func() {
		defer close(recvDone)
		buf := make([]byte, 2048)
		for {
			k, err := cli.Read(buf)
			if err != nil {
				return
			}
			now := time.Since(epoch)
			if k < 8 {
				continue
			}
			seq := binary.BigEndian.Uint64(buf)
			mu.Lock()
			if seq < uint64(n) {
				rtts = append(rtts, now-sent[seq])
			}
			all := len(rtts) == n
			mu.Unlock()
			if all {
				return // every probe is back: no need to wait for late ones
			}
		}
	}()
	p := Result{Sent: n}
	msg := make([]byte, Size)
	tick := time.NewTicker(gap)
	defer tick.Stop()
	for i := range n {
		binary.BigEndian.PutUint64(msg, uint64(i))
		mu.Lock()
		sent[i] = time.Since(epoch)
		mu.Unlock()
		if _, err := cli.Write(msg); err != nil {
			return p, fmt.Errorf("probe send: %w", err)
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return p, ctx.Err()
		}
	}
	_ = cli.SetReadDeadline(time.Now().Add(wait))
	<-recvDone
	mu.Lock()
	defer mu.Unlock()
	p.Reached, p.Echoed = int(reached.Load()), len(rtts)
	p.RTT = analysis.Median(rtts)
	return p, nil
}
