package dial

import (
	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/defaults"
)

// QUICConfig returns the quic.Config httpvs's HTTP/3 clients dial with:
// the QUIC fields of c (zero ones keep quic-go's defaults), the dial
// timeout as the handshake's idle timeout, and, when c.QUIC.MaxIdleTimeout
// is zero, defaults.ClientQUICIdleTimeout with keep-alives every half of
// it. It sets no Tracer; callers that count trace events add their own.
func QUICConfig(c config.Client) *quic.Config {
	qconf := QUICConfigOf(c.QUIC)
	qconf.HandshakeIdleTimeout = c.Effective().DialTimeout
	if qconf.MaxIdleTimeout == 0 {
		qconf.MaxIdleTimeout = defaults.ClientQUICIdleTimeout
		// A live server answers the pings, so pooled connections (the
		// /stats client's, between two reads around a long transfer) stay
		// open; a dead one does not, and the idle timeout ends them.
		qconf.KeepAlivePeriod = defaults.ClientQUICIdleTimeout / 2
	}
	return qconf
}

// QUICConfigOf returns the quic.Config for q; zero fields keep quic-go's defaults.
func QUICConfigOf(q config.QUIC) *quic.Config {
	return &quic.Config{
		InitialStreamReceiveWindow:     uint64(q.InitialStreamReceiveWindow),
		MaxStreamReceiveWindow:         uint64(q.MaxStreamReceiveWindow),
		InitialConnectionReceiveWindow: uint64(q.InitialConnectionReceiveWindow),
		MaxConnectionReceiveWindow:     uint64(q.MaxConnectionReceiveWindow),
		MaxIncomingStreams:             q.MaxIncomingStreams,
		MaxIdleTimeout:                 q.MaxIdleTimeout,
	}
}
