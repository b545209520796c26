package reference

import (
	"fmt"
	"os"
	"slices"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// endpoint is where a reference client sends its requests: the run's own
// Go server or a server peer.
type endpoint interface {
	name() string
	// lacks says why sc cannot run over p here; "" if it can.
	lacks(p transport.Protocol, sc play) string
	payload(p transport.Protocol, size units.Bytes) string
	sink(p transport.Protocol) string
	small(p transport.Protocol) string
	// cpu is the server's CPU seconds so far (user+system).
	cpu() (float64, error)
}

// goServer is the run's own httpvs serve, whose CPU the matrix measures
// already; here it is unknown.
type goServer struct{ t Target }

func (g goServer) name() string { return vocab.ReferenceGo }

func (g goServer) base(p transport.Protocol) string {
	if p.TLS() {
		return g.t.TLS
	}
	return g.t.Plain
}

func (g goServer) lacks(p transport.Protocol, _ play) string {
	if g.base(p) == "" {
		return "no base URL for " + p.String()
	}
	return ""
}

func (g goServer) payload(p transport.Protocol, size units.Bytes) string {
	return g.base(p) + peers.PayloadPath(size)
}
func (g goServer) sink(p transport.Protocol) string  { return g.base(p) + peers.SinkPath }
func (g goServer) small(p transport.Protocol) string { return g.base(p) + peers.SmallPath }
func (g goServer) cpu() (float64, error)             { return 0, fmt.Errorf("counted by the matrix") }

// peerServer is a running server peer.
type peerServer struct{ s *peers.Server }

func (ps peerServer) name() string { return ps.s.Peer.Name }

func (ps peerServer) lacks(p transport.Protocol, sc play) string {
	switch {
	case !ps.s.Peer.Speaks(p):
		return ps.s.Peer.Name + " does not speak " + p.String() + " as configured"
	case sc.upload && !ps.s.Peer.Sinks(p):
		return ps.s.Peer.Name + " does not read whole upload bodies over " + p.String()
	}
	return ""
}

func (ps peerServer) payload(p transport.Protocol, size units.Bytes) string {
	return ps.s.PayloadURL(p, size)
}
func (ps peerServer) sink(p transport.Protocol) string  { return ps.s.SinkURL(p) }
func (ps peerServer) small(p transport.Protocol) string { return ps.s.SmallURL(p) }
func (ps peerServer) cpu() (float64, error) {
	t, err := ps.s.CPU()
	return t.Total(), err
}

func has[T comparable](list []T, x T) bool { return slices.Contains(list, x) }

// sparseFile makes a temporary file of size zero bytes to upload; reading
// it costs no disk.
func sparseFile(size units.Bytes) (string, error) {
	f, err := os.CreateTemp("", "httpvs-upload-*")
	if err != nil {
		return "", fmt.Errorf("reference upload body: %w", err)
	}
	defer f.Close()
	if err := f.Truncate(int64(size)); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("reference upload body: %w", err)
	}
	return f.Name(), nil
}
