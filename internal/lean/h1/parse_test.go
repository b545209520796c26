package h1

import (
	"bufio"
	"bytes"
	"errors"
	"testing"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

var h1ParseSeeds = []string{
	"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
	"HTTP/1.1 200 OK\r\ncOnTeNt-LeNgTh:  3 \r\n\r\nabc",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\na;ext=1\r\n0123456789\r\n0\r\nX-Trailer: y\r\n\r\n",
	"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
	"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
	"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
	"HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nto the end",
	"HTTP/1.1 200 OK\r\n\r\nsome body",
	"HTTP/1.1 200 OK\n\nlf only",
	"HTTP/1.1 204 No Content\r\n\r\n",
	"HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
	"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
	"HTTP/1.1 200 OK\r\n\r\r\n\r\n",
	"SSH-2.0-OpenSSH\r\n",
	"",
}

// parseInPieces feeds raw to an h1Parser piece bytes at a time, as reads
// from a socket deliver it: what the parser leaves unconsumed stays in
// the buffer and the next read appends to it. When the input runs out
// before the response is complete, the connection closes.
func parseInPieces(raw []byte, piece int, head bool) (h1Parser, int, error) {
	var p h1Parser
	p.reset(head)
	var buf []byte
	used, read := 0, 0
	for !p.done() {
		if read == len(raw) {
			return p, used, p.closed()
		}
		next := min(len(raw), read+piece)
		buf = append(buf, raw[read:next]...)
		read = next
		n, err := p.feed(buf)
		used += n
		buf = buf[n:]
		if err != nil {
			return p, used, err
		}
	}
	return p, used, nil
}

// TestH1ParserAgreesWithReader feeds every seed in pieces of every size
// from 1 to 9 bytes (and whole) and checks the event-loop parser reads what
// the blocking one does.
func TestH1ParserAgreesWithReader(t *testing.T) {
	for _, raw := range h1ParseSeeds {
		for _, head := range []bool{false, true} {
			for piece := 1; piece <= len(raw)+1; piece++ {
				if piece > 9 && piece <= len(raw) {
					continue
				}
				checkH1Parser(t, []byte(raw), piece, head)
			}
		}
	}
}

func checkH1Parser(t *testing.T, raw []byte, piece int, head bool) {
	t.Helper()
	want, keep, werr := readH1Response(bufio.NewReaderSize(bytes.NewReader(raw), maxH1Head), head)
	p, used, err := parseInPieces(raw, piece, head)
	if (werr == nil) != (err == nil) {
		t.Fatalf("%q in %d-byte pieces (head %v): parser err %v, reader err %v", raw, piece, head, err, werr)
	}
	if werr != nil {
		if errors.Is(werr, target.ErrClosed) != errors.Is(err, target.ErrClosed) || errors.Is(werr, target.ErrMalformed) != errors.Is(err, target.ErrMalformed) {
			t.Fatalf("%q in %d-byte pieces: parser err %v, reader err %v", raw, piece, err, werr)
		}
		return
	}
	if p.resp != want || p.keep != keep {
		t.Fatalf("%q in %d-byte pieces (head %v): parser %+v keep %v, reader %+v keep %v", raw, piece, head, p.resp, p.keep, want, keep)
	}
	if p.resp.BodyBytes > int64(used) {
		t.Fatalf("%q: counted %d body bytes of %d consumed", raw, p.resp.BodyBytes, used)
	}
}

// FuzzH1Parser checks the event-loop parser against readH1Response on
// arbitrary bytes in arbitrary pieces.
func FuzzH1Parser(f *testing.F) {
	for i, s := range h1ParseSeeds {
		f.Add([]byte(s), uint8(i%7+1), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, raw []byte, piece uint8, head bool) {
		if len(raw) > 8<<10 {
			return
		}
		checkH1Parser(t, raw, max(int(piece), 1), head)
	})
}
