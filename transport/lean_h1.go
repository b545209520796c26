package transport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

const leanReadBuffer = 64 << 10

func serializeH1(req LeanRequest) []byte {
	var b bytes.Buffer
	b.WriteString(req.Method)
	b.WriteByte(' ')
	b.WriteString(req.URL.RequestURI())
	b.WriteString(" HTTP/1.1\r\nHost: ")
	b.WriteString(req.URL.Host)
	b.WriteString("\r\nUser-Agent: httpvs\r\n")
	for _, k := range sortedHeaderKeys(req.Header) {
		for _, v := range req.Header[k] {
			b.WriteString(k)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteString("\r\n")
		}
	}
	if len(req.Body) > 0 || req.Method == "POST" || req.Method == "PUT" {
		b.WriteString("Content-Length: ")
		b.WriteString(strconv.Itoa(len(req.Body)))
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	b.Write(req.Body)
	return b.Bytes()
}

// h1Stream is one HTTP/1.1 connection carrying one request at a time.
type h1Stream struct {
	c    *LeanClient
	ctx  context.Context
	mu   sync.Mutex // guards conn against the abort on ctx's end
	conn net.Conn
	br   *bufio.Reader
}

func newH1Stream(ctx context.Context, c *LeanClient) *h1Stream {
	s := &h1Stream{c: c, ctx: ctx, br: bufio.NewReaderSize(nil, leanReadBuffer)}
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		if s.conn != nil {
			s.conn.Close()
		}
		s.mu.Unlock()
	})
	return s
}

func (s *h1Stream) drop() {
	s.mu.Lock()
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
	s.mu.Unlock()
}

func (s *h1Stream) do(timeout time.Duration) (LeanResponse, error) {
	if s.conn == nil {
		conn, err := s.c.dial(s.ctx)
		if err != nil {
			return LeanResponse{}, err
		}
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			conn.Close()
			return LeanResponse{}, s.ctx.Err()
		}
		s.conn = conn
		s.mu.Unlock()
		s.br.Reset(conn)
	}
	if err := s.conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		s.drop()
		return LeanResponse{}, err
	}
	if _, err := s.conn.Write(s.c.h1req); err != nil {
		s.drop()
		return LeanResponse{}, err
	}
	resp, keep, err := readH1Response(s.br, s.c.req.Method == "HEAD")
	if err != nil || !keep {
		s.drop()
	}
	return resp, err
}

var (
	errH1Malformed = errors.New("malformed HTTP/1.1 response")
	crlf           = []byte("\r\n")
)

// readH1Response reads one response from br and counts its body. keep
// says whether the connection can carry another request.
func readH1Response(br *bufio.Reader, head bool) (resp LeanResponse, keep bool, err error) {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return resp, false, eofIsReset(err)
		}
		// HTTP/1.x NNN reason
		if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
			return resp, false, fmt.Errorf("%w: status line %q", errH1Malformed, bytes.TrimSpace(line))
		}
		status, err := strconv.Atoi(string(line[9:12]))
		if err != nil {
			return resp, false, fmt.Errorf("%w: status line %q", errH1Malformed, bytes.TrimSpace(line))
		}
		keep = line[7] == '1'
		resp.Status = status
		length, chunked := int64(-1), false
		for {
			h, err := br.ReadSlice('\n')
			if err != nil {
				return resp, false, eofIsReset(err)
			}
			if bytes.Equal(h, crlf) || (len(h) == 1 && h[0] == '\n') {
				break
			}
			if err := applyH1Header(h, line[7] == '1', &length, &chunked, &keep); err != nil {
				return resp, false, err
			}
		}
		if status >= 100 && status < 200 {
			continue // interim response: the real one follows
		}
		switch {
		case head || status == 204 || status == 304:
		case chunked:
			resp.BodyBytes, err = discardChunked(br)
		case length >= 0:
			var n int
			n, err = br.Discard(int(length))
			resp.BodyBytes = int64(n)
			if err != nil {
				err = io.ErrUnexpectedEOF
			}
		default:
			// No length: the body runs to the connection's end.
			var n int64
			n, err = io.Copy(io.Discard, br)
			resp.BodyBytes, keep = n, false
		}
		return resp, keep && err == nil, err
	}
}

func discardChunked(br *bufio.Reader) (int64, error) {
	var total int64
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return total, io.ErrUnexpectedEOF
		}
		sizeText, _, _ := bytes.Cut(bytes.TrimSpace(line), []byte(";"))
		size, err := strconv.ParseInt(string(sizeText), 16, 64)
		if err != nil || size < 0 {
			return total, fmt.Errorf("%w: chunk size %q", errH1Malformed, sizeText)
		}
		if size == 0 {
			// Trailers, then the final empty line.
			for {
				t, err := br.ReadSlice('\n')
				if err != nil {
					return total, io.ErrUnexpectedEOF
				}
				if len(bytes.TrimSpace(t)) == 0 {
					return total, nil
				}
			}
		}
		n, err := br.Discard(int(size))
		total += int64(n)
		if err != nil {
			return total, io.ErrUnexpectedEOF
		}
		if _, err := br.Discard(2); err != nil {
			return total, io.ErrUnexpectedEOF
		}
	}
}

// eofIsReset turns a connection closed between responses into a reset.
func eofIsReset(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("connection closed by the server: %w", errLeanClosed)
	}
	return err
}

var errLeanClosed = errors.New("EOF")

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
