package wire

import (
	"bytes"
	"encoding/binary"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/stats"
)

// h2Preface is what an HTTP/2 client sends before its first frame.
const h2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// h2Counter is the shared, atomic tally of one class of connections'
// frames in one direction.
type h2Counter struct {
	frames    [11]atomic.Int64 // by type; index 10 for unknown types
	dataBytes atomic.Int64
	// flowBlocked is nanoseconds the DATA sender of this direction had no
	// flow-control window (h2Flow), over intervals that have ended.
	flowBlocked atomic.Int64
	dataSizes   [len(stats.SizeCounts{})]atomic.Int64
}

// frameTypes names the HTTP/2 frame types counted, by type code (RFC 9113
// section 6): DATA 0 to CONTINUATION 9.
var frameTypes = [10]string{"data", "headers", "priority", "rst_stream", "settings", "push_promise", "ping", "goaway", "window_update", "continuation"}

func (c *h2Counter) snapshot() stats.H2Direction {
	d := stats.H2Direction{Frames: map[string]int64{}, DataBytes: c.dataBytes.Load(), FlowBlockedSeconds: time.Duration(c.flowBlocked.Load()).Seconds()}
	for i := range c.frames {
		if n := c.frames[i].Load(); n > 0 {
			name := "unknown"
			if i < len(frameTypes) {
				name = frameTypes[i]
			}
			d.Frames[name] = n
		}
	}
	for i := range c.dataSizes {
		d.DataSizes[i] = c.dataSizes[i].Load()
	}
	return d
}

func (c *h2Counter) frame(typ byte, length int64) {
	if int(typ) >= len(frameTypes) {
		typ = byte(len(frameTypes))
	}
	c.frames[typ].Add(1)
	if typ == 0 {
		c.dataBytes.Add(length)
		c.dataSizes[sizeBucket(length)].Add(1)
	}
}

// H2Counters are the HTTP/2 frames of a class of cleartext connections,
// both directions, from one end's point of view. The zero value is ready
// to use.
type H2Counters struct {
	conns          atomic.Int64
	sent, received h2Counter
}

// Snapshot returns the frame counts so far.
func (c *H2Counters) Snapshot() stats.H2Frames {
	return stats.H2Frames{Connections: c.conns.Load(), Sent: c.sent.snapshot(), Received: c.received.snapshot()}
}

// frameParser follows one direction of a connection and counts its HTTP/2
// frames without copying their payloads: it reads 9-byte headers and
// skips the lengths they announce. With a preface to expect (the
// client-to-server direction) it first checks for it and gives up on a
// connection that turns out to be HTTP/1.1; the other direction follows
// its peer's verdict through decided.
type frameParser struct {
	c       *h2Counter
	preface int  // preface bytes still to match; -1 when not expected
	off     bool // not HTTP/2: count nothing
	hdr     [9]byte
	hdrN    int
	skip    int64         // payload bytes of the current frame still to pass
	decided *atomic.Int32 // shared with the connection's other parser
	conns   *atomic.Int64 // counts the connection once its preface is seen

	flow    *h2Flow // shared with the other parser
	dir     int     // 0: this end writes the frames; 1: it reads them
	collect bool    // gathering a control frame's payload
	ctlType byte
	ctlID   uint32
	payload []byte
}

// newFrameParsers returns the read and write parsers of one connection of
// class c: the server reads the preface, the client writes it.
func newFrameParsers(c *H2Counters, client bool) (read, write *frameParser) {
	decided := new(atomic.Int32)
	flow := newH2Flow(&c.sent, &c.received)
	read = &frameParser{c: &c.received, preface: -1, decided: decided, conns: &c.conns, flow: flow, dir: 1}
	write = &frameParser{c: &c.sent, preface: -1, decided: decided, conns: &c.conns, flow: flow, dir: 0}
	if client {
		write.preface = len(h2Preface)
	} else {
		read.preface = len(h2Preface)
	}
	return read, write
}

// Verdicts shared by a connection's two parsers.
const (
	undecided int32 = iota
	isH2
	notH2
)

func (p *frameParser) feed(b []byte) {
	if p.off {
		return
	}
	if p.preface > 0 {
		n := min(p.preface, len(b))
		start := len(h2Preface) - p.preface
		if !bytes.Equal(b[:n], []byte(h2Preface[start:start+n])) {
			p.off = true
			p.decided.Store(notH2)
			return
		}
		p.preface -= n
		b = b[n:]
		if p.preface > 0 {
			return
		}
		p.decided.Store(isH2)
		p.conns.Add(1)
	}
	if p.preface < 0 {
		switch p.decided.Load() {
		case notH2:
			p.off = true
			return
		case undecided:
			// The peer's preface has not been seen yet: a server speaks
			// first only in HTTP/1.1 (never), so wait; a client sees the
			// server's SETTINGS only after sending its preface.
			return
		}
	}
	for len(b) > 0 {
		if p.skip > 0 {
			n := min(p.skip, int64(len(b)))
			if p.collect {
				p.payload = append(p.payload, b[:n]...)
			}
			p.skip -= n
			b = b[n:]
			if p.skip == 0 && p.collect {
				p.control()
			}
			continue
		}
		n := copy(p.hdr[p.hdrN:], b)
		p.hdrN += n
		b = b[n:]
		if p.hdrN < len(p.hdr) {
			return
		}
		p.hdrN = 0
		length := int64(p.hdr[0])<<16 | int64(p.hdr[1])<<8 | int64(p.hdr[2])
		p.c.frame(p.hdr[3], length)
		p.skip = length
		if p.flow != nil {
			p.follow(length)
		}
	}
}

// Frame types and flags the flow follower reads.
const (
	frameData, frameHeaders, frameRSTStream, frameSettings, frameWindowUpdate = 0, 1, 3, 4, 8
	flagEndStream, flagAck                                                    = 0x1, 0x1
	settingInitialWindowSize                                                  = 0x4
	maxControlPayload                                                         = 1 << 10
)

// follow feeds the flow-control follower the frame whose header is in
// p.hdr; WINDOW_UPDATE and SETTINGS payloads are collected for control.
func (p *frameParser) follow(length int64) {
	typ, flags := p.hdr[3], p.hdr[4]
	id := binary.BigEndian.Uint32(p.hdr[5:9]) & (1<<31 - 1)
	switch typ {
	case frameData:
		p.flow.data(p.dir, id, length, flags&flagEndStream != 0)
	case frameHeaders:
		if flags&flagEndStream != 0 {
			p.flow.closed(p.dir, id)
		}
	case frameRSTStream:
		p.flow.closed(0, id)
		p.flow.closed(1, id)
	case frameSettings, frameWindowUpdate:
		if (typ == frameSettings && flags&flagAck != 0) || length > maxControlPayload || length == 0 {
			return
		}
		p.collect, p.ctlType, p.ctlID, p.payload = true, typ, id, p.payload[:0]
	}
}

// control applies a collected WINDOW_UPDATE or SETTINGS: both grant
// window to DATA going the other way.
func (p *frameParser) control() {
	p.collect = false
	other := 1 - p.dir
	if p.ctlType == frameWindowUpdate {
		if len(p.payload) == 4 {
			p.flow.windowUpdate(other, p.ctlID, int64(binary.BigEndian.Uint32(p.payload)&(1<<31-1)))
		}
		return
	}
	for s := p.payload; len(s) >= 6; s = s[6:] {
		if binary.BigEndian.Uint16(s) == settingInitialWindowSize {
			p.flow.initialWindow(other, int64(binary.BigEndian.Uint32(s[2:])))
		}
	}
}
