package h2

import (
	"encoding/binary"

	"golang.org/x/net/http2"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// quickFrame handles the frame at the head of hc.br without the framer
// when it is one of the two frames of every response: DATA, or HEADERS
// holding its whole header block, with no header block open. It checks
// them as the framer would; everything else, and anything it would
// refuse, is left to the framer (false), which also reports the error.
// The framer allocates a HeadersFrame for each HEADERS; this does not.
// The caller has made sure the whole frame is buffered.
func (hc *h2Conn) quickFrame() (bool, error) {
	if hc.hdrStream != 0 {
		return false, nil // the framer checks that CONTINUATION follows
	}
	hdr, err := hc.br.Peek(9)
	if err != nil {
		return false, nil
	}
	length := uint32(hdr[0])<<16 | uint32(hdr[1])<<8 | uint32(hdr[2])
	typ, flags := http2.FrameType(hdr[3]), http2.Flags(hdr[4])
	id := binary.BigEndian.Uint32(hdr[5:]) & (1<<31 - 1)
	if typ > http2.FrameHeaders || id == 0 || length > hc.p.maxFrame || hc.br.Buffered() < 9+int(length) {
		return false, nil
	}
	if typ == http2.FrameHeaders && !flags.Has(http2.FlagHeadersEndHeaders) {
		return false, nil
	}
	frame, _ := hc.br.Peek(9 + int(length))
	payload := frame[9:]
	if flags.Has(http2.FlagDataPadded) { // the same bit on HEADERS
		if len(payload) == 0 || int(payload[0]) >= len(payload) {
			return false, nil
		}
		payload = payload[1 : len(payload)-int(payload[0])]
	}
	if typ == http2.FrameData {
		err = hc.data(id, length, len(payload), flags.Has(http2.FlagDataEndStream))
	} else {
		if flags.Has(http2.FlagHeadersPriority) {
			if len(payload) < 5 {
				return false, nil
			}
			payload = payload[5:]
		}
		hc.hdrStream, hc.hdrEndStream, hc.hdrStatus = id, flags.Has(http2.FlagHeadersEndStream), 0
		err = hc.headerBlock(payload, true, true)
	}
	_, _ = hc.br.Discard(len(frame)) // buffered, so it cannot fail
	return true, err
}

// hpackStateless says whether an HPACK header block leaves the decoder's
// dynamic table as it found it: only indexed fields and literals not
// indexed (RFC 7541, section 6), and well formed. Decoding such a block
// again, right after itself, gives the same fields.
func hpackStateless(b []byte) bool {
	for len(b) > 0 {
		var ok bool
		switch c := b[0]; {
		case c&0x80 != 0: // indexed field
			b, _, ok = target.ReadPrefixInt(b, 7)
		case c&0xc0 == 0x40, c&0xe0 == 0x20: // incremental indexing; table size update
			return false
		default: // literal without indexing, or never indexed
			var name uint64
			if b, name, ok = target.ReadPrefixInt(b, 4); ok && name == 0 {
				b, ok = hpackString(b)
			}
			if ok {
				b, ok = hpackString(b)
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// hpackString skips a string literal at the front of b.
func hpackString(b []byte) ([]byte, bool) {
	if len(b) == 0 {
		return nil, false
	}
	b, n, ok := target.ReadPrefixInt(b, 7)
	if !ok || n > uint64(len(b)) {
		return nil, false
	}
	return b[n:], true
}
