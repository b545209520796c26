package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"

	"github.com/httpvs/httpvs/stats"
)

// kindError is an error that knows its kind. Classify looks for one in
// err's chain before anything else, so clients built outside this package
// (the lean client) classify their own failures.
type kindError interface {
	error
	Kind() stats.ErrorKind
}

// Classify says which kind of failure err is. It knows the errors of the
// network stack, TLS, net/http's HTTP/2 and quic-go, and any error with a Kind method;
// status and short-body failures are recognised by the caller, which sees
// the response.
func Classify(err error) stats.ErrorKind {
	var (
		kindErr    kindError
		protoErr   *ProtocolError
		unknownCA  x509.UnknownAuthorityError
		hostErr    x509.HostnameError
		invalidErr x509.CertificateInvalidError
		verifyErr  *tls.CertificateVerificationError
		alertErr   tls.AlertError
		recordErr  tls.RecordHeaderError
		idleErr    *quic.IdleTimeoutError
		hsErr      *quic.HandshakeTimeoutError
		streamErr  *quic.StreamError
		appErr     *quic.ApplicationError
		transErr   *quic.TransportError
		h3Err      *http3.Error
		netErr     net.Error
	)
	switch {
	case err == nil:
		return stats.ErrOther
	case errors.As(err, &kindErr):
		return kindErr.Kind()
	case errors.As(err, &protoErr):
		return stats.ErrProtocol
	case (errors.As(err, &alertErr) && alertErr == alertNoApplicationProtocol) ||
		strings.Contains(err.Error(), "tls: no application protocol"):
		// The server speaks none of the ALPN protocols asked for: h2 asked
		// of an HTTP/1.1-only server, for instance. Over TCP the alert
		// arrives as an unexported type; its text is stable.
		return stats.ErrProtocol
	case mismatch(err.Error()):
		return stats.ErrProtocol
	case errors.Is(err, syscall.ECONNREFUSED):
		return stats.ErrRefused
	case errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalidErr),
		errors.As(err, &verifyErr), errors.As(err, &alertErr), errors.As(err, &recordErr):
		return stats.ErrTLS
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &idleErr), errors.As(err, &hsErr):
		return stats.ErrTimeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, net.ErrClosed), errors.As(err, &streamErr), errors.As(err, &appErr),
		errors.As(err, &transErr), errors.As(err, &h3Err):
		return stats.ErrReset
	case errors.Is(err, io.ErrUnexpectedEOF):
		return stats.ErrShort
	case errors.As(err, &netErr) && netErr.Timeout():
		return stats.ErrTimeout
	}
	// net/http's HTTP/2 errors are unexported types; their text is stable.
	msg := err.Error()
	switch {
	case strings.Contains(msg, "stream error"), strings.Contains(msg, "GOAWAY"),
		strings.Contains(msg, "connection lost"), strings.Contains(msg, "server closed"),
		strings.HasSuffix(msg, ": EOF"), strings.Contains(msg, "client connection force closed"):
		return stats.ErrReset
	case strings.Contains(msg, "tls:"), strings.Contains(msg, "x509:"):
		return stats.ErrTLS
	case strings.Contains(msg, "timeout"):
		return stats.ErrTimeout
	}
	return stats.ErrOther
}

// mismatch recognises a server that speaks another protocol than the one
// asked for, by the stable texts of net/http and crypto/tls: TLS asked of
// a cleartext server, HTTP/2 prior knowledge (h2c) of an HTTP/1.1-only
// one (its "HTTP/1.1 400" reads as a huge frame header), HTTP/1.1 of an
// HTTP/2-only one.
func mismatch(msg string) bool {
	for _, s := range []string{
		"server gave HTTP response to HTTPS client",
		"first record does not look like a TLS handshake",
		"http2: frame too large",
		// The connection closed before the server's SETTINGS: it did not
		// speak HTTP/2 (an HTTP/1.1 server answers 400 and closes; which
		// of the two errors the client sees depends on timing).
		"http2: client conn could not be established",
		"malformed HTTP response",
		"malformed HTTP status code",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// alertNoApplicationProtocol is TLS alert 120 (RFC 7301).
const alertNoApplicationProtocol tls.AlertError = 120
