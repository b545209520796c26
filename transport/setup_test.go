package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/stats"
)

// A set-up the dial timeout ends is a *SetupTimeoutError naming its stage
// and bound, counted as a timeout; one the caller's deadline ends first is
// not, since that bound is the caller's.
func TestSetupTimeoutNamesTheBound(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	udp := pc.LocalAddr().String()
	pc.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accepts and never answers: a TLS handshake waits
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	const bound = 200 * time.Millisecond
	tlsConf := &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h3"}}
	quicDial := func(ctx context.Context) error {
		_, err := dialQUICTimed(ctx, nil, udp, tlsConf, &quic.Config{HandshakeIdleTimeout: bound})
		return err
	}
	tlsDial := func(ctx context.Context) error {
		var d net.Dialer
		c, err := dialIn(ctx, nil, &d, "tcp", ln.Addr().String())
		if err != nil {
			return err
		}
		defer c.Close()
		return handshakeTLS(ctx, tls.Client(c, tlsConf), ln.Addr().String(), bound)
	}
	for _, c := range []struct {
		name   string
		dial   func(context.Context) error
		caller time.Duration // the caller's own deadline
		stage  string        // "" when the caller's deadline came first
	}{
		{"QUIC handshake", quicDial, 10 * time.Second, "QUIC handshake"},
		{"QUIC, caller first", quicDial, bound / 2, ""},
		{"TLS handshake", tlsDial, 10 * time.Second, "TLS handshake"},
		{"TLS, caller first", tlsDial, bound / 2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), c.caller)
			defer cancel()
			err := c.dial(ctx)
			var st *SetupTimeoutError
			switch {
			case Classify(err) != stats.ErrTimeout:
				t.Fatalf("err %v: classified %v, want a timeout", err, Classify(err))
			case c.stage == "" && errors.As(err, &st):
				t.Fatalf("err %v: the caller's deadline expired, not the set-up's", err)
			case c.stage != "" && (!errors.As(err, &st) || st.Stage != c.stage || st.Timeout != bound):
				t.Fatalf("err %v: want a *SetupTimeoutError of the %s after %v", err, c.stage, bound)
			}
		})
	}
}
