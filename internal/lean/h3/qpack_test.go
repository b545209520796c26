package h3

import (
	"bytes"
	"testing"
)

// TestQPACKScan: scan reads what qpack's decoder reads from blocks as
// quic-go's encoder writes them, and leaves to it what it cannot read.
func TestQPACKScan(t *testing.T) {
	blocks := [][]byte{
		qpackBlock(":status", "200"),
		qpackBlock(":status", "200", "content-length", "0"),
		qpackBlock("date", "Mon, 23 Nov 2026 17:55:14 GMT", ":status", "404", "content-length", "12345678901"),
		qpackBlock(":status", "503", "content-type", "text/plain; charset=utf-8", "x-long", string(bytes.Repeat([]byte("v"), 300))),
		qpackBlock(":status", "418", "content-length", "2"),
		qpackBlock(":status", "999"),
		qpackBlock(":status", "20"),
		qpackBlock(":status", "2000"),
		qpackBlock(":status", "abc"),
		qpackBlock(":status", "200", "content-length", "x"),
		qpackBlock("server", "only"),
		join([]byte{0, 0}, qpackLiteral(":status", "204", true)),
		join([]byte{0, 0}, qpackLiteral("content-length", "77", false), qpackLiteral(":status", "200", false)),
		{0, 0, 0x80},       // dynamic table
		{1, 0, 0xc0 | 25},  // Required Insert Count 1
		{0, 0, 0xff, 0x80}, // an index that never ends
	}
	for i := range 99 { // every static entry, indexed
		blocks = append(blocks, appendPrefixInt([]byte{0, 0}, 6, uint64(i)))
		blocks[len(blocks)-1][2] |= 0xc0
	}
	var r h3Response
	for _, block := range blocks {
		status, length, ok := r.scan(block)
		wantStatus, wantLength, err := r.decode(block)
		if ok && (err != nil || status != wantStatus || length != wantLength) {
			t.Errorf("block % x: scan read %d %d, the decoder %d %d %v", block, status, length, wantStatus, wantLength, err)
		}
		if !ok && err == nil && wantStatus >= 100 && wantStatus <= 999 {
			t.Errorf("block % x: scan gave up on a block the decoder reads (%d %d)", block, wantStatus, wantLength)
		}
	}
}

// FuzzQPACKScan reads arbitrary header blocks with scan and with qpack's
// decoder: where both read one, they read the same :status and
// content-length. (scan does not decode the fields it skips, so it may
// read a block whose other fields the decoder refuses.)
func FuzzQPACKScan(f *testing.F) {
	f.Add(qpackBlock(":status", "200", "content-length", "5", "server", "x"))
	f.Add(join([]byte{0, 0}, qpackLiteral(":status", "204", true), qpackLiteral("content-length", "77", false)))
	f.Add([]byte{0, 0, 0xc0 | 25})
	f.Fuzz(func(t *testing.T, block []byte) {
		var r h3Response
		status, length, ok := r.scan(block)
		wantStatus, wantLength, err := r.decode(block)
		if ok && err == nil && (status != wantStatus || length != wantLength) {
			t.Fatalf("scan read %d %d, the decoder %d %d", status, length, wantStatus, wantLength)
		}
	})
}
