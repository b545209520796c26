package testenv

import (
	"net/netip"
	"syscall"
	"testing"
)

// HoldPorts keeps the TCP ports of addrs (IPv4 host:port), whose
// listeners a test has just closed to be refused, bound by sockets that
// never listen until the test ends: dials to them are refused, and the
// kernel hands none of them to a listener another package's test asks
// for (port 0). A closed port was otherwise free for the next one, which
// then answered the dials meant to be refused (resets, timeouts).
func HoldPorts(t testing.TB, addrs ...string) {
	t.Helper()
	for _, addr := range addrs {
		ap, err := netip.ParseAddrPort(addr)
		if err != nil || !ap.Addr().Is4() {
			t.Fatalf("hold port %q: want an IPv4 host:port (%v)", addr, err)
		}
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatalf("hold port %s: %v", addr, err)
		}
		t.Cleanup(func() { syscall.Close(fd) })
		// SO_REUSEADDR as the closed listener had: its accepted
		// connections' TIME_WAIT would refuse a plain bind.
		if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
			t.Fatalf("hold port %s: %v", addr, err)
		}
		if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}); err != nil {
			t.Fatalf("hold port %s: %v", addr, err)
		}
	}
}
