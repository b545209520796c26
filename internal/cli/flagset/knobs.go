package flagset

import (
	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/transport"
)

// ClientKnobNames are the client's tuning knobs, as help groups them.
var ClientKnobNames = []string{"read-size", "write-size", "dial-timeout", "h2-max-frame", "h2-conn-window", "h2-stream-window", "quic-conn-window", "quic-stream-window", "quic-trace"}

// InstrumentKnobs titles the client knobs of get, put and load: their
// zero values are config.Client's, Go as shipped (run and tune start from
// a knob set, go-default unless told: knobDefaults).
const InstrumentKnobs = "client knobs (Go as shipped unless set)"

// ClientKnobs registers the client's tuning knobs on fs.
func (fs *Set) ClientKnobs(c *config.Client) {
	fs.Var(&c.ReadSize, "read-size", "client body read buffer `size` (default "+defaults.ReadSize.String()+")")
	fs.DurationVar(&c.DialTimeout, "dial-timeout", defaults.DialTimeout, "bound on TCP+TLS or QUIC connection set-up")
	fs.Fields(map[string]string{"Client.ReadSize": "read-size", "Client.DialTimeout": "dial-timeout"})
	fs.protocolKnobs("Client", "", &c.HTTP2, &c.QUIC, "Go's, 16Ki; tuned: 1Mi", "Go's client's, 1Gi", "Go's client's, 4Mi")
}

// ServerKnobs registers the server's tuning knobs on fs, each name
// prefixed with prefix.
func (fs *Set) ServerKnobs(prefix string, c *config.Server) {
	fs.Var(&c.WriteSize, prefix+"write-size", "server body write chunk `size` (default "+defaults.WriteSize.String()+")")
	fs.IntVar(&c.HTTP2.MaxConcurrentStreams, prefix+"h2-max-streams", 0, "HTTP/2 streams a client may open at once (default Go's, 250)")
	fs.Fields(map[string]string{"Server.WriteSize": prefix + "write-size", "Server.HTTP2.MaxConcurrentStreams": prefix + "h2-max-streams"})
	fs.protocolKnobs("Server", prefix, &c.HTTP2, &c.QUIC, "Go's, 1Mi", "Go's server's, 1Mi", "Go's server's, 1Mi")
}

// protocolKnobs registers the HTTP/2 and QUIC knobs of one side, its
// field paths starting with end (Client, Server), each flag's name with
// prefix; frame, conn and stream say the defaults of its HTTP/2 frame
// size and receive windows.
func (fs *Set) protocolKnobs(end, prefix string, h *config.HTTP2, q *config.QUIC, frame, conn, stream string) {
	fs.Var(&h.MaxReadFrameSize, prefix+"h2-max-frame", "HTTP/2 SETTINGS_MAX_FRAME_SIZE to advertise, `size` 16Ki..16Mi-1 (default "+frame+")")
	fs.Var(&h.MaxReceiveBufferPerConnection, prefix+"h2-conn-window", "HTTP/2 connection receive window `size` (default "+conn+")")
	fs.Var(&h.MaxReceiveBufferPerStream, prefix+"h2-stream-window", "HTTP/2 stream receive window `size` (default "+stream+")")
	fs.Var(&q.MaxStreamReceiveWindow, prefix+"quic-stream-window", "QUIC max stream receive window `size` (default quic-go's, 6Mi)")
	fs.Var(&q.MaxConnectionReceiveWindow, prefix+"quic-conn-window", "QUIC max connection receive window `size` (default quic-go's, 15Mi)")
	fs.BoolVar(&q.Trace, prefix+"quic-trace", false, "count quic-go's trace events: congestion window, flow-control blocked frames (costs CPU per packet)")
	fs.Fields(map[string]string{
		end + ".HTTP2.MaxReadFrameSize":              prefix + "h2-max-frame",
		end + ".HTTP2.MaxReceiveBufferPerConnection": prefix + "h2-conn-window",
		end + ".HTTP2.MaxReceiveBufferPerStream":     prefix + "h2-stream-window",
		end + ".QUIC.MaxStreamReceiveWindow":         prefix + "quic-stream-window",
		end + ".QUIC.MaxConnectionReceiveWindow":     prefix + "quic-conn-window",
	})
}

// schemeUsage says which -p fits the URL's scheme.
func schemeUsage(se *transport.SchemeError) error {
	switch se.Scheme {
	case "https":
		return Usagef("-p %s is cleartext but the URL is https://: use -p h1-tls, h2 or h3, or an http:// URL", se.Protocol)
	case "http":
		return Usagef("-p %s needs TLS but the URL is http://: use -p h1 or h2c, or an https:// URL", se.Protocol)
	}
	return Usagef("%v", se)
}
