package netcal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"time"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/units"
)

// goodput sends TCP data across the link, server to client (or client to
// server when up is true), and returns the receiver's payload rate once
// slow start is over, measured for max(d-warm, d/2). The warm-up is at
// least a quarter of d, four RTTs and the direction's
// linkmodel.SlowStart, and it lasts until a round trip moves less than
// plateauGrowth times the one before (slow start doubles it): across a
// link with no rate the ramp ends at a ceiling linkmodel.SlowStart cannot
// know (the emulator's, the kernel's TCP buffers'). That wait is bounded
// by maxRampRTTs round trips.
func goodput(ctx context.Context, l *netem.Link, up bool, d time.Duration) (units.BitsPerSecond, error) {
	ln, err := l.Server().Listen("tcp4", netip.AddrPortFrom(netem.ServerAddr, 0).String())
	if err != nil {
		return 0, fmt.Errorf("goodput listen: %w", err)
	}
	defer ln.Close()
	rtt := l.Spec().RTT()
	dir := l.Spec().Down
	if up {
		dir = l.Spec().Up
	}
	warm := max(d/4, 4*rtt, linkmodel.SlowStart(dir.Rate, rtt))
	r := ramp{warm: warm, tick: max(rtt, minTick), measure: max(d/2, d-warm)}
	r.most = r.warm + maxRampRTTs*r.tick
	deadline := time.Now().Add(r.most + r.measure + 30*time.Second + 8*rtt)
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	cc, err := l.Client().DialContext(ctx, "tcp4", ln.Addr().String())
	if err != nil {
		return 0, fmt.Errorf("goodput dial: %w", err)
	}
	defer cc.Close()
	sc, ok := <-accepted
	if !ok {
		return 0, errors.New("goodput: accept failed")
	}
	defer sc.Close()
	src, dst := sc, cc
	if up {
		src, dst = cc, sc
	}
	_ = src.SetDeadline(deadline)
	_ = dst.SetDeadline(deadline)
	stop := make(chan struct{})
	sendErr := make(chan error, 1)
	go func() { sendErr <- sendUntil(ctx, src, r.most+r.measure, stop) }()
	rate, err := r.receive(dst, func() { close(stop) })
	if serr := <-sendErr; err == nil && serr != nil {
		err = serr
	}
	return rate, err
}

// Bounds of goodput's warm-up.
const (
	// plateauGrowth: a round trip that moves less than this times the
	// one before ends slow start (which doubles it).
	plateauGrowth = 1.25
	// maxRampRTTs bounds the wait for that plateau after the warm-up's
	// minimum, in round trips: 20 doublings from 10 segments is far past
	// any rate this machine carries.
	maxRampRTTs = 20
	// minTick is the shortest interval rates are compared over: a
	// round trip of a few microseconds (rtt=0) measures scheduling.
	minTick = 10 * time.Millisecond
)

// ramp is how goodput's receiver finds the end of slow start.
type ramp struct {
	warm    time.Duration // the least warm-up
	tick    time.Duration // the interval rates are compared over: a round trip
	most    time.Duration // the longest warm-up
	measure time.Duration // how long to measure after it
}

// sendUntil writes to c until stop is closed or d has passed, then
// closes its write side.
func sendUntil(ctx context.Context, c net.Conn, d time.Duration, stop <-chan struct{}) error {
	buf := make([]byte, 64<<10)
	end := time.Now().Add(d)
	for time.Now().Before(end) && ctx.Err() == nil {
		select {
		case <-stop:
			return closeWrite(c)
		default:
		}
		if _, err := c.Write(buf); err != nil {
			return fmt.Errorf("goodput send: %w", err)
		}
	}
	return closeWrite(c)
}

func closeWrite(c net.Conn) error {
	if tc, ok := c.(*net.TCPConn); ok {
		return tc.CloseWrite()
	}
	return nil
}

// receive reads c to EOF and returns the payload rate from the end of the
// warm-up; it calls stop once it has measured for r.measure.
func (r ramp) receive(c net.Conn, stop func()) (units.BitsPerSecond, error) {
	buf := make([]byte, 256<<10)
	var start, mark, tickEnd time.Time
	var total, atMark, atTick, lastTick int64
	stopped, warm := false, false
	for {
		k, err := c.Read(buf)
		now := time.Now()
		if start.IsZero() && k > 0 {
			start, tickEnd = now, now.Add(r.tick)
		}
		total += int64(k)
		if !warm && !start.IsZero() && !now.Before(tickEnd) {
			moved := total - atTick
			grew := float64(moved) >= plateauGrowth*float64(lastTick)
			if since := now.Sub(start); (since >= r.warm && !grew) || since >= r.most {
				warm = true
			}
			lastTick, atTick, tickEnd = moved, total, now.Add(r.tick)
		}
		if warm && mark.IsZero() && k < len(buf) {
			// The socket's queue is empty here: bytes that waited in it
			// for a reader the scheduler held back (a busy machine) are
			// not counted as if they had crossed the link after the mark
			// (one TCP transfer read 11.08 Mbit/s across a 10 Mbit/s link).
			mark, atMark = now, total
		}
		if !mark.IsZero() && !stopped && now.Sub(mark) >= r.measure {
			stop()
			stopped = true
		}
		if errors.Is(err, io.EOF) {
			if mark.IsZero() || !now.After(mark) {
				return 0, errors.New("goodput: transfer shorter than its warm-up")
			}
			return units.Rate(units.Bytes(total-atMark), now.Sub(mark).Seconds()), nil
		}
		if err != nil {
			return 0, fmt.Errorf("goodput receive: %w", err)
		}
	}
}
