//go:build !linux

package netem

import (
	"context"
	"net"
	"net/netip"
	"os/exec"
)

// ClientAddr and ServerAddr are the two ends' addresses (see the Linux
// build); no link can be made on this system.
var (
	// ClientAddr is the address of the client namespace's TUN device.
	ClientAddr = netip.MustParseAddr("198.18.0.1")
	// ServerAddr is the address of the server namespace's TUN device.
	ServerAddr = netip.MustParseAddr("198.18.0.2")
)

// Namespace is a network namespace; there are none on this system.
type Namespace struct{}

// Run returns a *SetupError: there are no namespaces on this system.
func (n *Namespace) Run(func() error) error { return unsupported() }

// Start returns a *SetupError: there are no namespaces on this system.
func (n *Namespace) Start(*exec.Cmd) error { return unsupported() }

// DialContext returns a *SetupError: there are no namespaces on this system.
func (n *Namespace) DialContext(context.Context, string, string) (net.Conn, error) {
	return nil, unsupported()
}

// Listen returns a *SetupError: there are no namespaces on this system.
func (n *Namespace) Listen(string, string) (net.Listener, error) { return nil, unsupported() }

// ListenPacket returns a *SetupError: there are no namespaces on this system.
func (n *Namespace) ListenPacket(string, string) (net.PacketConn, error) {
	return nil, unsupported()
}

// Link is an emulated link; none can be made on this system.
type Link struct{ spec Spec }

// NewLink returns a *SetupError wrapping ErrUnsupported.
func NewLink(Spec) (*Link, error) { return nil, unsupported() }

// Spec returns the spec the link applies.
func (l *Link) Spec() Spec { return l.spec }

// Backend returns "".
func (l *Link) Backend() Backend { return "" }

// Client returns nil.
func (l *Link) Client() *Namespace { return nil }

// Server returns nil.
func (l *Link) Server() *Namespace { return nil }

// ResetStats returns zero counters.
func (l *Link) ResetStats() (up, down DirStats) { return }

// Close does nothing.
func (l *Link) Close() error { return nil }

func unsupported() error { return &SetupError{Need: "Linux", Err: ErrUnsupported} }

// CongestionControl is "": no link can be made on this system.
func (l *Link) CongestionControl() string { return "" }
