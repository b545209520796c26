// Package fielderr makes the *config.FieldError every public package's
// Validate returns: the Go field that is out of range, its value and what
// would be right.
package fielderr

import (
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/httpvs/httpvs/config"
)

// New returns a *config.FieldError; Want is formatted from format and
// args.
func New(field string, value any, format string, args ...any) *config.FieldError {
	return &config.FieldError{Field: field, Value: value, Want: fmt.Sprintf(format, args...)}
}

// Within returns err with prefix+"." before its field, when err is a
// *config.FieldError: how a struct's Validate reports a field of a
// nested one.
func Within(prefix string, err error) error {
	var fe *config.FieldError
	if errors.As(err, &fe) {
		c := *fe
		c.Field = prefix + "." + c.Field
		return &c
	}
	return err
}

// Listen reports addr, the listen address of field, as a
// *config.FieldError unless it is host:port with a port in 0-65535 (0:
// any free port) or empty (no listener).
func Listen(field, addr string) error {
	if addr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return New(field, addr, "host:port, e.g. 127.0.0.1:8080")
	}
	if port == "" {
		return nil // net.Listen's any free port, as 0
	}
	n, err := strconv.Atoi(port)
	switch {
	case err != nil:
		return New(field, addr, "a numeric port, e.g. 127.0.0.1:8080")
	case n < 0 || n > 65535:
		return New(field, addr, "a port in 0-65535 (%d is out of range), e.g. 127.0.0.1:8080", n)
	}
	return nil
}
