package load

import (
	"errors"
	"net"

	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// A worker whose request failed for want of a connection (nothing
// listens, the handshake failed) waits before its next request, as the
// fast engine's event loops wait before they redial: a wait that doubles
// from dial.RedialMin with each such failure in a row, up to dial.RedialMax,
// until a request gets a response. Without it a closed port cost ~20-45k
// refused connections a second at a core's worth of CPU, all of it
// counted as errors of a run that could say so after a few. Each failure
// still counts, as an error; the waits are never counted as latency.

// setupFailed says whether x failed, with no response, for want of a
// connection: refused, a dial error, a TLS handshake or protocol mismatch
// (the server speaks something else), or a set-up past the dial timeout.
func (x exchange) setupFailed() bool {
	if x.answered || x.err == nil {
		return false
	}
	kind := transport.Classify(x.err)
	var (
		op *net.OpError
		st *transport.SetupTimeoutError
	)
	switch {
	case kind == stats.ErrRefused, kind == stats.ErrTLS, kind == stats.ErrProtocol:
		return true
	case errors.As(x.err, &op) && op.Op == "dial", errors.As(x.err, &st):
		return true
	}
	return false
}
