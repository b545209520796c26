//go:build !linux

package transport

import (
	"net"
)

// blocking returns c: blocking sockets are Linux-only; elsewhere
// ClientOptions.BlockingSockets has no effect.
func blocking(c net.Conn, _ *waitCounter) (net.Conn, error) { return c, nil }
