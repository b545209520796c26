package target

import (
	"errors"
	"fmt"
	"io"

	"github.com/httpvs/httpvs/stats"
)

// Error is a failure the lean client detected itself, with its kind; it
// has a Kind method, which transport.Classify reads, so it needs to know
// nothing of the lean packages.
type Error struct {
	kind stats.ErrorKind
	msg  string
}

// NewError returns an Error of kind with message msg.
func NewError(kind stats.ErrorKind, msg string) *Error { return &Error{kind, msg} }

// Error returns e's message.
func (e *Error) Error() string { return e.msg }

// Kind says which kind of failure e is.
func (e *Error) Kind() stats.ErrorKind { return e.kind }

var _ interface{ Kind() stats.ErrorKind } = (*Error)(nil)

// Errors of the lean client; they are wrapped with their context, so test
// for them with errors.Is.
var (
	// ErrStreamReset is returned when the server resets an HTTP/2 stream.
	ErrStreamReset = &Error{stats.ErrReset, "stream reset by the server"}
	// ErrClosed is returned when the server closes a connection before a
	// response ended.
	ErrClosed = &Error{stats.ErrReset, "EOF"}
	// ErrGoAway fails the streams a server's GOAWAY left unprocessed.
	ErrGoAway = &Error{stats.ErrReset, "server sent GOAWAY"}
	// ErrMalformed is an HTTP/1.1 response the client cannot parse: often
	// a server that speaks another protocol on that port.
	ErrMalformed = &Error{stats.ErrProtocol, "malformed HTTP/1.1 response"}
	// ErrShortBody is a response whose body ended before its Content-Length
	// (or ran past it).
	ErrShortBody = &Error{stats.ErrShort, "body length differs from Content-Length"}
)

// ErrClientClosed fails the requests of a client that was closed.
var ErrClientClosed = errors.New("client closed")

// EOFIsReset turns a connection closed between responses into a reset.
func EOFIsReset(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("connection closed by the server: %w", ErrClosed)
	}
	return err
}
