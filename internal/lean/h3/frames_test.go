package h3

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go/quicvarint"
	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// h3Frame is one HTTP/3 frame.
func h3Frame(typ uint64, payload []byte) []byte {
	b := quicvarint.Append(nil, typ)
	b = quicvarint.Append(b, uint64(len(payload)))
	return append(b, payload...)
}

// qpackBlock is a header block of fields as quic-go's servers encode them.
func qpackBlock(fields ...string) []byte {
	var b bytes.Buffer
	enc := qpack.NewEncoder(&b)
	for i := 0; i+1 < len(fields); i += 2 {
		_ = enc.WriteField(qpack.HeaderField{Name: fields[i], Value: fields[i+1]})
	}
	return b.Bytes()
}

// qpackLiteral is a field line with a literal name (RFC 9204, section
// 4.5.6), Huffman-coded or not: what quic-go's encoder never writes for
// :status or content-length, but another server may.
func qpackLiteral(name, value string, huff bool) []byte {
	str := func(b []byte, n uint, flags byte, s string) []byte {
		raw := []byte(s)
		if huff {
			raw = hpack.AppendHuffmanString(nil, s)
			flags |= 1 << n
		}
		start := len(b)
		b = appendPrefixInt(b, n, uint64(len(raw)))
		b[start] |= flags
		return append(b, raw...)
	}
	b := str(nil, 3, 0x20, name)
	return str(b, 7, 0, value)
}

// appendPrefixInt appends v as an integer with an n-bit prefix (RFC 7541,
// section 5.1).
func appendPrefixInt(b []byte, n uint, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		return append(b, byte(v))
	}
	b = append(b, byte(limit))
	for v -= limit; v >= 128; v >>= 7 {
		b = append(b, byte(v&0x7f|0x80))
	}
	return append(b, byte(v))
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	ok200    = h3Frame(h3FrameHeaders, qpackBlock(":status", "200", "content-length", "5", "server", "x", "date", "Mon, 23 Nov 2026 17:55:14 GMT"))
	hello    = h3Frame(h3FrameData, []byte("hello"))
	trailers = h3Frame(h3FrameHeaders, qpackBlock("x-checksum", "abc"))
)

// h3Cases are response streams and what reading them gives: the status,
// the body bytes and the kind of failure (ErrOther for none).
var h3Cases = []struct {
	name   string
	stream []byte
	status int
	body   int64
	kind   stats.ErrorKind
}{
	{"200 with content-length", join(ok200, hello), 200, 5, stats.ErrOther},
	{"no content-length, two DATA", join(h3Frame(h3FrameHeaders, qpackBlock(":status", "200")), h3Frame(h3FrameData, []byte("abc")), h3Frame(h3FrameData, []byte("defg"))), 200, 7, stats.ErrOther},
	{"interim responses first", join(h3Frame(h3FrameHeaders, qpackBlock(":status", "100")), h3Frame(h3FrameHeaders, qpackBlock(":status", "103", "link", "</a>")), ok200, hello), 200, 5, stats.ErrOther},
	{"trailers", join(ok200, hello, trailers), 200, 5, stats.ErrOther},
	{"unknown frame types skipped", join(h3Frame(0x21, []byte("grease")), ok200, h3Frame(0x1f*7+0x21, nil), hello, h3Frame(0x21, []byte{1, 2})), 200, 5, stats.ErrOther},
	{"empty DATA frames", join(ok200, h3Frame(h3FrameData, nil), hello, h3Frame(h3FrameData, nil)), 200, 5, stats.ErrOther},
	{"404", join(h3Frame(h3FrameHeaders, qpackBlock(":status", "404", "content-length", "9")), h3Frame(h3FrameData, []byte("not found"))), 404, 9, stats.ErrOther},
	{"status without a static entry", join(h3Frame(h3FrameHeaders, qpackBlock(":status", "299")), hello), 299, 5, stats.ErrOther},
	{"literal names", join(h3Frame(h3FrameHeaders, join([]byte{0, 0}, qpackLiteral(":status", "201", false), qpackLiteral("content-length", "5", true))), hello), 201, 5, stats.ErrOther},
	{"literal names, Huffman", join(h3Frame(h3FrameHeaders, join([]byte{0, 0}, qpackLiteral(":status", "202", true), qpackLiteral("content-length", "5", false))), hello), 202, 5, stats.ErrOther},
	{"body short of content-length", join(h3Frame(h3FrameHeaders, qpackBlock(":status", "200", "content-length", "10")), hello), 200, 5, stats.ErrShort},
	{"body past content-length", join(h3Frame(h3FrameHeaders, qpackBlock(":status", "200", "content-length", "1")), hello), 200, 5, stats.ErrShort},
	{"stream ends inside DATA", join(ok200, hello[:4]), 200, 2, stats.ErrShort},
	{"stream ends inside a frame header", join(ok200, hello[:1]), 200, 0, stats.ErrShort},
	{"empty stream", nil, 0, 0, stats.ErrReset},
	{"only interim", h3Frame(h3FrameHeaders, qpackBlock(":status", "100")), 0, 0, stats.ErrReset},
	{"DATA before HEADERS", join(hello, ok200), 0, 0, stats.ErrProtocol},
	{"DATA after trailers", join(ok200, trailers, hello), 200, 0, stats.ErrProtocol},
	{"HEADERS after trailers", join(ok200, hello, trailers, trailers), 200, 5, stats.ErrProtocol},
	{"PUSH_PROMISE", join(ok200, h3Frame(h3FramePushPromise, []byte{0, 0, 0})), 200, 0, stats.ErrProtocol},
	{"SETTINGS on a request stream", join(h3Frame(h3FrameSettings, nil), ok200), 0, 0, stats.ErrProtocol},
	{"HTTP/2 frame type", join(ok200, h3Frame(0x06, []byte("pingping"))), 200, 0, stats.ErrProtocol},
	{"no :status", join(h3Frame(h3FrameHeaders, qpackBlock("server", "x")), hello), 0, 0, stats.ErrProtocol},
	{":status of two digits", h3Frame(h3FrameHeaders, qpackBlock(":status", "20")), 0, 0, stats.ErrProtocol},
	{"101", h3Frame(h3FrameHeaders, qpackBlock(":status", "101")), 0, 0, stats.ErrProtocol},
	{"bad content-length", h3Frame(h3FrameHeaders, qpackBlock(":status", "200", "content-length", "-1")), 0, 0, stats.ErrProtocol},
	{"dynamic table reference", h3Frame(h3FrameHeaders, []byte{0, 0, 0x80}), 0, 0, stats.ErrProtocol},
	{"empty header block", h3Frame(h3FrameHeaders, nil), 0, 0, stats.ErrProtocol},
	{"header block too big", join(quicvarint.Append(nil, h3FrameHeaders), quicvarint.Append(nil, maxH3HeaderBlock+1)), 0, 0, stats.ErrProtocol},
}

// readH3 feeds stream to a fresh response in the pieces split cuts it into,
// then ends it.
func readH3(r *h3Response, stream []byte, cuts ...int) error {
	r.reset()
	last := 0
	for _, c := range append(cuts, len(stream)) {
		if err := r.feed(stream[last:c]); err != nil {
			return err
		}
		last = c
	}
	return r.end()
}

// TestH3Response reads every case whole, a byte at a time and cut in two
// at every offset: the pieces a stream arrives in change nothing.
func TestH3Response(t *testing.T) {
	var r h3Response // reused, as a stream reuses its own
	for _, tt := range h3Cases {
		t.Run(tt.name, func(t *testing.T) {
			check := func(how string, err error) {
				t.Helper()
				kind := stats.ErrOther
				if err != nil {
					kind = transport.Classify(err)
				}
				if kind != tt.kind || (err == nil) != (tt.kind == stats.ErrOther) || r.status != tt.status || r.body != tt.body {
					t.Fatalf("%s: status %d body %d error %v (%v); want %d %d %v", how, r.status, r.body, err, kind, tt.status, tt.body, tt.kind)
				}
			}
			check("whole", readH3(&r, tt.stream))
			var bytewise []int
			for i := 1; i < len(tt.stream); i++ {
				bytewise = append(bytewise, i)
			}
			check("a byte at a time", readH3(&r, tt.stream, bytewise...))
			for i := 1; i < len(tt.stream); i++ {
				check("cut", readH3(&r, tt.stream, i))
			}
		})
	}
}

// TestH3ResponseErrors: the failures that say what the server did wrong
// are the lean client's own, found with errors.Is and errors.As.
func TestH3ResponseErrors(t *testing.T) {
	var r h3Response
	if err := readH3(&r, join(h3Frame(h3FrameHeaders, qpackBlock(":status", "200", "content-length", "10")), hello)); !errors.Is(err, target.ErrShortBody) {
		t.Errorf("short body: %v", err)
	}
	if err := readH3(&r, nil); !errors.Is(err, target.ErrClosed) {
		t.Errorf("empty stream: %v", err)
	}
	if err := readH3(&r, join(ok200, hello[:3])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut DATA: %v", err)
	}
	var v *h3Violation
	if err := readH3(&r, join(hello, ok200)); !errors.As(err, &v) || v.code != h3FrameUnexpected || !v.conn {
		t.Errorf("DATA first: %v", err)
	}
	if err := readH3(&r, h3Frame(h3FrameHeaders, qpackBlock("server", "x"))); !errors.As(err, &v) || v.code != h3MessageError || v.conn {
		t.Errorf("no :status: %v", err)
	}
}

// TestH3ScanAllocations: reading the same kind of response again, fields
// in another order, allocates nothing.
func TestH3ScanAllocations(t *testing.T) {
	streams := [][]byte{
		join(ok200, hello),
		join(h3Frame(h3FrameHeaders, qpackBlock("date", "x", "content-length", "5", ":status", "200")), hello),
	}
	var r h3Response
	for _, s := range streams {
		if err := readH3(&r, s); err != nil {
			t.Fatal(err)
		}
	}
	i := 0
	if n := testing.AllocsPerRun(100, func() {
		r.reset()
		if err := r.feed(streams[i%2]); err != nil {
			t.Fatal(err)
		}
		if err := r.end(); err != nil {
			t.Fatal(err)
		}
		i++
	}); n != 0 {
		t.Errorf("%.1f allocations per response", n)
	}
}

// FuzzH3Response reads arbitrary bytes as a response stream, whole and cut
// in two: it never panics, never counts more body than it was given, and
// where it cuts changes nothing.
func FuzzH3Response(f *testing.F) {
	for _, c := range h3Cases {
		f.Add(c.stream, uint(len(c.stream)/2))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint) {
		var whole, parts h3Response
		werr := readH3(&whole, in)
		perr := readH3(&parts, in, int(cut%uint(len(in)+1)))
		if whole.body < 0 || whole.body > int64(len(in)) {
			t.Fatalf("body %d bytes from %d bytes of input", whole.body, len(in))
		}
		if (werr == nil) != (perr == nil) || whole.status != parts.status || whole.body != parts.body || whole.length != parts.length {
			t.Fatalf("whole: %d %d %v; cut at %d: %d %d %v", whole.status, whole.body, werr, cut, parts.status, parts.body, perr)
		}
		if werr == nil && (whole.status < 200 || whole.status > 999) {
			t.Fatalf("status %d accepted", whole.status)
		}
	})
}
