package peers

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/transport"
)

// Role says whether a peer is a server httpvs's clients talk to or a
// client httpvs's server answers.
type Role int

// The two roles.
const (
	RoleServer Role = iota // a server: Start runs it
	RoleClient             // a client: RunCurl, RunH2load, RunWrk, RunOha (and RunLoad) run it
)

// String returns "server" or "client".
func (r Role) String() string {
	if r == RoleServer {
		return "server"
	}
	return "client"
}

// Peer describes one reference implementation.
type Peer struct {
	// Name is what users type: h2o, nginx, caddy, nghttpd, curl, h2load, wrk, oha.
	Name string
	// Role is server or client.
	Role Role
	// Binary is the executable looked up in PATH.
	Binary string
	// Install is the command that installs Binary on Debian or Ubuntu,
	// e.g. "apt-get install nghttp2-client" or, for a peer with no
	// package built with what it needs, "cargo install oha --features http3".
	Install string
	// Transports are the httpvs transports the peer speaks, as this
	// package configures or runs it.
	Transports []transport.Protocol
	// Sink are the transports over which a server peer's PUT /sink reads
	// the whole request body and replies 2xx; empty for peers that cannot.
	Sink []transport.Protocol
	// Language is what the peer is written in: "C", "Go" (caddy, whose
	// HTTP/2 is net/http's and HTTP/3 quic-go's, as httpvs's own) or
	// "Rust". A Go peer does not tell Go's cost from the protocol's.
	Language string
	// Note says what the peer lacks or does differently, for reports.
	Note string
}

// Speaks reports whether p speaks transport t.
func (p Peer) Speaks(t transport.Protocol) bool { return has(p.Transports, t) }

// Sinks reports whether p's PUT /sink reads whole bodies over t.
func (p Peer) Sinks(t transport.Protocol) bool { return has(p.Sink, t) }

func has(list []transport.Protocol, t transport.Protocol) bool { return slices.Contains(list, t) }

// Path returns the absolute path of the peer's binary, or an error saying
// how to install it.
func (p Peer) Path() (string, error) {
	path, err := exec.LookPath(p.Binary)
	if err != nil {
		return "", fmt.Errorf("peer %s: %s not found (%s): %w", p.Name, p.Binary, p.Install, err)
	}
	return path, nil
}

// Installed reports whether the peer's binary is in PATH.
func (p Peer) Installed() bool {
	_, err := p.Path()
	return err == nil
}

var (
	tcpFour = []transport.Protocol{transport.H1, transport.H2C, transport.H1TLS, transport.H2}
	allFive = []transport.Protocol{transport.H1, transport.H2C, transport.H1TLS, transport.H2, transport.H3}
	h1Only  = []transport.Protocol{transport.H1, transport.H1TLS}
	h2Only  = []transport.Protocol{transport.H2C, transport.H2}
)

// catalog is every peer, servers first, as peerCatalog returns them.
var catalog = []Peer{
	{Name: "h2o", Language: "C", Role: RoleServer, Binary: "h2o", Install: "apt-get install h2o", Transports: tcpFour, Sink: tcpFour,
		Note: "h2o 2.2 has no HTTP/3; /sink is an mruby handler (h2o buffers the whole body before it runs)"},
	{Name: "nginx", Language: "C", Role: RoleServer, Binary: "nginx", Install: "apt-get install nginx", Transports: tcpFour,
		Note: "h2c on a port of its own (nginx before 1.25 speaks only HTTP/2 on a cleartext http2 port); no HTTP/3; " +
			"no /sink: return 204 answers before the body is in (it discards HTTP/1.1 bodies after answering: " +
			"204 after 19.8 of 20 MB over h1-tls on a loaded machine; HTTP/2 ones always)"},
	{Name: "caddy", Language: "Go", Role: RoleServer, Binary: "caddy", Install: "apt-get install caddy", Transports: allFive,
		Note: "no /sink: Caddy's static responses do not read request bodies"},
	{Name: "nghttpd", Language: "C", Role: RoleServer, Binary: "nghttpd", Install: "apt-get install nghttp2-server", Transports: h2Only, Sink: h2Only,
		Note: "HTTP/2 only: one process for h2c (--no-tls) and one for h2; /sink answers 200 once the whole body is in"},
	{Name: "curl", Language: "C", Role: RoleClient, Binary: "curl", Install: "apt-get install curl", Transports: tcpFour,
		Note: "one transfer per run; this build of curl has no HTTP/3"},
	{Name: "h2load", Language: "C", Role: RoleClient, Binary: "h2load", Install: "apt-get install nghttp2-client", Transports: tcpFour,
		Note: "request load; --h1 for HTTP/1.1; h2load 1.52 here is built without HTTP/3"},
	{Name: "wrk", Language: "C", Role: RoleClient, Binary: "wrk", Install: "apt-get install wrk", Transports: h1Only,
		Note: "HTTP/1.1 request load only; no warm-up, so its connections' set-up is in the measured time"},
	{Name: "oha", Language: "Rust", Role: RoleClient, Binary: "oha", Install: "cargo install oha --features http3", Transports: allFive,
		Note: "request load in Rust (hyper; quinn and h3 for HTTP/3); no Debian package, and crates.io's build has HTTP/3 only with --features http3; no warm-up"},
}

// peerCatalog returns every peer httpvs knows, servers first (copies: the
// caller may change them).
func peerCatalog() []Peer {
	out := make([]Peer, len(catalog))
	for i, p := range catalog {
		out[i] = p.clone()
	}
	return out
}

// clone returns p with slices of its own.
func (p Peer) clone() Peer {
	p.Transports = slices.Clone(p.Transports)
	p.Sink = slices.Clone(p.Sink)
	return p
}

// Names returns the known peer names joined by ", ", for messages.
func Names() string {
	names := make([]string, len(catalog))
	for i, p := range catalog {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// Lookup returns the peer named name (case-insensitive).
func Lookup(name string) (Peer, error) {
	for _, p := range catalog {
		if strings.EqualFold(p.Name, strings.TrimSpace(name)) {
			return p.clone(), nil
		}
	}
	return Peer{}, fmt.Errorf("unknown peer %q: want one of %s, or auto", name, Names())
}

// Discover splits the catalog into the peers whose binaries are in PATH
// and those that are not (each Peer's Install says how to install it).
func Discover() (installed, missing []Peer) {
	for _, p := range catalog {
		if p.Installed() {
			installed = append(installed, p.clone())
		} else {
			missing = append(missing, p.clone())
		}
	}
	return installed, missing
}

// ParseList reads a comma-separated list of peer names, or "auto" for
// every installed peer. Names are checked against the catalog, not
// against PATH: a named peer that is not installed fails later, when it
// is started or run, saying how to install it. Duplicates are dropped;
// the result is in catalog order.
func ParseList(s string) ([]Peer, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "auto") {
		installed, _ := Discover()
		return installed, nil
	}
	if s == "" {
		return nil, fmt.Errorf("empty peer list: want names from %s, or auto", Names())
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		p, err := Lookup(part)
		if err != nil {
			return nil, err
		}
		seen[p.Name] = true
	}
	var out []Peer
	for _, p := range catalog {
		if seen[p.Name] {
			out = append(out, p.clone())
		}
	}
	return out, nil
}
