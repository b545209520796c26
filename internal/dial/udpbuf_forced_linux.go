package dial

import (
	"net"
	"syscall"
)

// udpBuffersForced reports whether this process may force a UDP socket's
// buffers past net.core.rmem_max and wmem_max, as quic-go does with
// SO_RCVBUFFORCE and SO_SNDBUFFORCE when the kernel caps what it asks for
// (CAP_NET_ADMIN: root, or a user namespace's owner in its own network
// namespace). quic-go forces only under a cap below half of what it asks
// for (quicBuffer). It tries on a socket of its own, on loopback.
func udpBuffersForced() bool {
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return false
	}
	defer c.Close()
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	forced := false
	cerr := raw.Control(func(fd uintptr) {
		forced = true
		for _, opt := range [][2]int{{syscall.SO_RCVBUFFORCE, syscall.SO_RCVBUF}, {syscall.SO_SNDBUFFORCE, syscall.SO_SNDBUF}} {
			if syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, opt[0], quicWantBuffer) != nil {
				forced = false
				return
			}
			got, err := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, opt[1])
			forced = forced && err == nil && got >= quicWantBuffer
		}
	})
	return cerr == nil && forced
}
