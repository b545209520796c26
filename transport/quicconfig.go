package transport

import (
	"net/http"

	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/config"
)

// QUICConfig returns the quic.Config httpvs's HTTP/3 clients dial with:
// the QUIC fields of c (zero ones keep quic-go's defaults), the dial
// timeout as the handshake's idle timeout, and, when c.QUIC.MaxIdleTimeout
// is zero, config.DefaultClientQUICIdleTimeout with keep-alives every half of it.
// It sets no Tracer; callers that count trace events add their own.
func QUICConfig(c config.Client) *quic.Config {
	qconf := quicConfig(c.QUIC)
	qconf.HandshakeIdleTimeout = c.DialTimeoutOrDefault()
	if qconf.MaxIdleTimeout == 0 {
		qconf.MaxIdleTimeout = config.DefaultClientQUICIdleTimeout
		// A live server answers the pings, so pooled connections (the
		// /stats client's, between two reads around a long transfer) stay
		// open; a dead one does not, and the idle timeout ends them.
		qconf.KeepAlivePeriod = config.DefaultClientQUICIdleTimeout / 2
	}
	return qconf
}

// http2Config returns the http.HTTP2Config for h; zero fields keep Go's defaults.
func http2Config(h config.HTTP2) *http.HTTP2Config {
	return &http.HTTP2Config{
		MaxConcurrentStreams:          h.MaxConcurrentStreams,
		MaxReadFrameSize:              int(h.MaxReadFrameSize),
		MaxReceiveBufferPerConnection: int(h.MaxReceiveBufferPerConnection),
		MaxReceiveBufferPerStream:     int(h.MaxReceiveBufferPerStream),
	}
}

// quicConfig returns the quic.Config for q; zero fields keep quic-go's defaults.
func quicConfig(q config.QUIC) *quic.Config {
	return &quic.Config{
		InitialStreamReceiveWindow:     uint64(q.InitialStreamReceiveWindow),
		MaxStreamReceiveWindow:         uint64(q.MaxStreamReceiveWindow),
		InitialConnectionReceiveWindow: uint64(q.InitialConnectionReceiveWindow),
		MaxConnectionReceiveWindow:     uint64(q.MaxConnectionReceiveWindow),
		MaxIncomingStreams:             q.MaxIncomingStreams,
		MaxIdleTimeout:                 q.MaxIdleTimeout,
	}
}
