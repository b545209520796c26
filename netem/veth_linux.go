package netem

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The veth ends' Ethernet addresses (locally administered): each side
// knows the other's as a permanent neighbour, so no ARP crosses the
// emulated link (netem would delay or drop it like any packet).
const (
	clientMAC = "02:68:76:00:00:01"
	serverMAC = "02:68:76:00:00:02"
)

// qdiscKind makes the root qdisc of a veth end for its direction: the
// kind and its arguments. netemQdisc in use; tests of the veth plumbing
// on kernels without sch_netem give a pfifo.
type qdiscKind func(Direction) []string

func netemQdisc(d Direction) []string { return append([]string{"netem"}, netemArgs(d)...) }

// newNetemLink makes the two namespaces joined by a veth pair, hvc0 in the
// client's and hvs0 in the server's, with a netem qdisc on each end: on
// hvc0 for the up direction, on hvs0 for down.
func newNetemLink(spec Spec, qdisc qdiscKind) (*Link, error) {
	if err := needIPRoute2(); err != nil {
		return nil, err
	}
	l := &Link{spec: spec, backend: BackendNetem, done: make(chan struct{})}
	var err error
	if l.server, err = newNamespace(setupNamespace); err != nil {
		return nil, err
	}
	l.client, err = newNamespace(func() error {
		if err := setupNamespace(); err != nil {
			return err
		}
		if err := addVeth(l.server); err != nil {
			return err
		}
		return setupEnd("hvc0", clientAddr, ServerAddr, serverMAC)
	})
	if err != nil {
		l.server.close()
		return nil, err
	}
	// The qdiscs go on once both ends are up: the carrier is then on,
	// so tc activates each before it returns. Added before, a qdisc waits
	// for the kernel's link watcher, and a packet sent meanwhile is
	// dropped where no qdisc counts it (a lost first SYN costs 1 s).
	err = l.server.Run(func() error {
		if err := setupEnd("hvs0", ServerAddr, clientAddr, clientMAC); err != nil {
			return err
		}
		return addQdisc("hvs0", qdisc(spec.Down))
	})
	if err == nil {
		err = l.client.Run(func() error { return addQdisc("hvc0", qdisc(spec.Up)) })
	}
	if err != nil {
		l.client.close()
		l.server.close()
		return nil, err
	}
	l.qdiscs = &qdiscs{client: l.client, server: l.server}
	return l, nil
}

// setupNamespace runs on a fresh namespace's worker thread: it brings up
// lo and turns IPv6 off (no router or neighbour solicitations on the link).
func setupNamespace() error {
	// Best effort: a kernel without IPv6 has no such files.
	_ = sysctl("net/ipv6/conf/all/disable_ipv6", "1")
	_ = sysctl("net/ipv6/conf/default/disable_ipv6", "1")
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(s)
	return setUp(s, "lo")
}

// addVeth runs in the client's namespace: it makes the veth pair, hvs0 in
// server's namespace (named to ip by a descriptor passed as fd 3).
func addVeth(server *Namespace) error {
	fd, err := unix.Dup(server.fd)
	if err != nil {
		return fmt.Errorf("dup namespace descriptor: %w", err)
	}
	nsFile := os.NewFile(uintptr(fd), "netns")
	defer nsFile.Close()
	err = command([]*os.File{nsFile}, "ip", "link", "add", "hvc0", "address", clientMAC, "type", "veth",
		"peer", "name", "hvs0", "address", serverMAC, "netns", "/proc/self/fd/3")
	if err != nil {
		return &SetupError{Need: "veth devices (CONFIG_VETH)", Err: err}
	}
	return nil
}

// setupEnd configures the veth end name in the calling thread's namespace:
// MTU, no segmentation offloads, its address, the peer as a permanent
// neighbour, and up.
//
// Offloads: a veth takes TCP segments of up to 64 KiB (TSO/GSO) and
// passes them whole, so a qdisc would see one "packet" where the wire
// carries 44, and netem would lose, queue and count them together.
// gso_max_segs 1 makes TCP build one MTU-sized segment per packet
// (gso_max_size alone would still allow one MTU of payload plus headers);
// where iproute2 or the kernel cannot set them (before 5.19), ethtool
// turns TSO and GSO off. UDP is not covered: a sender using UDP GSO
// (quic-go does, unless QUIC_GO_DISABLE_GSO=true) hands the qdisc up to 64
// datagrams as one.
func setupEnd(name string, addr, peer netip.Addr, peerMAC string) error {
	steps := [][]string{
		{"ip", "link", "set", "dev", name, "mtu", strconv.Itoa(mtu)},
		{"ip", "addr", "add", netip.PrefixFrom(addr, prefixLen).String(), "dev", name},
		{"ip", "neigh", "replace", peer.String(), "lladdr", peerMAC, "dev", name, "nud", "permanent"},
		{"ip", "link", "set", "dev", name, "up"},
	}
	for i, st := range steps {
		if i == 1 {
			if err := noOffloads(name); err != nil {
				return err
			}
		}
		if err := command(nil, st[0], st[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// addQdisc puts qdisc at the root of name, in the calling thread's
// namespace.
func addQdisc(name string, qdisc []string) error {
	err := command(nil, "tc", append([]string{"qdisc", "add", "dev", name, "root"}, qdisc...)...)
	if err != nil && strings.Contains(err.Error(), "qdisc kind is unknown") {
		return &SetupError{Need: "the kernel's netem qdisc (sch_netem: modprobe sch_netem)", Err: err}
	}
	return err
}

// noOffloads turns segmentation offloads off on name (see setupEnd).
func noOffloads(name string) error {
	err := command(nil, "ip", "link", "set", "dev", name, "gso_max_segs", "1", "gso_max_size", strconv.Itoa(mtu))
	if err == nil {
		return nil
	}
	if err2 := command(nil, "ethtool", "-K", name, "tso", "off", "gso", "off"); err2 != nil {
		return &SetupError{Need: "Linux 5.19 or later (gso_max_segs), or ethtool, to turn segmentation offloads off", Err: errors.Join(err, err2)}
	}
	return nil
}

// needIPRoute2 checks that ip and tc can be run.
func needIPRoute2() error {
	for _, tool := range []string{"ip", "tc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return &SetupError{Need: "ip and tc from iproute2", Err: err}
		}
	}
	return nil
}

// command runs name with args from the calling thread, so in its network
// namespace (the caller holds its thread locked), with extra as
// descriptors 3 and on. Its error holds the first line the tool printed.
func command(extra []*os.File, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.ExtraFiles = extra
	// The thread that starts it lives until it has been waited for.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		line, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
		return fmt.Errorf("%s %s: %s (%w)", name, strings.Join(args, " "), line, err)
	}
	return nil
}

// probeNetem is netemSupport's probe, run once per process.
var probeNetem = sync.OnceValue(func() error {
	if err := needIPRoute2(); err != nil {
		return err
	}
	n, err := newNamespace(func() error {
		if err := command(nil, "ip", "link", "add", "hvp0", "type", "veth", "peer", "name", "hvp1"); err != nil {
			return &SetupError{Need: "veth devices (CONFIG_VETH)", Err: err}
		}
		if err := command(nil, "tc", "qdisc", "add", "dev", "hvp0", "root", "netem", "delay", "1ms"); err != nil {
			return &SetupError{Need: "the kernel's netem qdisc (sch_netem: modprobe sch_netem)", Err: err}
		}
		return nil
	})
	if err != nil {
		return err
	}
	n.close() // the kernel deletes the pair with the namespace
	return nil
})

// netemSupport returns nil when this system can make a BackendNetem link,
// else a *SetupError naming what is missing (root, ip and tc, veth, the
// netem qdisc): what NewLink returns for BackendNetem. It tries once per
// process, on a veth pair in a namespace of its own that it then
// releases, and remembers the answer.
func netemSupport() error { return probeNetem() }

// qdiscs reads a netem link's counters from its two root qdiscs.
type qdiscs struct {
	client, server *Namespace
	mu             sync.Mutex
	base           [2]DirStats // at the last reset
}

// tcStats is what `tc -s -j qdisc show` says of one qdisc.
type tcStats struct {
	Root    bool  `json:"root"`
	Bytes   int64 `json:"bytes"`
	Packets int64 `json:"packets"`
	Drops   int64 `json:"drops"`
	Qlen    int64 `json:"qlen"`
	Backlog int64 `json:"backlog"`
}

// read returns the counters since the link was made, each direction as
// DirStats: Packets entered (sent, dropped or still held), Bytes sent and
// held, Lost the qdisc's drops, Delivered sent.
func (q *qdiscs) read() (up, down DirStats, err error) {
	one := func(n *Namespace, dev string) (d DirStats, err error) {
		var out bytes.Buffer
		err = n.Run(func() error {
			cmd := exec.Command("tc", "-s", "-j", "qdisc", "show", "dev", dev)
			cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
			cmd.Stdout = &out
			return cmd.Run()
		})
		if err != nil {
			return d, fmt.Errorf("tc -s qdisc show dev %s: %w", dev, err)
		}
		var all []tcStats
		if err := json.Unmarshal(out.Bytes(), &all); err != nil {
			return d, fmt.Errorf("tc -s qdisc show dev %s: %w", dev, err)
		}
		for _, s := range all {
			if s.Root {
				return DirStats{Packets: s.Packets + s.Drops + s.Qlen, Bytes: s.Bytes + s.Backlog, Lost: s.Drops, Delivered: s.Packets}, nil
			}
		}
		return d, fmt.Errorf("tc -s qdisc show dev %s: no root qdisc", dev)
	}
	if up, err = one(q.client, "hvc0"); err != nil {
		return
	}
	down, err = one(q.server, "hvs0")
	return
}

// stats returns the counters since the last reset, and starts them again
// when reset is true. When tc cannot be read it returns zeros.
func (q *qdiscs) stats(reset bool) (up, down DirStats) {
	q.mu.Lock()
	defer q.mu.Unlock()
	u, d, err := q.read()
	if err != nil {
		return DirStats{}, DirStats{}
	}
	up, down = u.sub(q.base[0]), d.sub(q.base[1])
	if reset {
		q.base = [2]DirStats{u, d}
	}
	return up, down
}

// sub returns s less the counts of base (from the same qdisc, earlier).
func (s DirStats) sub(base DirStats) DirStats {
	s.Packets -= base.Packets
	s.Bytes -= base.Bytes
	s.Lost -= base.Lost
	s.Delivered -= base.Delivered
	return s
}
