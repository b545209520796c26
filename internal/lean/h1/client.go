package h1

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// Client speaks HTTP/1.1 (h1, or h1-tls when its target has TLS) to one
// target: its Streams each keep one connection and send one request at a
// time on it; its RunLoop drives many connections from one goroutine.
type Client struct {
	t   *target.Target
	req []byte // the serialized request
}

// NewClient returns a client of t, its request serialized once.
func NewClient(t *target.Target) *Client {
	return &Client{t: t, req: serializeH1(t.Req)}
}

// serializeH1 returns req as HTTP/1.1 puts it on the wire.
func serializeH1(req target.Request) []byte {
	var b bytes.Buffer
	b.WriteString(req.Method)
	b.WriteByte(' ')
	b.WriteString(req.URL.RequestURI())
	b.WriteString(" HTTP/1.1\r\nHost: ")
	b.WriteString(req.Authority())
	b.WriteString("\r\n")
	for _, k := range target.SortedHeaderKeys(req.Header) {
		if strings.EqualFold(k, "Host") || strings.EqualFold(k, "Content-Length") {
			continue // written once, above and below
		}
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

// Stream is one HTTP/1.1 connection carrying one request at a time. It
// is not safe for concurrent use.
type Stream struct {
	c    *Client
	ctx  context.Context
	mu   sync.Mutex // guards conn against the abort on ctx's end
	conn net.Conn
	br   *bufio.Reader
}

// NewStream returns a stream whose connection is closed, and whose
// request in flight fails, when ctx ends. It dials on its first request.
func (c *Client) NewStream(ctx context.Context) *Stream {
	s := &Stream{c: c, ctx: ctx, br: bufio.NewReaderSize(nil, target.ReadBuffer)}
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		if s.conn != nil {
			s.conn.Close()
		}
		s.mu.Unlock()
	})
	return s
}

func (s *Stream) drop() {
	s.mu.Lock()
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
	s.mu.Unlock()
}

// Do sends the request and reads the whole response, counting its body,
// giving up after timeout; a connection that failed, or that the server
// will close, is dropped and redialed by the next request.
func (s *Stream) Do(timeout time.Duration) (target.Response, error) {
	if s.conn == nil {
		conn, err := s.c.t.Dial(s.ctx)
		if err != nil {
			return target.Response{}, err
		}
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			conn.Close()
			return target.Response{}, s.ctx.Err()
		}
		s.conn = conn
		s.mu.Unlock()
		s.br.Reset(conn)
	}
	if err := s.conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		s.drop()
		return target.Response{}, err
	}
	if _, err := s.conn.Write(s.c.req); err != nil {
		s.drop()
		return target.Response{}, err
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
func readH1Response(br *bufio.Reader, head bool) (resp target.Response, keep bool, err error) {
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
				err = fmt.Errorf("%w: response head over %d bytes", target.ErrMalformed, br.Size())
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
