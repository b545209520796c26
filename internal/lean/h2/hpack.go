package h2

import (
	"bytes"

	"golang.org/x/net/http2/hpack"
)

// defaultTableSize is HPACK's dynamic table size until a peer's
// SETTINGS_HEADER_TABLE_SIZE says otherwise (RFC 7540, section 6.5.2).
const defaultTableSize = 4096

// requestBlocks encodes the request's header fields for HEADERS frames in
// two ways. plain has every field a never-indexed literal: it leaves the
// server's table as it was, so it can go on any stream. first and next
// use the table as h2load's and browsers' encoders do: first, a
// connection's first block, adds the fields to it; next, every later
// block, names them by index in a few bytes, so that the server decodes
// no string per request. They are nil when the fields do not stay in the
// default table (next would change it too).
func requestBlocks(fields []hpack.HeaderField) (plain, first, next []byte) {
	encode := func(enc *hpack.Encoder, buf *bytes.Buffer, sensitive bool) []byte {
		buf.Reset()
		for _, f := range fields {
			f.Sensitive = sensitive
			_ = enc.WriteField(f) // writes to a bytes.Buffer
		}
		return bytes.Clone(buf.Bytes())
	}
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	plain = encode(enc, &buf, true)
	first = encode(enc, &buf, false)
	next = encode(enc, &buf, false)
	if !hpackStateless(next) {
		return plain, nil, nil
	}
	return plain, first, next
}

// takeBlock returns the header block of the next HEADERS frame written on
// the connection; hc.mu must be held, and the write lock, so that blocks
// reach the server in the order the encoder's table assumes.
func (hc *h2Conn) takeBlock() []byte {
	switch {
	case hc.cutBlock != nil: // the server shrank its table: say so once
		b := hc.cutBlock
		hc.cutBlock = nil
		return b
	case hc.plainOnly || hc.p.first == nil:
		return hc.p.plain
	case !hc.indexed:
		hc.indexed = true
		return hc.p.first
	}
	return hc.p.next
}

// tableSize applies the server's SETTINGS_HEADER_TABLE_SIZE; hc.mu must
// be held. Below the default, the connection's blocks go plain from
// then on, the first of them led by a table size update to that size,
// which evicts what first added.
func (hc *h2Conn) tableSize(size uint32) {
	if size >= defaultTableSize || hc.plainOnly {
		return
	}
	hc.plainOnly = true
	update := hpackAppendInt([]byte{0x20}, 5, uint64(size))
	hc.cutBlock = append(update, hc.p.plain...)
}

// hpackAppendInt appends v as an HPACK integer with an n-bit prefix to b,
// whose last byte holds the prefix's leading bits.
func hpackAppendInt(b []byte, n uint, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		b[len(b)-1] |= byte(v)
		return b
	}
	b[len(b)-1] |= byte(limit)
	for v -= limit; v >= 0x80; v >>= 7 {
		b = append(b, byte(v)|0x80)
	}
	return append(b, byte(v))
}
