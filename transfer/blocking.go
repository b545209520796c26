package transfer

import (
	"github.com/httpvs/httpvs/transport"
)

// MaxBlockingConns is the most connections a run reads with blocking
// sockets (transport.ClientOptions.BlockingSockets), one OS thread each.
const maxBlockingConns = 64

// BlockingSuits says whether an instrument's run over p with conns
// connections should read them with blocking sockets
// (transport.ClientOptions.BlockingSockets): over HTTP/1.1 in cleartext,
// where a download's reader is the process's only busy goroutine and Go's
// poller costs more system time per GB than curl's blocking recv
// (docs/measurements/peers-*.md). h2c keeps Go's poller: its speed there
// is Go's own HTTP/2 client's, already ahead of curl's. Run never sets it
// on its own: a comparison of Go's transports (matrix) measures Go's I/O.
func BlockingSuits(p transport.Protocol, conns int) bool {
	return p == transport.H1 && conns <= maxBlockingConns
}
