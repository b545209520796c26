package experiment

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"
)

// ServerNameNote tells Options.Warn that the TLS target's host is an IP
// address, for which TLS sends no server name (SNI), and that the run
// sends Name, its certificate's, over h1-tls, h2 and h3: a server that
// keeps a certificate per name (Caddy) refuses QUIC handshakes without
// one.
type ServerNameNote struct {
	URL  string // the TLS target, https://IP:port
	Name string // the certificate's first DNS name
}

func (n *ServerNameNote) Error() string {
	return fmt.Sprintf("%s is an IP address, for which TLS sends no server name (SNI): sending its certificate's name, %s (Target.ServerName to send another)", n.URL, n.Name)
}

// ServerNameError is a TLS target at an IP address that refused a TLS
// handshake sent without a server name: it likely needs one
// (Target.ServerName), the name of one of its certificates.
type ServerNameError struct {
	URL string // the TLS target, https://IP:port
	Err error  // the handshake's error: the server's TLS alert
}

func (e *ServerNameError) Error() string {
	return fmt.Sprintf("the target %s refused the TLS handshake (%v): likely because an IP address gets no server name (SNI) and the server chose no certificate without one; give the name its certificate is for (Target.ServerName)", e.URL, e.Err)
}

func (e *ServerNameError) Unwrap() error { return e.Err }

// learnServerName returns the name to send to the TLS server at the IP
// address ip, which dial connects to: the first DNS name (not a
// wildcard) of the certificate it presents to a handshake without one,
// or, when it refuses that and ip is a loopback address, localhost if it
// presents a certificate for localhost when asked; "" when the
// certificate holds ip itself or no name, or the handshake failed
// otherwise than by the server's alert (the target check says why); the
// server's alert when it refuses both. Nothing is trusted from it but a
// name to send: the clients verify the certificate as told.
func learnServerName(ctx context.Context, dial func() (net.Conn, error), ip string) (string, error) {
	leaf, err := presented(ctx, dial, "")
	if err != nil && net.ParseIP(ip).IsLoopback() {
		if named, nerr := presented(ctx, dial, "localhost"); nerr == nil && named != nil && slices.Contains(named.DNSNames, "localhost") {
			return "localhost", nil
		}
	}
	if err != nil || leaf == nil {
		return "", err
	}
	if slices.ContainsFunc(leaf.IPAddresses, func(a net.IP) bool { return a.Equal(net.ParseIP(ip)) }) {
		return "", nil
	}
	for _, name := range leaf.DNSNames {
		if !strings.HasPrefix(name, "*") {
			return name, nil
		}
	}
	return "", nil
}

// presented is the certificate the server dial connects to presents to
// a TLS handshake sending name (none when ""), unverified; nil when the
// handshake failed otherwise than by the server's alert, which is the
// error.
func presented(ctx context.Context, dial func() (net.Conn, error), name string) (*x509.Certificate, error) {
	conn, err := dial()
	if err != nil {
		return nil, nil
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	tc := tls.Client(conn, &tls.Config{ServerName: name, InsecureSkipVerify: true, NextProtos: []string{"h2", "http/1.1"}, MinVersion: tls.VersionTLS12})
	if err := tc.HandshakeContext(ctx); err != nil {
		var oe *net.OpError
		if errors.As(err, &oe) && oe.Op == "remote error" {
			return nil, err
		}
		return nil, nil
	}
	if certs := tc.ConnectionState().PeerCertificates; len(certs) > 0 {
		return certs[0], nil
	}
	return nil, nil
}
