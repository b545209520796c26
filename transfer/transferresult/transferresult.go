// Package transferresult holds what a transfer run produces, as data: the
// Result that package transfer fills (`httpvs get` and `httpvs put`, and
// their --json form) and its parts. It is a leaf: it imports no protocol
// stack, so that renderers (package report) can read a result without
// linking the clients that measured it. Transports are named by string, as
// package results names them.
package transferresult

import (
	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/stats"
)

// Stream is one transfer's outcome.
type Stream struct {
	Bytes         int64   `json:"bytes"`
	Seconds       float64 `json:"seconds"`
	BitsPerSecond float64 `json:"bits_per_second"`
	Error         string  `json:"error,omitempty"`
	ErrorKind     string  `json:"error_kind,omitempty"`
}

// ClientSide is what the client measured of itself.
type ClientSide struct {
	BodyReads int64 `json:"body_reads"` // Read calls on response bodies (downloads)
	ReadSize  int   `json:"read_size"`  // the buffer they used, bytes
	// BlockingSockets says its TCP connections were read with blocking
	// system calls outside Go's poller (transport.ClientOptions.BlockingSockets).
	BlockingSockets bool `json:"blocking_sockets,omitempty"`
	// ReadWaits says how those sockets waited for data: polling or
	// sleeping in recv (ReadWaits.Mode), and how often each.
	ReadWaits       *stats.ReadWaits   `json:"read_waits,omitempty"`
	Settings        config.Client      `json:"settings"`           // the knobs in effect; zero fields are Go's or quic-go's defaults
	TCP             stats.IOStats      `json:"tcp"`                // its TCP connections (below TLS)
	QUIC            stats.QUICStats    `json:"quic"`               // its QUIC connections
	H2Frames        stats.H2Frames     `json:"h2_frames"`          // h2c: the HTTP/2 frames its connections carried
	Process         stats.ProcessStats `json:"process"`            // this process during the run
	CPUSecondsPerGB float64            `json:"cpu_seconds_per_gb"` // client CPU seconds per 10^9 body bytes
}

// Result is a run's outcome. Failed transfers are counted in Errors and
// kept in Streams; they are never dropped.
type Result struct {
	URL           string            `json:"url"`
	Direction     string            `json:"direction"`
	Requested     string            `json:"requested"`              // the transport asked for
	HeaderNames   []string          `json:"header_names,omitempty"` // transfer.Plan.Header's names, sorted; values (maybe credentials) not recorded
	WriteSize     int               `json:"write_size,omitempty"`   // transfer.Plan.WriteSize of an upload, bytes; absent: the client's own
	Protocol      string            `json:"protocol"`               // the transport negotiated; "" if no response arrived
	Streams       int               `json:"streams"`                // transfers run
	Connections   int64             `json:"connections"`            // connections opened
	Bytes         int64             `json:"bytes"`                  // body bytes moved by the streams that succeeded
	FailedBytes   int64             `json:"failed_bytes"`           // body bytes moved by failed streams before they failed; not in Bytes or the rate (a stream cut off by an interrupt keeps its bytes in Bytes)
	Seconds       float64           `json:"seconds"`                // wall time from first request to last body byte
	BitsPerSecond float64           `json:"bits_per_second"`        // Bytes*8/Seconds
	Errors        stats.ErrorCounts `json:"errors"`                 // failed transfers by kind
	// SetupTimeouts counts the timeouts among Errors that were connection
	// set-ups past the dial timeout (transport.SetupTimeoutError), not
	// transfers past RequestTimeout.
	SetupTimeouts int64  `json:"setup_timeouts,omitempty"`
	FirstError    string `json:"first_error,omitempty"`
	Interrupted   bool   `json:"interrupted"` // the run was cancelled or timed out before finishing
	// FirstByteSeconds is the time from the run's start to its first body
	// byte read (downloads) or handed to the client (uploads); 0 if none.
	FirstByteSeconds float64 `json:"first_byte_seconds,omitempty"`
	// OmitSeconds is transfer.Plan.Omit; OmittedBytes the body bytes moved within
	// it, left out of the steady rate.
	OmitSeconds  float64 `json:"omit_seconds,omitempty"`
	OmittedBytes int64   `json:"omitted_bytes,omitempty"`
	// SteadyBytes are the body bytes moved from the end of the omitted
	// part to the last body byte, SteadySeconds that time: the steady
	// rate is their ratio. Zero without transfer.Plan.Omit, or when SteadyNote
	// says why it was not measured.
	SteadyBytes   int64   `json:"steady_bytes,omitempty"`
	SteadySeconds float64 `json:"steady_seconds,omitempty"`
	SteadyNote    string  `json:"steady_note,omitempty"`
	// ServerMaxStreams is the HTTP/2 server's SETTINGS_MAX_CONCURRENT_STREAMS,
	// or the HTTP/3 server's QUIC initial_max_streams_bidi, when it was
	// asked (more than one transfer at once per connection); 0 if unknown
	// or unlimited.
	ServerMaxStreams int `json:"server_max_streams,omitempty"`
	// ConnectionsRaised, when set, says why Connections is more than asked:
	// the server allows fewer streams per connection than the transfers
	// at once would have put on one.
	ConnectionsRaised string             `json:"connections_raised,omitempty"`
	PerStream         []Stream           `json:"per_stream"`
	Client            ClientSide         `json:"client"`
	Server            *stats.ServerStats `json:"server"`                // the server's /stats delta; null when unavailable
	ServerNote        string             `json:"server_note,omitempty"` // why Server is null
}
