package h3

import (
	"bytes"

	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// qpackStaticStatus holds the :status of the QPACK static table's entries
// that carry one (RFC 9204, appendix A), by index; 0 elsewhere.
var qpackStaticStatus = [99]int16{
	24: 103, 25: 200, 26: 304, 27: 404, 28: 503,
	63: 100, 64: 204, 65: 206, 66: 302, 67: 400, 68: 403, 69: 421, 70: 425, 71: 500,
}

// qpackContentLength is the static table's index of "content-length: 0".
const qpackContentLength = 4

// The two fields a response is read for, as scan tells them apart.
const (
	fieldOther = iota
	fieldStatus
	fieldLength
)

// qpackLiteralNames are the names scan looks for when a field's name is a
// literal: as is, and Huffman-coded (names on the wire are lower case).
var qpackLiteralNames = []struct {
	raw   []byte
	huff  bool
	field int
}{
	{[]byte(":status"), false, fieldStatus},
	{hpack.AppendHuffmanString(nil, ":status"), true, fieldStatus},
	{[]byte("content-length"), false, fieldLength},
	{hpack.AppendHuffmanString(nil, "content-length"), true, fieldLength},
}

// qpackNumber is a field value scan decoded, kept so that the same bytes
// next time are not decoded again.
type qpackNumber struct {
	raw    []byte
	v      int64
	digits int
}

// scan reads a header block's :status and content-length (0 and -1 when
// absent) without decoding its other fields: a server's header blocks
// differ from one response to the next (Go servers write their header
// maps in random order and a Date each second), so a cache of whole
// blocks would miss. ok is false for what it leaves to the full decoder:
// a reference to a dynamic table (the client allowed none), a malformed
// block or value.
func (r *h3Response) scan(block []byte) (status int, length int64, ok bool) {
	// The prefix: Required Insert Count 0 and Delta Base 0 (sign either way).
	if len(block) < 2 || block[0] != 0 || block[1]&0x7f != 0 {
		return 0, -1, false
	}
	b, length := block[2:], int64(-1)
	for len(b) > 0 {
		if b[0]&0xc0 == 0xc0 { // indexed field line, static table: no value follows
			var st int
			var isLength bool
			if b, st, isLength, ok = indexedField(b); !ok {
				return 0, -1, false
			}
			if st != 0 {
				status = st
			} else if isLength {
				length = 0
			}
			continue
		}
		var field int
		if b, field, ok = literalName(b); !ok {
			return 0, -1, false
		}
		value, huff, rest, ok := qpackString(b, 7)
		if !ok {
			return 0, -1, false
		}
		b = rest
		switch field {
		case fieldStatus:
			v, digits, ok := r.number(value, huff)
			if !ok || digits != 3 {
				return 0, -1, false
			}
			status = int(v)
		case fieldLength:
			if length, _, ok = r.number(value, huff); !ok {
				return 0, -1, false
			}
		}
	}
	return status, length, true
}

// indexedField reads an indexed field line of the static table from the
// front of b: the status it gives, if any, or whether it is content-length
// (with an empty value).
func indexedField(b []byte) (rest []byte, status int, isLength, ok bool) {
	b, idx, ok := target.ReadPrefixInt(b, 6)
	if !ok || idx >= uint64(len(qpackStaticStatus)) {
		return nil, 0, false, false
	}
	return b, int(qpackStaticStatus[idx]), idx == qpackContentLength, true
}

// literalName reads the name of a literal field line from the front of b,
// up to its value: which of the two fields it is (fieldStatus, fieldLength
// or neither). ok is false for a dynamic table reference or a malformed
// line.
func literalName(b []byte) (rest []byte, field int, ok bool) {
	switch c := b[0]; {
	case c&0xd0 == 0x50: // literal field line with a static name reference
		b, idx, ok := target.ReadPrefixInt(b, 4)
		if !ok || idx >= uint64(len(qpackStaticStatus)) {
			return nil, 0, false
		}
		return b, staticField(idx), true
	case c&0xe0 == 0x20: // literal field line with a literal name
		name, huff, b, ok := qpackString(b, 3)
		if !ok {
			return nil, 0, false
		}
		return b, literalField(name, huff), true
	}
	return nil, 0, false // a dynamic table reference
}

// staticField says which of the two fields the static table's name at idx is.
func staticField(idx uint64) int {
	switch {
	case idx == qpackContentLength:
		return fieldLength
	case qpackStaticStatus[idx] != 0:
		return fieldStatus
	}
	return fieldOther
}

// literalField says which of the two fields a literal name is.
func literalField(name []byte, huff bool) int {
	for _, n := range qpackLiteralNames {
		if n.huff == huff && bytes.Equal(n.raw, name) {
			return n.field
		}
	}
	return fieldOther
}

// number reads a decimal field value, Huffman-coded or not; ok is false
// for anything but 1 to 18 digits. Coded values are decoded once while
// they repeat.
func (r *h3Response) number(raw []byte, huff bool) (v int64, digits int, ok bool) {
	if !huff {
		return parseDigits(raw)
	}
	for i := range r.numbers {
		if n := &r.numbers[i]; n.digits > 0 && bytes.Equal(n.raw, raw) {
			return n.v, n.digits, true
		}
	}
	s, err := hpack.HuffmanDecodeToString(raw)
	if err != nil {
		return 0, 0, false
	}
	if v, digits, ok = parseDigits([]byte(s)); ok {
		n := &r.numbers[r.nextNumber%len(r.numbers)]
		n.raw, n.v, n.digits = append(n.raw[:0], raw...), v, digits
		r.nextNumber++
	}
	return v, digits, ok
}

// parseDigits reads 1 to 18 decimal digits.
func parseDigits(b []byte) (v int64, digits int, ok bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, len(b), true
}

// qpackString reads a string literal whose length has an n-bit prefix (the
// bit above it says Huffman) from the front of b.
func qpackString(b []byte, n uint) (s []byte, huff bool, rest []byte, ok bool) {
	if len(b) == 0 {
		return nil, false, nil, false
	}
	huff = b[0]&(1<<n) != 0
	rest, length, ok := target.ReadPrefixInt(b, n)
	if !ok || length > uint64(len(rest)) {
		return nil, false, nil, false
	}
	return rest[:length], huff, rest[length:], true
}
