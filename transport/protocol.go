// Package transport is where httpvs composes Go's HTTP stacks (net/http
// for HTTP/1.1 and HTTP/2, quic-go's http3 for HTTP/3) into what a Go user
// would: it names the five transports (h1, h2c, h1-tls, h2, h3), builds
// clients and servers for them with the tuning knobs of package config, counts
// their connection I/O (with package wire), makes certificates, and tells
// which transport a request or response actually used.
//
// It is not the only package that knows the protocols: lean speaks them
// itself, as httpvs's own client; wire reads HTTP/2 frames and QUIC
// statistics passively; matrix asks quic-go's http3 for 0-RTT cold
// starts; server and bookstore speak gRPC. Packages that only carry or
// render results (results, load/loadresult, transfer/transferresult,
// report) name the transports by string, spelled by internal/protoname,
// and import none of these.
package transport

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/internal/protoname"
)

// Protocol is one of the five transports httpvs measures.
type Protocol int

// The transports, in the order reports list them.
const (
	H1    Protocol = iota // HTTP/1.1 over TCP
	H2C                   // HTTP/2 over TCP with prior knowledge (cleartext)
	H1TLS                 // HTTP/1.1 over TLS (ALPN http/1.1)
	H2                    // HTTP/2 over TLS (ALPN h2)
	H3                    // HTTP/3 over QUIC (quic-go)
	numProtocols
)

// count is the number of transports; Protocol values run from 0 to
// count-1 (All lists them).
const count = int(numProtocols)

// All lists every transport in report order.
var All = []Protocol{H1, H2C, H1TLS, H2, H3}

var protocolNames = [numProtocols]string{protoname.H1, protoname.H2C, protoname.H1TLS, protoname.H2, protoname.H3}

// String returns the name users type: h1, h2c, h1-tls, h2 or h3.
func (p Protocol) String() string {
	if p < 0 || p >= numProtocols {
		return fmt.Sprintf("Protocol(%d)", int(p))
	}
	return protocolNames[p]
}

// Names returns the valid transport names joined by ", ", for messages.
func names() string { return strings.Join(protocolNames[:], ", ") }

// Parse returns the transport named s (case-insensitive).
func Parse(s string) (Protocol, error) {
	for i, n := range protocolNames {
		if strings.EqualFold(s, n) {
			return Protocol(i), nil
		}
	}
	return 0, fmt.Errorf("unknown transport %q: want one of %s", s, names())
}

// ParseList reads a comma-separated list of transport names, or "all".
func ParseList(s string) ([]Protocol, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return append([]Protocol(nil), All...), nil
	}
	var out []Protocol
	seen := map[Protocol]bool{}
	for _, part := range strings.Split(s, ",") {
		p, err := Parse(strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// TLS reports whether p runs over TLS (h1-tls, h2, h3).
func (p Protocol) TLS() bool { return p == H1TLS || p == H2 || p == H3 }

// Scheme returns the URL scheme p is used with: "http" or "https".
func (p Protocol) Scheme() string {
	if p.TLS() {
		return "https"
	}
	return "http"
}

// Version returns the HTTP major version p speaks: 1, 2 or 3.
func (p Protocol) Version() int {
	switch p {
	case H2C, H2:
		return 2
	case H3:
		return 3
	default:
		return 1
	}
}

// defaultFor returns the transport used for a URL scheme when none is
// named: h1 for http, h2 for https.
func defaultFor(scheme string) (Protocol, error) {
	switch strings.ToLower(scheme) {
	case "http":
		return H1, nil
	case "https":
		return H2, nil
	}
	return 0, fmt.Errorf("unsupported URL scheme %q: want http:// or https://", scheme)
}

// CheckScheme returns an error when p cannot be used with a URL of this
// scheme, saying which transports can.
func (p Protocol) CheckScheme(scheme string) error {
	scheme = strings.ToLower(scheme)
	if scheme == p.Scheme() {
		return nil
	}
	return &SchemeError{Protocol: p, Scheme: scheme}
}

// ParseURL parses raw as an absolute URL and checks that p can be used
// with its scheme.
func (p Protocol) ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("bad URL %q: want http://host:port/path or https://host:port/path", raw)
	}
	if err := p.CheckScheme(u.Scheme); err != nil {
		return nil, err
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("bad URL %q: port %s is out of range 1-65535", raw, port)
		}
	}
	return u, nil
}

// OfRequest returns the transport a server-side request arrived on.
func OfRequest(r *http.Request) Protocol {
	return of(r.ProtoMajor, r.TLS != nil)
}

// OfResponse returns the transport a client-side response arrived on.
func OfResponse(resp *http.Response) Protocol {
	return of(resp.ProtoMajor, resp.TLS != nil)
}

func of(major int, tls bool) Protocol {
	switch {
	case major == 3:
		return H3
	case major == 2 && tls:
		return H2
	case major == 2:
		return H2C
	case tls:
		return H1TLS
	default:
		return H1
	}
}

// Switches is the gonuget benchmark's way of choosing a client's transport: HTTP/2 and
// HTTP/3 switched on or off, as in a TransportConfig with EnableHTTP2 and
// EnableHTTP3. Protocol turns them into one of the five transports, for
// ClientOptions.Protocol.
type Switches struct {
	// EnableHTTP2 selects HTTP/2: h2 (ALPN) for https, h2c (prior
	// knowledge) for http.
	EnableHTTP2 bool
	// EnableHTTP3 selects HTTP/3 over QUIC, for https only; it wins over
	// EnableHTTP2.
	EnableHTTP3 bool
}

// Protocol returns the transport s selects for a URL scheme ("http" or
// "https"): h3, then h2 or h2c, else h1-tls or h1.
func (s Switches) Protocol(scheme string) (Protocol, error) {
	p, err := defaultFor(scheme)
	if err != nil {
		return 0, err
	}
	switch {
	case s.EnableHTTP3 && p.TLS():
		return H3, nil
	case s.EnableHTTP3:
		return 0, fmt.Errorf("HTTP/3 needs an https URL: QUIC always uses TLS")
	case s.EnableHTTP2 && p.TLS():
		return H2, nil
	case s.EnableHTTP2:
		return H2C, nil
	case p.TLS():
		return H1TLS, nil
	}
	return H1, nil
}
