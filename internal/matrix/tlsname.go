package matrix

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/plan"
)

// tlsRefused says err is the target's refusal of a TLS handshake: a TLS
// alert it sent over TCP ("remote error: tls: internal error"), or a QUIC
// CRYPTO_ERROR it closed the connection with, which carries the alert.
func tlsRefused(err error) bool {
	var (
		te *quic.TransportError
		oe *net.OpError
	)
	switch {
	case errors.As(err, &te):
		return te.Remote && te.ErrorCode.IsCryptoError()
	case errors.As(err, &oe) && oe.Op == "remote error":
		return true
	}
	return strings.Contains(err.Error(), "remote error: tls:")
}

// tlsRefusedReason says why the target t likely refused a TLS handshake
// (err, tlsRefused): no server name sent to an IP address, on which a
// server that keeps a certificate per name (Caddy) picks none; else a
// name its certificates do not hold.
func tlsRefusedReason(t plan.Target, err error) string {
	host := t.TLS
	if u, perr := url.Parse(t.TLS); perr == nil {
		host = u.Hostname()
	}
	var ue *url.Error // Get "https://...": the URL is said already
	if errors.As(err, &ue) {
		err = ue.Err
	}
	name := t.ServerName
	if name == "" {
		name = host
	}
	if net.ParseIP(name) != nil {
		return fmt.Sprintf("the server refused the TLS handshake (%v): likely because %s is an IP address, for which TLS sends no server name (SNI), and the server chose no certificate without one; send the name its certificate is for", err, name)
	}
	return fmt.Sprintf("the server refused the TLS handshake (%v) for the server name %s: likely not a name it has a certificate for; send one it has", err, name)
}
