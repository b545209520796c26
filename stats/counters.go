package stats

// IOStats counts the calls on one class of connections (a listener's, or a
// client's dialed ones) and the bytes they moved. Each Read or Write call on
// a net.Conn is one system call in the common case: these are the golang/go#47840 fork's
// "write ops". On TLS connections they are counted below TLS, so the bytes
// include TLS record overhead.
type IOStats struct {
	Connections int64 `json:"connections"` // connections accepted or dialed
	Reads       int64 `json:"reads"`       // Read calls that returned data or an error
	ReadBytes   int64 `json:"read_bytes"`  // bytes returned by Read
	Writes      int64 `json:"writes"`      // Write calls
	WriteBytes  int64 `json:"write_bytes"` // bytes written
	// ReadSizes and WriteSizes count the calls by bytes moved: up to 1 KiB, 4 KiB, 16 KiB, 64 KiB, 256 KiB, 1 MiB,
	// and above.
	ReadSizes  SizeCounts `json:"read_sizes"`
	WriteSizes SizeCounts `json:"write_sizes"`
}

// sizeBuckets are the upper bounds, in bytes, of the size distributions'
// buckets; the last bucket holds everything above.
var sizeBuckets = [...]int64{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}

// SizeCounts is a size distribution: counts up to 1 KiB, 4 KiB, 16 KiB,
// 64 KiB, 256 KiB, 1 MiB, and above.
type SizeCounts [len(sizeBuckets) + 1]int64

// Add adds o to c.
func (c *SizeCounts) add(o SizeCounts) {
	for i := range c {
		c[i] += o[i]
	}
}

// Sub returns c - o.
func (c SizeCounts) sub(o SizeCounts) SizeCounts {
	for i := range c {
		c[i] -= o[i]
	}
	return c
}

// Add adds o to s.
func (s *IOStats) Add(o IOStats) {
	s.Connections += o.Connections
	s.Reads += o.Reads
	s.ReadBytes += o.ReadBytes
	s.Writes += o.Writes
	s.WriteBytes += o.WriteBytes
	s.ReadSizes.add(o.ReadSizes)
	s.WriteSizes.add(o.WriteSizes)
}

// Sub returns s - o: what happened between snapshot o and snapshot s.
func (s IOStats) sub(o IOStats) IOStats {
	return IOStats{
		Connections: s.Connections - o.Connections,
		Reads:       s.Reads - o.Reads,
		ReadBytes:   s.ReadBytes - o.ReadBytes,
		Writes:      s.Writes - o.Writes,
		WriteBytes:  s.WriteBytes - o.WriteBytes,
		ReadSizes:   s.ReadSizes.sub(o.ReadSizes),
		WriteSizes:  s.WriteSizes.sub(o.WriteSizes),
	}
}

// QUICStats counts what QUIC connections sent and received, from quic-go's
// per-connection statistics. Bytes are QUIC packet bytes without UDP/IP
// headers.
type QUICStats struct {
	Connections     int64 `json:"connections"`      // QUIC connections accepted or dialed
	PacketsSent     int64 `json:"packets_sent"`     // including those later declared lost
	PacketsReceived int64 `json:"packets_received"` // including undecryptable ones
	PacketsLost     int64 `json:"packets_lost"`     // declared lost by the sender
	BytesSent       int64 `json:"bytes_sent"`       // including retransmissions
	BytesReceived   int64 `json:"bytes_received"`   // including duplicates

	// From quic-go's qlog events, when tracing was on (QUIC.Trace):
	Traced                int64 `json:"traced"`                  // connections traced; 0: the fields below were not measured
	BlockedFramesSent     int64 `json:"blocked_frames_sent"`     // DATA_BLOCKED and STREAM_DATA_BLOCKED sent: this end had data and no flow-control window
	BlockedFramesReceived int64 `json:"blocked_frames_received"` // and received: the peer was held back by this end's windows
	CongestionWindowBytes int64 `json:"congestion_window_bytes"` // gauge: the last congestion window a connection reported
}

// Add adds o to s.
func (s *QUICStats) Add(o QUICStats) {
	s.Connections += o.Connections
	s.PacketsSent += o.PacketsSent
	s.PacketsReceived += o.PacketsReceived
	s.PacketsLost += o.PacketsLost
	s.BytesSent += o.BytesSent
	s.BytesReceived += o.BytesReceived
	s.Traced += o.Traced
	s.BlockedFramesSent += o.BlockedFramesSent
	s.BlockedFramesReceived += o.BlockedFramesReceived
	s.CongestionWindowBytes = max(s.CongestionWindowBytes, o.CongestionWindowBytes)
}

// Sub returns s - o.
func (s QUICStats) sub(o QUICStats) QUICStats {
	return QUICStats{
		Connections:     s.Connections - o.Connections,
		PacketsSent:     s.PacketsSent - o.PacketsSent,
		PacketsReceived: s.PacketsReceived - o.PacketsReceived,
		PacketsLost:     s.PacketsLost - o.PacketsLost,
		BytesSent:       s.BytesSent - o.BytesSent,
		BytesReceived:   s.BytesReceived - o.BytesReceived,

		Traced:                s.Traced - o.Traced,
		BlockedFramesSent:     s.BlockedFramesSent - o.BlockedFramesSent,
		BlockedFramesReceived: s.BlockedFramesReceived - o.BlockedFramesReceived,
		CongestionWindowBytes: s.CongestionWindowBytes,
	}
}

// ProcessStats describes one process: cumulative CPU time and GC cycles,
// and two gauges (heap in use, goroutines) that Sub keeps as they were at
// the later snapshot.
type ProcessStats struct {
	CPUUserSeconds   float64 `json:"cpu_user_seconds"`   // user CPU time, seconds
	CPUSystemSeconds float64 `json:"cpu_system_seconds"` // system CPU time, seconds
	GCCycles         int64   `json:"gc_cycles"`          // completed GC cycles
	HeapInUseBytes   int64   `json:"heap_inuse_bytes"`   // gauge: heap bytes in live and unswept objects
	Goroutines       int64   `json:"goroutines"`         // gauge: goroutines now
	// GoroutinesPeak is a gauge: the most goroutines sampled (every 10 ms)
	// over the window the figures cover; 0 where nobody sampled.
	GoroutinesPeak int64 `json:"goroutines_peak"`
}

// CPUSeconds returns user plus system CPU seconds.
func (p ProcessStats) CPUSeconds() float64 { return p.CPUUserSeconds + p.CPUSystemSeconds }

// Sub returns p - o for the cumulative figures and p's gauges.
func (p ProcessStats) Sub(o ProcessStats) ProcessStats {
	return ProcessStats{
		CPUUserSeconds:   p.CPUUserSeconds - o.CPUUserSeconds,
		CPUSystemSeconds: p.CPUSystemSeconds - o.CPUSystemSeconds,
		GCCycles:         p.GCCycles - o.GCCycles,
		HeapInUseBytes:   p.HeapInUseBytes,
		Goroutines:       p.Goroutines,
		GoroutinesPeak:   p.GoroutinesPeak,
	}
}

// ProtocolCounters are the payload server's counters for one transport.
type ProtocolCounters struct {
	Requests          int64   `json:"requests"`            // requests handled (not counting /stats)
	Connections       int64   `json:"connections"`         // connections that carried at least one request
	BodyBytesSent     int64   `json:"body_bytes_sent"`     // response body bytes written by handlers
	BodyBytesReceived int64   `json:"body_bytes_received"` // request body bytes read by handlers
	BodyWrites        int64   `json:"body_writes"`         // handler Write calls on response bodies (the golang/go#47840 fork's "chunks")
	BodyReads         int64   `json:"body_reads"`          // handler Read calls on request bodies
	TransferSeconds   float64 `json:"transfer_seconds"`    // summed time handlers spent moving bodies
	Aborted           int64   `json:"aborted"`             // bodies cut short because the peer went away
}

// Add adds o to c.
func (c *ProtocolCounters) add(o ProtocolCounters) {
	c.Requests += o.Requests
	c.Connections += o.Connections
	c.BodyBytesSent += o.BodyBytesSent
	c.BodyBytesReceived += o.BodyBytesReceived
	c.BodyWrites += o.BodyWrites
	c.BodyReads += o.BodyReads
	c.TransferSeconds += o.TransferSeconds
	c.Aborted += o.Aborted
}

// Sub returns c - o.
func (c ProtocolCounters) sub(o ProtocolCounters) ProtocolCounters {
	return ProtocolCounters{
		Requests:          c.Requests - o.Requests,
		Connections:       c.Connections - o.Connections,
		BodyBytesSent:     c.BodyBytesSent - o.BodyBytesSent,
		BodyBytesReceived: c.BodyBytesReceived - o.BodyBytesReceived,
		BodyWrites:        c.BodyWrites - o.BodyWrites,
		BodyReads:         c.BodyReads - o.BodyReads,
		TransferSeconds:   c.TransferSeconds - o.TransferSeconds,
		Aborted:           c.Aborted - o.Aborted,
	}
}

// ServerStats is what the payload server's GET /stats returns: its
// counters since it started or since the last POST /stats/reset.
type ServerStats struct {
	Seconds   float64                     `json:"seconds"`    // wall time covered
	Protocols map[string]ProtocolCounters `json:"protocols"`  // by transport name: h1, h2c, h1-tls, h2, h3
	TCP       IOStats                     `json:"tcp"`        // the cleartext listener's connections (h1, h2c)
	TLS       IOStats                     `json:"tls"`        // the TLS listener's connections (h1-tls, h2), below TLS
	QUIC      QUICStats                   `json:"quic"`       // the QUIC listener's connections (h3)
	H2C       H2Frames                    `json:"h2c_frames"` // HTTP/2 frames on the cleartext listener's h2c connections
	Process   ProcessStats                `json:"process"`    // the server process
	// Resets is the counters' reset generation: how many times POST
	// /stats/reset has zeroed them since the server started. Two
	// snapshots with different generations straddle a reset (Delta).
	Resets int64 `json:"resets"`
}

// Sub returns s - o: the server's work between two snapshots.
func (s ServerStats) Sub(o ServerStats) ServerStats {
	d := ServerStats{
		Seconds:   s.Seconds - o.Seconds,
		Protocols: make(map[string]ProtocolCounters, len(s.Protocols)),
		TCP:       s.TCP.sub(o.TCP),
		TLS:       s.TLS.sub(o.TLS),
		QUIC:      s.QUIC.sub(o.QUIC),
		H2C:       s.H2C.Sub(o.H2C),
		Process:   s.Process.Sub(o.Process),
		Resets:    s.Resets - o.Resets,
	}
	for name, c := range s.Protocols {
		d.Protocols[name] = c.sub(o.Protocols[name])
	}
	return d
}

// Total returns the protocol counters summed over all transports.
func (s ServerStats) Total() ProtocolCounters {
	var t ProtocolCounters
	for _, c := range s.Protocols {
		t.add(c)
	}
	return t
}

// ClientCounters are a transport.Client's connection counters, taken
// together.
type ClientCounters struct {
	// Connections is how many connections the client has opened, over
	// TCP and QUIC.
	Connections int64
	// IO counts the TCP connections' calls (h1, h2c, h1-tls, h2; zero for
	// h3).
	IO IOStats
	// H2 counts the HTTP/2 frames an h2c client sent and received (zero
	// for the other transports).
	H2 H2Frames
	// QUIC counts the QUIC connections (h3; zero otherwise).
	QUIC QUICStats
	// Waits says how blocking sockets waited for data
	// (ClientOptions.BlockingSockets; zero without them).
	Waits ReadWaits
}

// ListenerCounters are a transport.Server's connection counters, taken
// together.
type ListenerCounters struct {
	// TCP, TLS and QUIC count the cleartext, TLS and QUIC listeners'
	// connections.
	TCP, TLS IOStats
	QUIC     QUICStats
	// H2C counts the HTTP/2 frames on the cleartext listener's h2c
	// connections (h2 over TLS is not parsed).
	H2C H2Frames
	// Connections counts, per transport name, the connections that
	// carried at least one request of that transport.
	Connections map[string]int64
	// ConnErrors is how many connection errors (failed TLS handshakes,
	// resets and the like) net/http has logged since the server started,
	// when ServerOptions.ErrorLog is nil; with the caller's ErrorLog they
	// go there instead and ConnErrors is 0.
	ConnErrors int64
}
