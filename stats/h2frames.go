package stats

// H2Direction counts the frames one end sent or received on its HTTP/2
// cleartext (h2c) connections, parsed passively from the bytes on the wire.
type H2Direction struct {
	Frames    map[string]int64 `json:"frames"`     // by type name; unknown types under "unknown"
	DataBytes int64            `json:"data_bytes"` // DATA payload bytes, padding included
	// DataSizes counts DATA frames by payload size: up to 1 KiB, 4 KiB,
	// 16 KiB, 64 KiB, 256 KiB, 1 MiB, and above.
	DataSizes SizeCounts `json:"data_sizes"`
	// FlowBlockedSeconds is wall time the sender of this direction's DATA
	// had no HTTP/2 flow-control window left, on the connection or on an
	// open stream: from the DATA frame that used it up to the
	// WINDOW_UPDATE or SETTINGS that reopened it (intervals that ended).
	FlowBlockedSeconds float64 `json:"flow_blocked_seconds"`
}

// Add adds o to d.
func (d *H2Direction) add(o H2Direction) {
	if d.Frames == nil {
		d.Frames = map[string]int64{}
	}
	for k, v := range o.Frames {
		d.Frames[k] += v
	}
	d.DataBytes += o.DataBytes
	d.DataSizes.add(o.DataSizes)
	d.FlowBlockedSeconds += o.FlowBlockedSeconds
}

// Sub returns d - o.
func (d H2Direction) sub(o H2Direction) H2Direction {
	r := H2Direction{Frames: map[string]int64{}, DataBytes: d.DataBytes - o.DataBytes, DataSizes: d.DataSizes.sub(o.DataSizes),
		FlowBlockedSeconds: d.FlowBlockedSeconds - o.FlowBlockedSeconds}
	for k, v := range d.Frames {
		if n := v - o.Frames[k]; n != 0 {
			r.Frames[k] = n
		}
	}
	return r
}

// H2Frames are one end's HTTP/2 frame counts on h2c connections. Over TLS
// (h2) frames are not counted: net/http needs the *tls.Conn itself to
// negotiate h2, so there is no plaintext to parse without changing the
// path being measured.
type H2Frames struct {
	Connections int64       `json:"connections"` // h2c connections seen
	Sent        H2Direction `json:"sent"`
	Received    H2Direction `json:"received"`
}

// Add adds o to f.
func (f *H2Frames) Add(o H2Frames) {
	f.Connections += o.Connections
	f.Sent.add(o.Sent)
	f.Received.add(o.Received)
}

// Sub returns f - o.
func (f H2Frames) Sub(o H2Frames) H2Frames {
	return H2Frames{Connections: f.Connections - o.Connections, Sent: f.Sent.sub(o.Sent), Received: f.Received.sub(o.Received)}
}
