package h1

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

func TestReadH1Response(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		head   bool
		status int
		body   int64
		keep   bool
		err    error
	}{
		{"length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", false, 200, 5, true, nil},
		{"length-case", "HTTP/1.1 200 OK\r\ncOnTeNt-LeNgTh:  3 \r\n\r\nabc", false, 200, 3, true, nil},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\na;ext=1\r\n0123456789\r\n0\r\nX-Trailer: y\r\n\r\n", false, 200, 15, true, nil},
		{"interim", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", false, 201, 2, true, nil},
		{"close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", false, 200, 2, false, nil},
		{"http10", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false, 200, 2, false, nil},
		{"until-eof", "HTTP/1.1 200 OK\r\n\r\nsome body", false, 200, 9, false, nil},
		{"no-content", "HTTP/1.1 204 No Content\r\n\r\n", false, 204, 0, true, nil},
		{"head", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", true, 200, 0, true, nil},
		{"short", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", false, 200, 3, false, io.ErrUnexpectedEOF},
		{"short-chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc", false, 200, 3, false, io.ErrUnexpectedEOF},
		{"garbage", "SSH-2.0-OpenSSH\r\n", false, 0, 0, false, target.ErrMalformed},
		{"bad-length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", false, 200, 0, false, target.ErrMalformed},
		{"closed", "", false, 0, 0, false, target.ErrClosed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, keep, err := readH1Response(bufio.NewReader(strings.NewReader(tt.raw)), tt.head)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err %v, want %v", err, tt.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if resp.Status != tt.status || resp.BodyBytes != tt.body || keep != tt.keep {
				t.Fatalf("got status %d body %d keep %v, want %d %d %v", resp.Status, resp.BodyBytes, keep, tt.status, tt.body, tt.keep)
			}
		})
	}
}

// FuzzReadH1Response feeds the lean client's HTTP/1.1 response parser
// arbitrary bytes: it never panics, never counts more body than it was
// given, and where net/http reads the same bytes as one complete response
// it agrees on the status and the body's length.
func FuzzReadH1Response(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.0 200 OK\r\n\r\nto the end",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 5\r\n\r\nnope!",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		resp, _, err := readH1Response(bufio.NewReader(bytes.NewReader(in)), false)
		if resp.BodyBytes < 0 || resp.BodyBytes > int64(len(in)) {
			t.Fatalf("body %d bytes from %d bytes of input", resp.BodyBytes, len(in))
		}
		if err != nil {
			return
		}
		std, serr := http.ReadResponse(bufio.NewReader(bytes.NewReader(in)), nil)
		if serr != nil || std.StatusCode < 200 {
			return
		}
		n, berr := io.Copy(io.Discard, std.Body)
		if berr != nil {
			return
		}
		if std.StatusCode != resp.Status || n != resp.BodyBytes {
			t.Fatalf("lean: status %d, %d body bytes; net/http: %d, %d", resp.Status, resp.BodyBytes, std.StatusCode, n)
		}
	})
}
