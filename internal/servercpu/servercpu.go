// Package servercpu reads a target's server CPU from /proc when the
// target serves no counters but listens on this machine's loopback: the
// processes holding the socket a client's connections reach, found on
// their first read and kept. The matrix reads it per repetition, the
// capacity search per rate tried.
package servercpu

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/procstat"
)

// Reader reads the CPU of the processes holding sockets on this
// machine's loopback, and says where each reader's figures came from
// (Summary). Its methods are safe for concurrent use; the zero value is
// ready.
type Reader struct {
	mu    sync.Mutex
	found map[string]*owner // by network and port: "tcp 9180"
	used  []use             // each label that read, in order
}

// owner is the processes holding one socket, or why they are unknown.
type owner struct {
	l   *procstat.Listener
	why string
}

// use is the owner a label's figures were read from.
type use struct {
	label string
	o     *owner
}

// Socket is where a client's connections to base (a URL) go: "udp" when
// udp (h3), "tcp" else, and the URL's host and port, the scheme's port
// when it names none.
func Socket(base string, udp bool) (network, hostport string, err error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	network = "tcp"
	if udp {
		network = "udp"
	}
	return network, dial.HostPort(u), nil
}

// Read returns the CPU seconds, user and system, of the processes
// holding network's socket at hostport, noting label (a column or a
// transport) as one that read them. Its error says in a line why they
// are unknown: a host off the loopback, no socket there, a process
// hidden from this user, one that exited.
func (r *Reader) Read(label, network, hostport string) (user, sys float64, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := r.owner(network, hostport)
	r.note(label, o)
	if o.l == nil {
		return 0, 0, fmt.Errorf("%s", o.why)
	}
	return o.l.CPU()
}

// owner is the processes holding network's socket at hostport, found
// on its first read; r.mu is held.
func (r *Reader) owner(network, hostport string) *owner {
	host, port, err := splitPort(hostport)
	if err != nil {
		return &owner{why: err.Error()} // not kept: no socket to key it by
	}
	key := fmt.Sprintf("%s %d", network, port)
	if o := r.found[key]; o != nil {
		return o
	}
	o := &owner{}
	if !dial.LoopbackHost(host) {
		o.why = fmt.Sprintf("the target %s is not on this machine's loopback, the only processes /proc names", host)
	} else if o.l, err = procstat.FindListener(network, port, loopbackAddrs(host)); err != nil {
		o.why = err.Error()
	}
	if r.found == nil {
		r.found = map[string]*owner{}
	}
	r.found[key] = o
	return o
}

// note records that label read o, once per label; r.mu is held.
func (r *Reader) note(label string, o *owner) {
	for _, u := range r.used {
		if u.label == label {
			return
		}
	}
	r.used = append(r.used, use{label: label, o: o})
}

func splitPort(hostport string) (string, uint16, error) {
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", 0, fmt.Errorf("the target's address %q: %w", hostport, err)
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil {
		return "", 0, fmt.Errorf("the target's port %q: %w", p, err)
	}
	return host, uint16(n), nil
}

// loopbackAddrs are the addresses a loopback host name stands for.
func loopbackAddrs(host string) []netip.Addr {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}
	}
	return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")} // localhost
}

// Summary says where the server's CPU came from for the labels that
// read it, or why it is unknown: one clause per process (or reason),
// naming the labels when there is more than one; "" when none read.
func (r *Reader) Summary() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var order []string
	labels := map[string][]string{}
	for _, u := range r.used {
		text := "unknown: " + u.o.why
		if u.o.l != nil {
			text = "read from /proc for " + u.o.l.String()
		}
		if labels[text] == nil {
			order = append(order, text)
		}
		labels[text] = append(labels[text], u.label)
	}
	if len(order) == 1 {
		return "server CPU " + order[0]
	}
	parts := make([]string, len(order))
	for i, text := range order {
		head, why, _ := strings.Cut(text, ": ")
		over := " over " + strings.Join(labels[text], ", ")
		if strings.HasPrefix(text, "unknown: ") {
			parts[i] = head + over + ": " + why
		} else {
			parts[i] = text + over
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "server CPU " + strings.Join(parts, "; ")
}
