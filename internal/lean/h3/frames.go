package h3

import (
	"fmt"
	"io"
	"strconv"

	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go/quicvarint"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/stats"
)

// HTTP/3 frame types (RFC 9114, section 7.2).
const (
	h3FrameData        = 0x00
	h3FrameHeaders     = 0x01
	h3FrameCancelPush  = 0x03
	h3FrameSettings    = 0x04
	h3FramePushPromise = 0x05
	h3FrameGoAway      = 0x07
	h3FrameMaxPushID   = 0x0d
)

// HTTP/3 error codes (RFC 9114, section 8.1; RFC 9204, section 6).
const (
	h3NoError              = 0x100
	h3StreamCreationError  = 0x103
	h3ClosedCriticalStream = 0x104
	h3FrameUnexpected      = 0x105
	h3FrameError           = 0x106
	h3IDError              = 0x108
	h3MissingSettings      = 0x10a
	h3RequestCancelled     = 0x10c
	h3MessageError         = 0x10e
	qpackDecompression     = 0x200
)

// maxH3HeaderBlock bounds a response's header block, in bytes: a
// benchmark's responses carry a few hundred.
const maxH3HeaderBlock = 1 << 20

// h3Violation is a response that breaks HTTP/3: code is the error the
// client closes the connection (conn) or resets the stream with.
type h3Violation struct {
	code uint64
	conn bool // a connection error; else the stream's alone
	msg  string
}

func (e *h3Violation) Error() string {
	return fmt.Sprintf("malformed HTTP/3 response (error 0x%x): %s", e.code, e.msg)
}

// Kind says a malformed response is a protocol failure.
func (e *h3Violation) Kind() stats.ErrorKind { return stats.ErrProtocol }

// h3Response reads one response from the bytes of its request stream, fed
// as they arrive (a frame may span reads): the status of the final
// response, its Content-Length and the bytes of its DATA frames. Only
// those two fields are read from header blocks (scan).
type h3Response struct {
	status   int   // the final response's :status; 0 until its HEADERS
	length   int64 // its content-length; -1 if none
	body     int64 // DATA payload bytes so far
	trailers bool  // trailers have arrived: no frame but unknown ones may follow

	head    [16]byte // a frame header split across reads
	nhead   int
	inFrame bool
	typ     uint64 // the current frame's type
	left    uint64 // its payload bytes not yet fed
	block   []byte // a HEADERS payload gathered across reads

	dec        *qpack.Decoder // for blocks scan leaves to it
	numbers    [2]qpackNumber // values scan decoded lately
	nextNumber int            // the next of numbers to replace
}

// reset readies r for the next response, keeping its buffers.
func (r *h3Response) reset() {
	r.status, r.length, r.body, r.trailers = 0, -1, 0, false
	r.nhead, r.inFrame, r.typ, r.left = 0, false, 0, 0
	r.block = r.block[:0]
}

// feed takes the next bytes of the response.
func (r *h3Response) feed(p []byte) error {
	for len(p) > 0 {
		if !r.inFrame {
			p = p[r.frameHeader(p):]
			if !r.inFrame {
				return nil // a frame header split across reads
			}
			if err := r.startFrame(); err != nil {
				return err
			}
			if r.left == 0 {
				if err := r.endFrame(); err != nil {
					return err
				}
			}
			continue
		}
		n := min(uint64(len(p)), r.left)
		chunk := p[:n]
		p, r.left = p[n:], r.left-n
		switch r.typ {
		case h3FrameData:
			r.body += int64(n)
		case h3FrameHeaders:
			if r.left == 0 && len(r.block) == 0 {
				r.inFrame = false
				if err := r.headers(chunk); err != nil { // whole in one read: no copy
					return err
				}
				continue
			}
			r.block = append(r.block, chunk...)
		}
		if r.left == 0 {
			if err := r.endFrame(); err != nil {
				return err
			}
		}
	}
	return nil
}

// end checks the response once the stream has ended.
func (r *h3Response) end() error {
	switch {
	case r.inFrame || r.nhead > 0:
		if r.status != 0 {
			return fmt.Errorf("stream ended inside a frame after %d body bytes: %w", r.body, io.ErrUnexpectedEOF)
		}
		return &h3Violation{h3FrameError, true, "stream ended inside a frame"}
	case r.status == 0:
		return fmt.Errorf("stream ended before a response: %w", target.ErrClosed)
	case r.length >= 0 && r.body != r.length:
		return fmt.Errorf("%w: %d bytes, Content-Length %d", target.ErrShortBody, r.body, r.length)
	}
	return nil
}

// frameHeader reads a frame's type and length from the front of p (after
// any part of it held from the read before) and returns how many bytes of
// p it used; r.inFrame says whether the header is now whole.
func (r *h3Response) frameHeader(p []byte) int {
	if r.nhead == 0 {
		if typ, n1 := h3Varint(p); n1 > 0 {
			if length, n2 := h3Varint(p[n1:]); n2 > 0 {
				r.typ, r.left, r.inFrame = typ, length, true
				return n1 + n2
			}
		}
	}
	n := copy(r.head[r.nhead:], p)
	held := r.head[:r.nhead+n]
	if typ, n1 := h3Varint(held); n1 > 0 {
		if length, n2 := h3Varint(held[n1:]); n2 > 0 {
			used := n1 + n2 - r.nhead
			r.typ, r.left, r.inFrame, r.nhead = typ, length, true, 0
			return used
		}
	}
	r.nhead += n
	return n
}

// startFrame checks that a frame of r.typ may come now (RFC 9114, section
// 4.1): HEADERS, then DATA, then trailers; frames of unknown types are
// skipped. No push was allowed, so PUSH_PROMISE is an error too.
func (r *h3Response) startFrame() error {
	switch r.typ {
	case h3FrameData:
		if r.status == 0 || r.trailers {
			return &h3Violation{h3FrameUnexpected, true, "DATA outside a response's body"}
		}
	case h3FrameHeaders:
		if r.trailers {
			return &h3Violation{h3FrameUnexpected, true, "HEADERS after trailers"}
		}
		if r.left > maxH3HeaderBlock {
			return &h3Violation{h3MessageError, false, fmt.Sprintf("header block of %d bytes", r.left)}
		}
	case h3FramePushPromise:
		return &h3Violation{h3IDError, true, "PUSH_PROMISE, which the client never allowed"}
	case h3FrameCancelPush, h3FrameSettings, h3FrameGoAway, h3FrameMaxPushID, 0x02, 0x06, 0x08, 0x09:
		return &h3Violation{h3FrameUnexpected, true, fmt.Sprintf("frame type 0x%x on a request stream", r.typ)}
	}
	return nil
}

// endFrame finishes a frame whose payload has all arrived.
func (r *h3Response) endFrame() error {
	r.inFrame = false
	if r.typ != h3FrameHeaders {
		return nil
	}
	err := r.headers(r.block)
	r.block = r.block[:0]
	return err
}

// headers takes one whole header block: an interim (1xx) response's, the
// final response's, or trailers.
func (r *h3Response) headers(block []byte) error {
	status, length, ok := r.scan(block)
	if !ok {
		var err error
		if status, length, err = r.decode(block); err != nil {
			return err
		}
	}
	switch {
	case r.status != 0:
		r.trailers = true // their fields are not needed
	case status < 100 || status > 999:
		return &h3Violation{h3MessageError, false, "response without a valid :status"}
	case status == 101:
		return &h3Violation{h3MessageError, false, "101 Switching Protocols on HTTP/3"}
	case status >= 200:
		r.status, r.length = status, length
	}
	return nil // an interim response: the final one follows
}

// decode reads a header block's :status and content-length (0 and -1 when
// absent).
func (r *h3Response) decode(block []byte) (status int, length int64, err error) {
	if r.dec == nil {
		r.dec = qpack.NewDecoder()
	}
	length = -1
	next := r.dec.Decode(block)
	for {
		f, err := next()
		if err == io.EOF {
			return status, length, nil
		}
		if err != nil {
			return 0, -1, &h3Violation{qpackDecompression, true, err.Error()}
		}
		switch f.Name {
		case ":status":
			if status, err = strconv.Atoi(f.Value); err != nil || len(f.Value) != 3 {
				return 0, -1, &h3Violation{h3MessageError, false, fmt.Sprintf(":status %q", f.Value)}
			}
		case "content-length":
			if length, err = strconv.ParseInt(f.Value, 10, 64); err != nil || length < 0 {
				return 0, -1, &h3Violation{h3MessageError, false, fmt.Sprintf("content-length %q", f.Value)}
			}
		}
	}
}

// h3Varint reads a QUIC variable-length integer (RFC 9000, section 16)
// from the front of b; n is 0 when b holds only part of one.
func h3Varint(b []byte) (v uint64, n int) {
	v, n, err := quicvarint.Parse(b)
	if err != nil {
		return 0, 0
	}
	return v, n
}
