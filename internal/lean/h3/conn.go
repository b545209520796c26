package h3

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// HTTP/3 unidirectional stream types (RFC 9114, section 6.2; RFC 9204,
// section 4.2).
const (
	h3StreamControl      = 0x00
	h3StreamPush         = 0x01
	h3StreamQPACKEncoder = 0x02
	h3StreamQPACKDecoder = 0x03
)

// h3Settings is what the client's control stream carries: its type and
// an empty SETTINGS frame. The defaults are what the client wants: no
// QPACK dynamic table, no limit on the size of header blocks.
var h3Settings = []byte{h3StreamControl, h3FrameSettings, 0}

// h3Conn is one HTTP/3 connection: request streams on their workers'
// goroutines, and one goroutine per stream the server opens (its
// control stream, its QPACK streams).
type h3Conn struct {
	qc        *quic.Conn
	dead      atomic.Bool   // the QUIC connection has ended
	goingAway atomic.Bool   // the server sent GOAWAY: no new requests
	goAwayID  atomic.Uint64 // the first stream the server will not process, once goingAway
	active    atomic.Int64  // requests in flight
	settings  atomic.Bool   // the server's SETTINGS arrived
	ctrlSeen  atomic.Bool   // the server opened its control stream
	batch     writeBatch    // requests written together
}

func newH3Conn(qc *quic.Conn) (*h3Conn, error) {
	hc := &h3Conn{qc: qc}
	context.AfterFunc(qc.Context(), func() { hc.dead.Store(true) })
	ctrl, err := qc.OpenUniStream()
	if err == nil {
		_, err = ctrl.Write(h3Settings) // stays open: closing it is a connection error
	}
	if err != nil {
		qc.CloseWithError(h3NoError, "")
		return nil, fmt.Errorf("open HTTP/3 control stream: %w", err)
	}
	go hc.acceptStreams()
	return hc, nil
}

// close closes hc with an HTTP/3 error code, at once for new requests;
// the QUIC connection's close is waited for on a goroutine of its own.
func (hc *h3Conn) close(code uint64, why string) {
	hc.dead.Store(true)
	go hc.qc.CloseWithError(quic.ApplicationErrorCode(code), why)
}

// usable says whether new requests may start on hc.
func (hc *h3Conn) usable() bool { return !hc.dead.Load() && !hc.goingAway.Load() }

// release ends a request's hold on hc, closing it when it was the last on
// a connection the server is going away from.
func (hc *h3Conn) release() {
	if hc.active.Add(-1) == 0 && hc.goingAway.Load() {
		hc.close(h3NoError, "")
	}
}

// refused says whether a failed request on stream id was one the server's
// GOAWAY said it would not process.
func (hc *h3Conn) refused(id quic.StreamID) bool {
	return hc.goingAway.Load() && uint64(id) >= hc.goAwayID.Load()
}

// acceptStreams reads the streams the server opens until the connection ends.
func (hc *h3Conn) acceptStreams() {
	for {
		str, err := hc.qc.AcceptUniStream(context.Background())
		if err != nil {
			return
		}
		go hc.serverStream(str)
	}
}

// serverStream reads one unidirectional stream of the server's, by type
// (RFC 9114, section 6.2): its control stream for SETTINGS and GOAWAY;
// the QPACK streams are drained (the client allowed no dynamic table);
// pushes were never allowed; unknown types are refused.
func (hc *h3Conn) serverStream(str *quic.ReceiveStream) {
	br := bufio.NewReaderSize(str, 64)
	typ, err := quicvarint.Read(br)
	if err != nil {
		return
	}
	switch typ {
	case h3StreamControl:
		if !hc.ctrlSeen.CompareAndSwap(false, true) {
			hc.close(h3StreamCreationError, "second control stream")
			return
		}
		if code, why := hc.control(br); hc.qc.Context().Err() == nil {
			hc.close(code, why)
		}
	case h3StreamQPACKEncoder, h3StreamQPACKDecoder:
		_, _ = io.Copy(io.Discard, br)
	case h3StreamPush:
		hc.close(h3IDError, "push stream")
	default:
		str.CancelRead(h3StreamCreationError)
	}
}

// control reads the server's control stream: SETTINGS first, then GOAWAY
// (the only other frame a client acts on); others are skipped. It returns
// when the stream fails, with the error to close the connection with: a
// control stream may not end.
func (hc *h3Conn) control(br *bufio.Reader) (code uint64, why string) {
	for {
		typ, err := quicvarint.Read(br)
		if err != nil {
			return h3ClosedCriticalStream, "control stream ended"
		}
		length, err := quicvarint.Read(br)
		if err != nil {
			return h3ClosedCriticalStream, "control stream ended"
		}
		first := !hc.settings.Load()
		switch {
		case first && typ != h3FrameSettings:
			return h3MissingSettings, "first control frame is not SETTINGS"
		case !first && typ == h3FrameSettings:
			return h3FrameUnexpected, "second SETTINGS"
		case typ == h3FrameData || typ == h3FrameHeaders || typ == h3FramePushPromise:
			return h3FrameUnexpected, "request frame on the control stream"
		case typ == h3FrameGoAway:
			var payload [8]byte
			if length == 0 || length > 8 {
				return h3FrameError, "malformed GOAWAY"
			}
			if _, err := io.ReadFull(br, payload[:length]); err != nil {
				return h3ClosedCriticalStream, "control stream ended"
			}
			id, n := h3Varint(payload[:length])
			if uint64(n) != length {
				return h3FrameError, "malformed GOAWAY"
			}
			hc.goAway(id)
			continue
		}
		hc.settings.Store(true)
		if _, err := io.CopyN(io.Discard, br, int64(min(length, 1<<62))); err != nil {
			return h3ClosedCriticalStream, "control stream ended"
		}
	}
}

// goAway stops new requests on hc and closes it once none is in flight.
func (hc *h3Conn) goAway(id uint64) {
	hc.goAwayID.Store(id)
	hc.goingAway.Store(true)
	if hc.active.Load() == 0 {
		hc.close(h3NoError, "")
	}
}
