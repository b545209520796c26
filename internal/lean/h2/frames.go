package h2

import (
	"bytes"
	"fmt"
	"time"

	"golang.org/x/net/http2"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// handle processes one frame from the server, on the connection's reading
// goroutine (its readLoop, or its Loop), one method per frame type as
// x/net's client does.
func (hc *h2Conn) handle(f http2.Frame) error {
	switch f := f.(type) {
	case *http2.DataFrame:
		return hc.processData(f)
	case *http2.HeadersFrame:
		hc.hdrStream, hc.hdrEndStream, hc.hdrStatus = f.StreamID, f.StreamEnded(), 0
		return hc.headerBlock(f.HeaderBlockFragment(), true, f.HeadersEnded())
	case *http2.ContinuationFrame:
		return hc.headerBlock(f.HeaderBlockFragment(), false, f.HeadersEnded())
	case *http2.RSTStreamFrame:
		hc.processResetStream(f)
	case *http2.SettingsFrame:
		return hc.processSettings(f)
	case *http2.WindowUpdateFrame:
		hc.processWindowUpdate(f)
	case *http2.PingFrame:
		return hc.processPing(f)
	case *http2.GoAwayFrame:
		hc.processGoAway(f)
	}
	return nil
}

// processData counts a response's body bytes, ends its stream on
// END_STREAM, and returns flow-control credit once half a window is used.
func (hc *h2Conn) processData(f *http2.DataFrame) error {
	return hc.data(f.StreamID, f.Header().Length, len(f.Data()), f.StreamEnded())
}

// data is processData for a DATA frame on stream id of length bytes
// (padding included), n of them data.
func (hc *h2Conn) data(id, length uint32, n int, ended bool) error {
	hc.mu.Lock()
	s := hc.streams[id]
	var streamUpdate uint32
	if s != nil {
		s.bytes += int64(n)
		s.recvUnacked += length
		if !ended && s.recvUnacked >= hc.p.streamWindow/2 {
			streamUpdate, s.recvUnacked = s.recvUnacked, 0
		}
		if ended {
			hc.end(s, nil)
		}
	}
	hc.mu.Unlock()
	hc.recvUnacked += length
	connUpdate := uint32(0)
	if hc.recvUnacked >= hc.p.connWindow/2 {
		connUpdate, hc.recvUnacked = hc.recvUnacked, 0
	}
	if streamUpdate == 0 && connUpdate == 0 {
		return nil
	}
	return hc.write(func(fr *http2.Framer) error {
		if streamUpdate > 0 {
			if err := fr.WriteWindowUpdate(id, streamUpdate); err != nil {
				return err
			}
		}
		if connUpdate > 0 {
			return fr.WriteWindowUpdate(0, connUpdate)
		}
		return nil
	})
}

// processResetStream fails the stream the server reset.
func (hc *h2Conn) processResetStream(f *http2.RSTStreamFrame) {
	hc.mu.Lock()
	if s := hc.streams[f.StreamID]; s != nil {
		hc.end(s, fmt.Errorf("%w (%v)", target.ErrStreamReset, f.ErrCode))
	}
	hc.mu.Unlock()
}

// processSettings applies the server's stream limit, frame size and
// initial window (to open streams too), and acknowledges them.
func (hc *h2Conn) processSettings(f *http2.SettingsFrame) error {
	if f.IsAck() {
		return nil
	}
	hc.mu.Lock()
	err := f.ForeachSetting(func(s http2.Setting) error {
		switch s.ID {
		case http2.SettingMaxConcurrentStreams:
			hc.maxStreams = s.Val
		case http2.SettingMaxFrameSize:
			hc.peerMaxData = s.Val
		case http2.SettingHeaderTableSize:
			hc.tableSize(s.Val)
		case http2.SettingInitialWindowSize:
			delta := int64(s.Val) - hc.peerInitWin
			hc.peerInitWin = int64(s.Val)
			for _, st := range hc.streams {
				st.sendWin += delta
			}
		}
		return nil
	})
	hc.cond.Broadcast()
	hc.mu.Unlock()
	if err != nil {
		return err
	}
	return hc.write(func(fr *http2.Framer) error { return fr.WriteSettingsAck() })
}

// processWindowUpdate opens the connection's or a stream's send window.
func (hc *h2Conn) processWindowUpdate(f *http2.WindowUpdateFrame) {
	hc.mu.Lock()
	if f.StreamID == 0 {
		hc.sendWin += int64(f.Increment)
	} else if s := hc.streams[f.StreamID]; s != nil {
		s.sendWin += int64(f.Increment)
	}
	hc.cond.Broadcast()
	hc.mu.Unlock()
}

// processPing answers the server's pings.
func (hc *h2Conn) processPing(f *http2.PingFrame) error {
	if f.IsAck() {
		return nil
	}
	data := f.Data
	return hc.write(func(fr *http2.Framer) error { return fr.WritePing(true, data) })
}

// processGoAway stops new streams and fails those the server will not
// process.
func (hc *h2Conn) processGoAway(f *http2.GoAwayFrame) {
	hc.mu.Lock()
	hc.goingAway = true
	for id, s := range hc.streams {
		if id > f.LastStreamID {
			hc.end(s, fmt.Errorf("%w (%v) before stream %d started", target.ErrGoAway, f.ErrCode, id))
		}
	}
	hc.cond.Broadcast()
	hc.mu.Unlock()
}

// headerBlock decodes a fragment of the current header block and, at its
// end, gives the stream its status (the first block's; later ones are
// trailers) and ends it if the HEADERS frame said so. The framer has
// checked that CONTINUATION frames follow their HEADERS.
//
// A whole block (first and last) equal to the one before it, which left
// the decoder's table as it was, is not decoded again: servers answer
// repeated requests with the same few bytes of indexed fields.
func (hc *h2Conn) headerBlock(frag []byte, first, last bool) error {
	whole := first && last
	if whole && hc.sameBlock && bytes.Equal(frag, hc.lastBlock) {
		hc.hdrStatus = hc.lastStatus
	} else {
		if err := hc.decode(frag, last); err != nil {
			return err
		}
		if hc.sameBlock = whole && hpackStateless(frag); hc.sameBlock {
			hc.lastBlock = append(hc.lastBlock[:0], frag...)
			hc.lastStatus = hc.hdrStatus
		}
	}
	if !last {
		return nil
	}
	hc.mu.Lock()
	if s := hc.streams[hc.hdrStream]; s != nil {
		if s.status == 0 {
			s.status = hc.hdrStatus
			if hc.loop != nil {
				s.firstByte = hc.loop.now
			} else {
				s.firstByte = time.Now()
			}
		}
		if hc.hdrEndStream {
			hc.end(s, nil)
		}
	}
	hc.mu.Unlock()
	hc.hdrStream = 0
	return nil
}

// decode feeds frag to the HPACK decoder, and ends the block if last.
func (hc *h2Conn) decode(frag []byte, last bool) error {
	if _, err := hc.dec.Write(frag); err != nil {
		return http2.ConnectionError(http2.ErrCodeCompression)
	}
	if last {
		if err := hc.dec.Close(); err != nil {
			return http2.ConnectionError(http2.ErrCodeCompression)
		}
	}
	return nil
}

// end finishes s and frees its slot; hc.mu must be held.
func (hc *h2Conn) end(s *Stream, err error) {
	if hc.streams[s.id] != s {
		return
	}
	delete(hc.streams, s.id)
	hc.active--
	s.finish(err)
	hc.cond.Broadcast()
}
