// Package config holds the client's and the server's knobs as data: the
// HTTP/2 and QUIC windows and frame sizes, body read and write sizes, and
// timeouts, with their defaults and ranges. Package transport builds Go's
// and quic-go's clients and servers from them; results.json records them.
// It imports nothing that speaks a protocol.
package config

import (
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/units"
)

// goClientMaxReadFrameSize is the HTTP/2 SETTINGS_MAX_FRAME_SIZE Go's
// client advertises when Client.HTTP2.MaxReadFrameSize is zero: 16 KiB
// (configFromTransport clips a zero Transport.MaxReadFrameSize to the
// minimum). Go's server advertises 1 MiB; the tuned knob set makes the
// client advertise that too, which splits a fast single-stream
// download into far fewer frames and read calls.
const goClientMaxReadFrameSize = 16 * units.KiB

// Config holds every tuning knob httpvs applies to its clients and servers.
// The zero value is Go as shipped: Go's and quic-go's own defaults, and
// response bodies read 8 KiB at a time as io.Copy(io.Discard, body) does;
// the server's handler writes 256 KiB chunks. httpvs's tuned
// values are a knob set one asks for (knobs.Tuned). Each end reads only
// its half.
type Config struct {
	Client Client
	Server Server
}

// HTTP2 holds the http.HTTP2Config fields that matter for speed. Zero means
// Go's default for that end (Go 1.26, read from its source: the client
// advertises a 16 KiB max frame size, because configFromTransport clips a
// zero Transport.MaxReadFrameSize to the minimum before applying
// Transport.HTTP2, and has 4 MiB stream and 1 GiB connection receive
// buffers; the server advertises 1 MiB frames, 1 MiB receive buffers each
// and 250 concurrent streams).
type HTTP2 struct {
	MaxReadFrameSize              units.Bytes `json:"max_read_frame_size"`               // SETTINGS_MAX_FRAME_SIZE advertised to the peer; 16 KiB to 16 MiB
	MaxReceiveBufferPerConnection units.Bytes `json:"max_receive_buffer_per_connection"` // connection-level receive window, at least 64 KiB
	MaxReceiveBufferPerStream     units.Bytes `json:"max_receive_buffer_per_stream"`     // stream-level receive window
	MaxConcurrentStreams          int         `json:"max_concurrent_streams"`            // server: streams a client may open at once; client: ignored
}

// QUIC holds the quic.Config receive-window fields. Zero means quic-go's
// default (v0.65: 512 KiB initial and 6 MiB max per stream, 768 KiB initial
// and 15 MiB max per connection, 100 incoming streams).
type QUIC struct {
	InitialStreamReceiveWindow     units.Bytes `json:"initial_stream_receive_window"`     // starting stream window; grows by auto-tuning
	MaxStreamReceiveWindow         units.Bytes `json:"max_stream_receive_window"`         // ceiling of the stream window
	InitialConnectionReceiveWindow units.Bytes `json:"initial_connection_receive_window"` // starting connection window
	MaxConnectionReceiveWindow     units.Bytes `json:"max_connection_receive_window"`     // ceiling of the connection window
	MaxIncomingStreams             int64       `json:"max_incoming_streams"`              // bidirectional streams the peer may open at once
	// MaxIdleTimeout closes a connection silent this long. A killed peer's
	// QUIC connection lasts until then: UDP has no reset. Zero means
	// quic-go's 30 s on servers and 5 s on
	// httpvs's clients, so that a dead server shows within seconds.
	MaxIdleTimeout time.Duration `json:"max_idle_timeout_ns"`
	// Trace counts quic-go's qlog events (congestion window, flow-control
	// blocked frames) into QUICStats. Off by default: quic-go then builds
	// an event per packet, which costs CPU on the path measured.
	Trace bool `json:"trace"`
}

// Client tunes the client end.
type Client struct {
	// HTTP2 tunes h2c and h2; a zero MaxReadFrameSize is Go's
	// (GoClientMaxReadFrameSize).
	HTTP2 HTTP2 `json:"http2"`
	QUIC  QUIC  `json:"quic"`
	// ReadSize is the buffer the client drains response bodies with;
	// zero means 8 KiB.
	ReadSize units.Bytes `json:"read_size"`
	// DialTimeout bounds TCP connect plus TLS handshake, or the QUIC
	// handshake; zero means 10 s. In JSON: nanoseconds.
	DialTimeout time.Duration `json:"dial_timeout_ns"`
}

// Server tunes the server end.
type Server struct {
	HTTP2 HTTP2 `json:"http2"`
	QUIC  QUIC  `json:"quic"`
	// WriteSize is the chunk the server writes response bodies in and the
	// buffer it reads request bodies with; zero means 256 KiB.
	WriteSize units.Bytes `json:"write_size"`
}

// Effective returns c with the values that apply filled in (read size,
// Go's frame size, dial timeout), as results record them and the clients
// use them; fields left to Go's or quic-go's windows stay zero.
func (c Client) Effective() Client {
	if c.HTTP2.MaxReadFrameSize == 0 {
		c.HTTP2.MaxReadFrameSize = goClientMaxReadFrameSize
	}
	if c.ReadSize <= 0 {
		c.ReadSize = defaults.ReadSize
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = defaults.DialTimeout
	}
	return c
}

// Effective returns c with the write size that applies filled in; fields
// left to Go's or quic-go's windows stay zero.
func (c Server) Effective() Server {
	if c.WriteSize <= 0 {
		c.WriteSize = defaults.WriteSize
	}
	return c
}

// Validate reports the first field out of range as a *FieldError, its
// field under "Client." or "Server.".
func (c Config) Validate() error {
	if err := c.Client.Validate(); err != nil {
		return withinField("Client", err)
	}
	return withinField("Server", c.Server.Validate())
}

// Validate reports the first client field out of range as a *FieldError.
func (c Client) Validate() error {
	if err := c.HTTP2.validate(); err != nil {
		return withinField("HTTP2", err)
	}
	if err := c.QUIC.validate(); err != nil {
		return withinField("QUIC", err)
	}
	if c.ReadSize < 0 || c.ReadSize > 1*units.GiB {
		return fieldf("ReadSize", c.ReadSize, "1 byte to 1Gi")
	}
	if c.DialTimeout < 0 {
		return fieldf("DialTimeout", c.DialTimeout, "a positive duration")
	}
	return nil
}

// Validate reports the first server field out of range as a *FieldError.
func (c Server) Validate() error {
	if err := c.HTTP2.validate(); err != nil {
		return withinField("HTTP2", err)
	}
	if err := c.QUIC.validate(); err != nil {
		return withinField("QUIC", err)
	}
	if c.WriteSize < 0 || c.WriteSize > 1*units.GiB {
		return fieldf("WriteSize", c.WriteSize, "1 byte to 1Gi")
	}
	return nil
}

func (h HTTP2) validate() error {
	if f := h.MaxReadFrameSize; f != 0 && (f < 16*units.KiB || f > 16*units.MiB-1) {
		return fieldf("MaxReadFrameSize", f, "16Ki to 16777215")
	}
	if b := h.MaxReceiveBufferPerConnection; b != 0 && (b < 64*units.KiB || b > 1<<31-1) {
		return fieldf("MaxReceiveBufferPerConnection", b, "64Ki to 2147483647")
	}
	if b := h.MaxReceiveBufferPerStream; b < 0 || b > 1<<31-1 {
		return fieldf("MaxReceiveBufferPerStream", b, "1 to 2147483647")
	}
	if h.MaxConcurrentStreams < 0 {
		return fieldf("MaxConcurrentStreams", h.MaxConcurrentStreams, "1 or more")
	}
	return nil
}

func (q QUIC) validate() error {
	for _, f := range []struct {
		name string
		v    units.Bytes
	}{
		{"InitialStreamReceiveWindow", q.InitialStreamReceiveWindow},
		{"MaxStreamReceiveWindow", q.MaxStreamReceiveWindow},
		{"InitialConnectionReceiveWindow", q.InitialConnectionReceiveWindow},
		{"MaxConnectionReceiveWindow", q.MaxConnectionReceiveWindow},
	} {
		if f.v < 0 || f.v > 1<<40 {
			return fieldf(f.name, f.v, "1 to 1Ti")
		}
	}
	if q.MaxIncomingStreams < 0 {
		return fieldf("MaxIncomingStreams", q.MaxIncomingStreams, "1 or more")
	}
	return nil
}
