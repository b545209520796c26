package cli

import (
	"net"
	"net/url"
	"strings"

	"github.com/httpvs/httpvs/transport"
)

// refusedTLS says firstError is the server's refusal of a TLS handshake:
// a TLS alert over TCP, or a QUIC CRYPTO_ERROR it closed with.
func refusedTLS(firstError string) bool {
	return strings.Contains(firstError, "remote error: tls:") ||
		(strings.Contains(firstError, "CRYPTO_ERROR") && strings.Contains(firstError, "(remote)"))
}

// sniHint is what get, put and load say of a TLS handshake the server
// refused (firstError) for rawURL over opts: its likely cause, with
// --sni; "" when it does not apply.
func sniHint(firstError, rawURL string, opts transport.ClientOptions) string {
	u, err := url.Parse(rawURL)
	if err != nil || !opts.Protocol.TLS() || !refusedTLS(firstError) {
		return ""
	}
	if opts.ServerName == "" && net.ParseIP(u.Hostname()) != nil {
		return "the server refused the TLS handshake: likely because " + u.Hostname() + " is an IP address, for which TLS sends no server name (SNI), and the server chose no certificate without one; give the name its certificate is for: --sni NAME, e.g. --sni localhost"
	}
	name := opts.ServerName
	if name == "" {
		name = u.Hostname()
	}
	return "the server refused the TLS handshake for the server name " + name + ": likely not a name it has a certificate for; give one it has: --sni NAME"
}
