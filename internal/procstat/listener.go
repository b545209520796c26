package procstat

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Socket states in /proc/net/{tcp,udp}[6]'s st column: a TCP socket
// that listens, a UDP socket bound but connected to no peer.
const (
	tcpListen   = 0x0A
	udpUnconned = 0x07
)

// socketInodes returns the inodes of the sockets of network ("tcp" or
// "udp") bound to port on an address a connection to one of addrs
// reaches (one of them, or the wildcard), from /proc/net/<network> and
// <network>6: TCP sockets that listen, UDP sockets connected to no peer.
func socketInodes(network string, port uint16, addrs []netip.Addr) (map[uint64]bool, error) {
	state := uint64(tcpListen)
	if network == "udp" {
		state = udpUnconned
	}
	inodes := map[uint64]bool{}
	for _, file := range []string{"/proc/net/" + network, "/proc/net/" + network + "6"} {
		f, err := os.Open(file)
		if errors.Is(err, os.ErrNotExist) && strings.HasSuffix(file, "6") {
			continue // no IPv6
		}
		if err != nil {
			return nil, err
		}
		err = scanSockets(f, state, port, addrs, inodes)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	return inodes, nil
}

// scanSockets adds to inodes those of r's sockets (a /proc/net/tcp-like
// table) in state bound to port on one of addrs or the wildcard.
func scanSockets(r io.Reader, state uint64, port uint16, addrs []netip.Addr, inodes map[uint64]bool) error {
	sc := bufio.NewScanner(r)
	sc.Scan() // the header
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 {
			return fmt.Errorf("short line %q", sc.Text())
		}
		local, err := parseSocketAddr(f[1])
		if err != nil {
			return err
		}
		st, err := strconv.ParseUint(f[3], 16, 8)
		if err != nil {
			return fmt.Errorf("state %q: %w", f[3], err)
		}
		inode, err := strconv.ParseUint(f[9], 10, 64)
		if err != nil {
			return fmt.Errorf("inode %q: %w", f[9], err)
		}
		if st == state && inode != 0 && local.Port() == port && reaches(local.Addr(), addrs) {
			inodes[inode] = true
		}
	}
	return sc.Err()
}

// reaches says whether a socket bound to local takes connections to one
// of addrs: local is one of them, or the wildcard of their family (an
// IPv6 wildcard takes IPv4's too, unless IPV6_V6ONLY, which /proc does
// not show).
func reaches(local netip.Addr, addrs []netip.Addr) bool {
	local = local.Unmap()
	for _, a := range addrs {
		a = a.Unmap()
		if local == a || local.IsUnspecified() && (local.Is6() || a.Is4()) {
			return true
		}
	}
	return false
}

// parseSocketAddr reads /proc/net's "0100007F:1F90": the address as
// 32-bit words in the kernel's byte order, then the port, in hex.
func parseSocketAddr(s string) (netip.AddrPort, error) {
	ip, p, ok := strings.Cut(s, ":")
	port, err := strconv.ParseUint(p, 16, 16)
	if !ok || err != nil || (len(ip) != 8 && len(ip) != 32) {
		return netip.AddrPort{}, fmt.Errorf("malformed socket address %q", s)
	}
	raw, err := hex.DecodeString(ip)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("malformed socket address %q", s)
	}
	for i := 0; i < len(raw); i += 4 {
		binary.NativeEndian.PutUint32(raw[i:], binary.BigEndian.Uint32(raw[i:]))
	}
	addr, _ := netip.AddrFromSlice(raw) // 4 or 16 bytes
	return netip.AddrPortFrom(addr, uint16(port)), nil
}

// procSupported says why /proc cannot name a socket's process here, or "".
func procSupported() string {
	if runtime.GOOS != "linux" {
		return "/proc names a socket's process on Linux only, not " + runtime.GOOS
	}
	return ""
}
