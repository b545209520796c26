package lean

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

	"github.com/httpvs/httpvs/lean/internal/target"
)

func serializeH1(req Request) []byte {
	var b bytes.Buffer
	b.WriteString(req.Method)
	b.WriteByte(' ')
	b.WriteString(req.URL.RequestURI())
	b.WriteString(" HTTP/1.1\r\nHost: ")
	b.WriteString(req.URL.Host)
	b.WriteString("\r\n")
	for _, k := range target.SortedHeaderKeys(req.Header) {
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
	c    *Client
	ctx  context.Context
	mu   sync.Mutex // guards conn against the abort on ctx's end
	conn net.Conn
	br   *bufio.Reader
}

func newH1Stream(ctx context.Context, c *Client) *h1Stream {
	s := &h1Stream{c: c, ctx: ctx, br: bufio.NewReaderSize(nil, target.ReadBuffer)}
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

func (s *h1Stream) do(timeout time.Duration) (Response, error) {
	if s.conn == nil {
		conn, err := s.c.t.Dial(s.ctx)
		if err != nil {
			return Response{}, err
		}
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			conn.Close()
			return Response{}, s.ctx.Err()
		}
		s.conn = conn
		s.mu.Unlock()
		s.br.Reset(conn)
	}
	if err := s.conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		s.drop()
		return Response{}, err
	}
	if _, err := s.conn.Write(s.c.h1req); err != nil {
		s.drop()
		return Response{}, err
	}
	// Wait for the first byte to time it; an error here comes back from
	// the read below too (a closed or timed-out connection stays so).
	var first time.Time
	if _, err := s.br.Peek(1); err == nil {
		first = time.Now()
	}
	resp, keep, err := readH1Response(s.br, s.c.t.Req.Method == "HEAD")
	if err != nil || !keep {
		s.drop()
	}
	resp.FirstByte = first
	return resp, err
}

// readH1Response reads one response from br and counts its body, with the
// same h1Parser the event loops feed. keep says whether the connection can
// carry another request.
func readH1Response(br *bufio.Reader, head bool) (resp Response, keep bool, err error) {
	var p h1Parser
	p.reset(head)
	for {
		buffered, _ := br.Peek(br.Buffered())
		n, err := p.feed(buffered)
		_, _ = br.Discard(n) // n bytes are buffered: it cannot fail
		switch {
		case err != nil:
			return p.resp, false, err
		case p.done():
			return p.resp, p.keep, nil
		}
		// The parser took all it could: wait for more bytes.
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			switch {
			case errors.Is(err, io.EOF):
				err = p.closed() // nil for a body that runs to the close
			case errors.Is(err, bufio.ErrBufferFull):
				err = fmt.Errorf("%w: response head over %d bytes", ErrMalformed, br.Size())
			}
			return p.resp, false, err
		}
	}
}

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
