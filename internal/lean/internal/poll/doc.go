// Package poll holds the Linux pieces lean's event loops share: an epoll
// set with the eventfd that wakes it when a loop's context ends (Set), its
// wait that can keep the goroutine's P (Wait), a net.Conn over a socket
// taken away from Go's netpoller (Conn), and non-blocking TCP sockets made
// inside a transport.Network (TCPSocket). Elsewhere the package is empty:
// the loops that use it are built on Linux only.
package poll
