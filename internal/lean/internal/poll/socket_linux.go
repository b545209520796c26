package poll

import (
	"net"

	"golang.org/x/sys/unix"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// Sockaddr returns a's socket address and its address family.
func Sockaddr(a *net.TCPAddr) (unix.Sockaddr, int, error) {
	if ip4 := a.IP.To4(); ip4 != nil {
		sa := &unix.SockaddrInet4{Port: a.Port}
		copy(sa.Addr[:], ip4)
		return sa, unix.AF_INET, nil
	}
	sa := &unix.SockaddrInet6{Port: a.Port}
	copy(sa.Addr[:], a.IP.To16())
	if a.Zone != "" {
		ifi, err := net.InterfaceByName(a.Zone)
		if err != nil {
			return nil, 0, err
		}
		sa.ZoneId = uint32(ifi.Index)
	}
	return sa, unix.AF_INET6, nil
}

// TCPSocket makes a non-blocking TCP socket of family inside n (the
// process's own network when n is nil).
func TCPSocket(n transport.Network, family int) (fd int, err error) {
	err = dial.In(n, func() (err error) {
		fd, err = unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		return err
	})
	return fd, err
}
