package report

import (
	"slices"
	"testing"

	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// serverWire matches transports by name so that report links no protocol
// stack: every transport must pick the listener package transport says
// it uses (QUIC for h3, TLS when p.TLS(), cleartext TCP otherwise).
func TestServerWireKnowsEveryTransport(t *testing.T) {
	s := &stats.ServerStats{
		TCP:  stats.IOStats{Reads: 1, ReadBytes: 1},
		TLS:  stats.IOStats{Reads: 2, ReadBytes: 2},
		QUIC: stats.QUICStats{PacketsReceived: 3, BytesReceived: 3},
	}
	for _, p := range transport.All {
		t.Run(p.String(), func(t *testing.T) {
			want := wireIO(s.TCP, stats.QUICStats{})
			switch {
			case p == transport.H3:
				want = wireIO(stats.IOStats{}, s.QUIC)
			case p.TLS():
				want = wireIO(s.TLS, stats.QUICStats{})
			}
			if got := serverWire(s, p.String()); !slices.Equal(got, want) {
				t.Fatalf("serverWire(%s) = %q, want %q", p, got, want)
			}
		})
	}
	if got := serverWire(s, "h4"); got != nil {
		t.Fatalf("serverWire(h4) = %q, want nothing", got)
	}
}
