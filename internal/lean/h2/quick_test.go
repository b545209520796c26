package h2

import (
	"bufio"
	"bytes"
	"strconv"
	"sync"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// quickConn is an h2Conn reading the frames write writes, with stream 1
// open.
func quickConn(t *testing.T, write func(*http2.Framer, []byte)) (*h2Conn, *Stream) {
	t.Helper()
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	_ = enc.WriteField(hpack.HeaderField{Name: ":status", Value: "204"})
	_ = enc.WriteField(hpack.HeaderField{Name: "x", Value: "y"})
	var wire bytes.Buffer
	write(http2.NewFramer(&wire, nil), block.Bytes())
	p := &Client{streamWindow: leanH2StreamWindow, connWindow: leanH2ConnWindow, maxFrame: 1 << 20}
	hc := &h2Conn{p: p, streams: map[uint32]*Stream{}, bw: bufio.NewWriter(&bytes.Buffer{})}
	hc.cond = sync.NewCond(&hc.mu)
	hc.br = bufio.NewReader(&wire)
	hc.fr = http2.NewFramer(hc.bw, hc.br)
	hc.fr.SetMaxReadFrameSize(p.maxFrame)
	hc.dec = hpack.NewDecoder(4096, func(f hpack.HeaderField) {
		if f.Name == ":status" && hc.hdrStatus == 0 {
			hc.hdrStatus, _ = strconv.Atoi(f.Value)
		}
	})
	s := &Stream{id: 1, done: make(chan error, 1)}
	hc.streams[1] = s
	hc.active = 1
	if _, err := hc.br.Peek(wire.Len()); err != nil {
		t.Fatal(err)
	}
	return hc, s
}

// TestQuickFrame: DATA and HEADERS frames, padded or with priority, are
// read without the framer and give what the framer would; frames it
// must not take (CONTINUATION sequences, bad padding, stream 0) are
// left to the framer, which refuses the bad ones.
func TestQuickFrame(t *testing.T) {
	tests := []struct {
		name         string
		write        func(fr *http2.Framer, block []byte)
		quick        int // frames quickFrame takes before leaving one
		status       int
		bytes        int64
		ended        bool
		framerRefuse bool // the frame left over is a connection error
	}{
		{"headers and data", func(fr *http2.Framer, b []byte) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b, EndHeaders: true})
			fr.WriteData(1, true, []byte("hello"))
		}, 2, 204, 5, true, false},
		{"padded, with priority", func(fr *http2.Framer, b []byte) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b, EndHeaders: true, PadLength: 7,
				Priority: http2.PriorityParam{StreamDep: 0, Weight: 15}})
			fr.WriteDataPadded(1, false, []byte("abc"), make([]byte, 9))
			fr.WriteDataPadded(1, true, nil, make([]byte, 3))
		}, 3, 204, 3, true, false},
		{"headers ending the stream", func(fr *http2.Framer, b []byte) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b, EndHeaders: true, EndStream: true})
		}, 1, 204, 0, true, false},
		{"continuation", func(fr *http2.Framer, b []byte) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b[:1]})
			fr.WriteContinuation(1, true, b[1:])
		}, 0, 0, 0, false, false},
		{"padding longer than the frame", func(fr *http2.Framer, b []byte) {
			fr.WriteRawFrame(http2.FrameData, http2.FlagDataPadded, 1, []byte{4, 'a', 'b'})
		}, 0, 0, 0, false, true},
		{"data on stream 0", func(fr *http2.Framer, b []byte) {
			fr.WriteRawFrame(http2.FrameData, 0, 0, []byte("x"))
		}, 0, 0, 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hc, s := quickConn(t, tt.write)
			for i := range tt.quick {
				if done, err := hc.quickFrame(); !done || err != nil {
					t.Fatalf("frame %d: quickFrame took it %v, error %v", i, done, err)
				}
			}
			if hc.br.Buffered() > 0 {
				if done, err := hc.quickFrame(); done || err != nil {
					t.Fatalf("quickFrame took a frame it must leave (error %v)", err)
				}
				f, err := hc.fr.ReadFrame()
				if tt.framerRefuse != (err != nil) {
					t.Fatalf("framer read %v, %v; want refused %v", f, err, tt.framerRefuse)
				}
			}
			ended := hc.streams[1] == nil
			if s.status != tt.status || s.bytes != tt.bytes || ended != tt.ended {
				t.Fatalf("status %d bytes %d ended %v, want %d %d %v", s.status, s.bytes, ended, tt.status, tt.bytes, tt.ended)
			}
		})
	}
}

// TestHpackStateless: only blocks of indexed fields and literals not
// indexed, well formed, leave the decoder's table as it was.
func TestHpackStateless(t *testing.T) {
	encode := func(fields ...hpack.HeaderField) []byte {
		var b bytes.Buffer
		enc := hpack.NewEncoder(&b)
		for _, f := range fields {
			_ = enc.WriteField(f)
		}
		return b.Bytes()
	}
	tests := []struct {
		name  string
		block []byte
		want  bool
	}{
		{"empty", nil, true},
		{"static index", encode(hpack.HeaderField{Name: ":status", Value: "200"}), true},
		{"never indexed, new name", encode(hpack.HeaderField{Name: "x-long-name", Value: "v", Sensitive: true}), true},
		{"incremental indexing", encode(hpack.HeaderField{Name: "x-a", Value: "b"}), false},
		{"table size update", []byte{0x3f, 0xe1, 0x1f, 0x88}, false},
		{"index with continuation bytes", []byte{0xff, 0x80, 0x01}, true},
		{"integer cut short", []byte{0x0f}, false},
		{"string longer than the block", []byte{0x00, 0x05, 'a', 'b'}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hpackStateless(tt.block); got != tt.want {
				t.Fatalf("hpackStateless(% x) = %v, want %v", tt.block, got, tt.want)
			}
		})
	}
}

// TestHeaderBlockRepeat: a header block equal to the one before is not
// decoded again only when nothing has changed the HPACK table between
// them: the same byte naming a dynamic entry means another status once a
// block in between has inserted one.
func TestHeaderBlockRepeat(t *testing.T) {
	hc, _ := quickConn(t, func(*http2.Framer, []byte) {})
	var b bytes.Buffer
	enc := hpack.NewEncoder(&b)
	block := func(status string) []byte {
		b.Reset()
		_ = enc.WriteField(hpack.HeaderField{Name: ":status", Value: status})
		return append([]byte(nil), b.Bytes()...)
	}
	steps := []struct {
		block  []byte
		status int
	}{
		{block("299"), 299}, // inserted as dynamic entry 62
		{block("299"), 299}, // 62, indexed
		{[]byte{0xbe}, 299}, // 62 again: repeated
		{block("298"), 298}, // inserted: 62 is now 298
		{[]byte{0xbe}, 298}, // the same byte as before, another field
		{[]byte{0xbe}, 298}, // repeated
		{[]byte{0x88}, 200}, // static
		{block("x")[:1], 0}, // a cut-off block fails
	}
	for i, st := range steps {
		hc.hdrStatus = 0
		err := hc.headerBlock(st.block, true, true)
		if (err != nil) != (st.status == 0) || hc.hdrStatus != st.status {
			t.Fatalf("step %d: block % x gave status %d, error %v; want %d", i, st.block, hc.hdrStatus, err, st.status)
		}
	}
}
