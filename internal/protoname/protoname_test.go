package protoname_test

import (
	"testing"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/transport"
)

// TestAgreesWithTransport holds the names and their classes to
// transport.Protocol's, which the names are the String of.
func TestAgreesWithTransport(t *testing.T) {
	want := map[transport.Protocol]string{
		transport.H1: protoname.H1, transport.H2C: protoname.H2C, transport.H1TLS: protoname.H1TLS,
		transport.H2: protoname.H2, transport.H3: protoname.H3,
	}
	if len(want) != len(transport.All) || protoname.Count != len(transport.All) {
		t.Fatalf("%d names and Count %d for %d transports", len(want), protoname.Count, len(transport.All))
	}
	for _, p := range transport.All {
		name := p.String()
		if name != want[p] {
			t.Errorf("%v.String() = %q, want %q", int(p), name, want[p])
		}
		if got := protoname.TLS(name); got != p.TLS() {
			t.Errorf("TLS(%q) = %v, want %v", name, got, p.TLS())
		}
		if got := protoname.HTTP1(name); got != (p.Version() == 1) {
			t.Errorf("HTTP1(%q) = %v, want %v", name, got, p.Version() == 1)
		}
		if got := protoname.HTTP2(name); got != (p.Version() == 2) {
			t.Errorf("HTTP2(%q) = %v, want %v", name, got, p.Version() == 2)
		}
	}
	for _, bad := range []string{"", "H1", "h4", "http/1.1"} {
		if protoname.TLS(bad) || protoname.HTTP1(bad) || protoname.HTTP2(bad) {
			t.Errorf("%q is classed as a transport", bad)
		}
	}
}
