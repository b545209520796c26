package netem

import (
	"context"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLinkCongestionControl sets cc= on a link, to each algorithm the
// machine allows namespaces, and checks it where it acts: the namespaces'
// setting, and a TCP connection across the link (TCP_CONGESTION on the
// client's socket and on the server's accepted one).
func TestLinkCongestionControl(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/tcp_allowed_congestion_control")
	if err != nil {
		t.Skip(err)
	}
	for _, cc := range strings.Fields(string(b)) {
		t.Run(cc, func(t *testing.T) {
			l := newTestLink(t, "rtt=2ms,backend=tun,cc="+cc)
			if got := l.CongestionControl(); got != cc {
				t.Fatalf("CongestionControl() = %q, want %q", got, cc)
			}
			ln, err := l.Server().Listen("tcp", ServerAddr.String()+":0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			accepted := make(chan string, 1)
			go func() {
				c, err := ln.Accept()
				if err != nil {
					accepted <- err.Error()
					return
				}
				defer c.Close()
				accepted <- socketCC(t, c)
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c, err := l.Client().DialContext(ctx, "tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := socketCC(t, c); got != cc {
				t.Errorf("client socket uses %q, want %q", got, cc)
			}
			if got := <-accepted; got != cc {
				t.Errorf("server socket uses %q, want %q", got, cc)
			}
		})
	}
}

// socketCC is the congestion control of c's TCP socket.
func socketCC(t *testing.T, c net.Conn) string {
	t.Helper()
	raw, err := c.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var name string
	var gerr error
	err = raw.Control(func(fd uintptr) { name, gerr = unix.GetsockoptString(int(fd), unix.IPPROTO_TCP, unix.TCP_CONGESTION) })
	if err != nil || gerr != nil {
		t.Fatalf("getsockopt TCP_CONGESTION: %v %v", err, gerr)
	}
	return strings.TrimRight(name, "\x00")
}

// TestLinkCongestionControlDefault records the namespaces' own default
// when the spec names none, and refuses one the kernel lacks.
func TestLinkCongestionControlDefault(t *testing.T) {
	l := newTestLink(t, "rtt=2ms,backend=tun")
	if l.CongestionControl() == "" {
		t.Error("no congestion control recorded for a link without cc=")
	}
	spec, err := Parse("rtt=2ms,backend=tun,cc=nosuchcc")
	if err != nil {
		t.Fatal(err)
	}
	l2, err := NewLink(spec)
	if err == nil {
		l2.Close()
		t.Fatal("a link with cc=nosuchcc was made")
	}
	if !strings.Contains(err.Error(), "it has:") {
		t.Errorf("error %q does not list the kernel's algorithms", err)
	}
	// One the kernel has but does not allow namespaces says how to allow it.
	allowed, _ := os.ReadFile("/proc/sys/net/ipv4/tcp_allowed_congestion_control")
	avail, _ := os.ReadFile("/proc/sys/net/ipv4/tcp_available_congestion_control")
	for _, cc := range strings.Fields(string(avail)) {
		if slices.Contains(strings.Fields(string(allowed)), cc) {
			continue
		}
		spec.CC = cc
		l3, err := NewLink(spec)
		if err == nil {
			l3.Close()
			t.Fatalf("a link with cc=%s, which namespaces may not use here, was made", cc)
		}
		if !strings.Contains(err.Error(), "tcp_allowed_congestion_control") {
			t.Errorf("cc=%s: %q does not say how to allow it", cc, err)
		}
		break
	}
}
