package netem

import (
	"errors"
	"fmt"
	"net/netip"
	"os"

	"golang.org/x/sys/unix"
)

// tunTxQueueLen is the TUN devices' transmit ring, in packets: TUN devices
// have no qdisc, so a full ring drops; it is deep enough that the ferry,
// not the ring, is where packets wait.
const tunTxQueueLen = 10000

// prefixLen is the length of the prefix the two addresses share.
const prefixLen = 30

// The addresses of the two ends, from the RFC 2544 benchmarking range
// 198.18.0.0/15, in one /30: the only route in either namespace.
var (
	// ClientAddr is the address of the client namespace's TUN device.
	clientAddr = netip.MustParseAddr("198.18.0.1")
	// ServerAddr is the address of the server namespace's TUN device.
	ServerAddr = netip.MustParseAddr("198.18.0.2")
)

// setupSide runs on a fresh namespace's worker thread: it brings up lo,
// turns IPv6 off (no stray router solicitations on the link), and makes
// and configures the TUN device name with addr. It returns the TUN file.
func setupSide(name string, addr netip.Addr) (*os.File, error) {
	// Best effort: a kernel without IPv6 has no such files.
	_ = sysctl("net/ipv6/conf/all/disable_ipv6", "1")
	_ = sysctl("net/ipv6/conf/default/disable_ipv6", "1")
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(s)
	if err := setUp(s, "lo"); err != nil {
		return nil, err
	}
	tun, err := openTUN(name)
	if err != nil {
		return nil, err
	}
	if err := configure(s, name, addr); err != nil {
		tun.Close()
		return nil, err
	}
	return tun, nil
}

// openTUN makes the TUN device name in the calling thread's namespace: IP
// packets without a packet-information header, no virtio-net header (so no
// offloads: every packet read is at most MTU bytes). The descriptor is
// non-blocking, so reads go through Go's poller and Close interrupts them.
func openTUN(name string) (*os.File, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
		return nil, &SetupError{Need: "read and write access to /dev/net/tun (root, or a device mode of 0666 as most distributions ship it)", Err: err}
	}
	if err != nil {
		return nil, &SetupError{Need: "the TUN device /dev/net/tun (modprobe tun)", Err: err}
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		unix.Close(fd)
		return nil, &SetupError{Need: "CAP_NET_ADMIN to create TUN devices", Err: fmt.Errorf("TUNSETIFF %s: %w", name, err)}
	}
	return os.NewFile(uintptr(fd), "tun:"+name), nil
}

// configure sets name's MTU, address and /30 netmask through ioctls on the
// socket s, its transmit queue through rtnetlink, and brings it up.
func configure(s int, name string, addr netip.Addr) error {
	maskBytes := []byte{0xff, 0xff, 0xff, 0xff << (32 - prefixLen) & 0xff}
	a4 := addr.As4()
	steps := []struct {
		what string
		req  uint
		set  func(*unix.Ifreq) error
	}{
		{"mtu", unix.SIOCSIFMTU, func(r *unix.Ifreq) error { r.SetUint32(mtu); return nil }},
		{"address", unix.SIOCSIFADDR, func(r *unix.Ifreq) error { return r.SetInet4Addr(a4[:]) }},
		{"netmask", unix.SIOCSIFNETMASK, func(r *unix.Ifreq) error { return r.SetInet4Addr(maskBytes) }},
	}
	for _, st := range steps {
		ifr, err := unix.NewIfreq(name)
		if err != nil {
			return err
		}
		if err := st.set(ifr); err != nil {
			return err
		}
		if err := unix.IoctlIfreq(s, st.req, ifr); err != nil {
			return fmt.Errorf("set %s %s: %w", name, st.what, err)
		}
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(s, unix.SIOCGIFINDEX, ifr); err != nil {
		return fmt.Errorf("get %s index: %w", name, err)
	}
	if err := setTxQueueLen(int(ifr.Uint32()), tunTxQueueLen); err != nil {
		return fmt.Errorf("set %s txqueuelen: %w", name, err)
	}
	return setUp(s, name)
}

// setUp sets IFF_UP on the device name.
func setUp(s int, name string) error {
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(s, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("get %s flags: %w", name, err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(s, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("set %s up: %w", name, err)
	}
	return nil
}
