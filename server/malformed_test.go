package server

import (
	"bytes"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestMalformedContentLength sends, over h2c on loopback, requests whose
// content-length (1) is less than their DATA (4+4 bytes) to a route that
// takes them (GET /small) and to routes that refuse them (POST /small is
// 405, POST /nowhere/x 404): each must end in RST_STREAM PROTOCOL_ERROR
// (RFC 9113 8.1.1), never a response, however the frames are timed.
func TestMalformedContentLength(t *testing.T) {
	srv := &http.Server{Handler: New(Options{}).Handler(), Protocols: new(http.Protocols)}
	srv.Protocols.SetUnencryptedHTTP2(true)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	for _, req := range []struct{ method, path string }{
		{"GET", "/small"}, {"POST", "/small"}, {"POST", "/nowhere/x"},
	} {
		t.Run(req.method+req.path, func(t *testing.T) {
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
				t.Fatal(err)
			}
			fr := http2.NewFramer(conn, conn)
			if err := fr.WriteSettings(); err != nil {
				t.Fatal(err)
			}
			var block bytes.Buffer
			enc := hpack.NewEncoder(&block)
			for _, f := range [][2]string{
				{":method", req.method}, {":scheme", "http"}, {":authority", "x"},
				{":path", req.path}, {"content-length", "1"},
			} {
				if err := enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]}); err != nil {
					t.Fatal(err)
				}
			}
			if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block.Bytes(), EndHeaders: true}); err != nil {
				t.Fatal(err)
			}
			// The handler runs as soon as HEADERS arrive; the DATA
			// comes later, so a handler that answers without reading
			// would win the race.
			time.Sleep(50 * time.Millisecond)
			if err := fr.WriteData(1, false, []byte("test")); err != nil {
				t.Fatal(err)
			}
			if err := fr.WriteData(1, true, []byte("test")); err != nil {
				t.Fatal(err)
			}
			for {
				f, err := fr.ReadFrame()
				if err != nil {
					t.Fatalf("no RST_STREAM before %v", err)
				}
				switch f := f.(type) {
				case *http2.RSTStreamFrame:
					if f.ErrCode != http2.ErrCodeProtocol {
						t.Fatalf("RST_STREAM %v, want PROTOCOL_ERROR", f.ErrCode)
					}
					return
				case *http2.HeadersFrame:
					t.Fatalf("a response (HEADERS on stream %d) to a malformed request", f.StreamID)
				case *http2.GoAwayFrame:
					t.Fatalf("GOAWAY %v %q", f.ErrCode, strings.TrimSpace(string(f.DebugData())))
				}
			}
		})
	}
}
