package lean

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/transport"
)

// Error is a failure the lean client detected itself, with its kind; it
// has a Kind method, which transport.Classify reads, so it needs to know
// nothing of the lean packages.
type Error = target.Error

// Errors of the lean client; they are wrapped with their context, so test
// for them with errors.Is.
var (
	// ErrStreamReset is returned when the server resets an HTTP/2 stream.
	ErrStreamReset = target.ErrStreamReset
	// ErrClosed is returned when the server closes a connection before a
	// response ended.
	ErrClosed = target.ErrClosed
	// ErrGoAway fails the streams a server's GOAWAY left unprocessed.
	ErrGoAway = target.ErrGoAway
	// ErrMalformed is an HTTP/1.1 response the client cannot parse: often
	// a server that speaks another protocol on that port.
	ErrMalformed = target.ErrMalformed
	// ErrShortBody is a response whose body ended before its Content-Length
	// (or ran past it).
	ErrShortBody = target.ErrShortBody
)

// Supports says whether the lean client speaks p: h1, h1-tls, h2c, h2 and
// h3 (over quic-go's QUIC).
func Supports(p transport.Protocol) bool {
	return p == transport.H1 || p == transport.H1TLS || p == transport.H2C || p == transport.H2 || p == transport.H3
}

// UnsupportedError is returned for a transport the lean client does not speak.
type UnsupportedError struct {
	Protocol transport.Protocol // the transport asked for
}

// Error names the transports the lean client speaks.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("the lean client speaks h1, h1-tls, h2c, h2 and h3, not %s", e.Protocol)
}
