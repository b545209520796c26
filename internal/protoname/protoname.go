// Package protoname spells the five transports' names (h1, h2c, h1-tls,
// h2, h3) once, as untyped string constants. transport.Protocol's String
// returns them; packages that carry a transport as a string (results'
// schema, report, diagnosis) compare against them, since they may not
// import transport and its protocol stacks.
package protoname

import "fmt"

// Count is the number of transports (len(transport.All)), for arrays
// indexed by transport.Protocol.
const Count = 5

// The names users type, in the order reports list the transports.
const (
	H1    = "h1"     // HTTP/1.1 over TCP
	H2C   = "h2c"    // HTTP/2 over TCP with prior knowledge (cleartext)
	H1TLS = "h1-tls" // HTTP/1.1 over TLS (ALPN http/1.1)
	H2    = "h2"     // HTTP/2 over TLS (ALPN h2)
	H3    = "h3"     // HTTP/3 over QUIC
)

// TLS reports whether the transport named p runs over TLS (h1-tls, h2, h3).
func TLS(p string) bool { return p == H1TLS || p == H2 || p == H3 }

// HTTP1 reports whether the transport named p speaks HTTP/1.1 (h1, h1-tls).
func HTTP1(p string) bool { return p == H1 || p == H1TLS }

// HTTP2 reports whether the transport named p speaks HTTP/2 (h2c, h2).
func HTTP2(p string) bool { return p == H2C || p == H2 }

// Names returns each of ps by its name (its String), in order: the names
// of a []transport.Protocol.
func Names[P fmt.Stringer](ps []P) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.String()
	}
	return names
}
