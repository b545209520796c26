package h1

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// h1Parser reads one HTTP/1.1 response from bytes as they arrive and
// counts its body without keeping it: event loops feed it what each read
// brought; readH1Response feeds it from a bufio.Reader.
type h1Parser struct {
	head   bool // the request was HEAD: no body
	state  h1State
	remain int64 // body or chunk bytes still to come
	resp   target.Response
	keep   bool
}

type h1State uint8

const (
	h1Head       h1State = iota // status line and headers
	h1Body                      // remain bytes of Content-Length body
	h1ChunkSize                 // a chunk-size line
	h1ChunkData                 // remain bytes of chunk data
	h1ChunkEnd                  // the CRLF after chunk data (remain bytes of it)
	h1Trailers                  // trailer lines up to an empty one
	h1UntilClose                // no length: the body runs to the connection's end
	h1Done
)

// maxH1Head bounds a response's status line and headers.
const maxH1Head = 64 << 10

// reset readies the parser for the next response.
func (p *h1Parser) reset(head bool) { *p = h1Parser{head: head} }

// done says whether the response is complete.
func (p *h1Parser) done() bool { return p.state == h1Done }

// closed is told the connection ended: a body that runs to the close is
// complete; anything else is cut short.
func (p *h1Parser) closed() error {
	switch {
	case p.state == h1UntilClose:
		p.state, p.keep = h1Done, false
		return nil
	case p.state == h1Done:
		return nil
	case p.state == h1Head:
		return fmt.Errorf("connection closed by the server: %w", target.ErrClosed)
	}
	return io.ErrUnexpectedEOF
}

// feed consumes the response's bytes from b and returns how many it used;
// bytes after a complete response are left alone. An error means the
// response is malformed.
func (p *h1Parser) feed(b []byte) (int, error) {
	used := 0
	for p.state != h1Done && used < len(b) {
		n, err := p.step(b[used:])
		used += n
		if err != nil || n == 0 {
			return used, err
		}
	}
	return used, nil
}

// step consumes what it can of one state; 0 means more bytes are needed.
func (p *h1Parser) step(b []byte) (int, error) {
	switch p.state {
	case h1Head:
		n, err := p.parseHead(b)
		if err == nil && n == 0 && len(b) >= maxH1Head {
			err = fmt.Errorf("%w: headers over %d bytes", target.ErrMalformed, maxH1Head)
		}
		return n, err
	case h1Body, h1ChunkData, h1ChunkEnd:
		n := int(min(int64(len(b)), p.remain))
		p.remain -= int64(n)
		if p.state != h1ChunkEnd {
			p.resp.BodyBytes += int64(n)
		}
		if p.remain == 0 {
			switch p.state {
			case h1Body:
				p.state = h1Done
			case h1ChunkData:
				p.state, p.remain = h1ChunkEnd, 2
			default:
				p.state = h1ChunkSize
			}
		}
		return n, nil
	case h1ChunkSize, h1Trailers:
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(b) >= maxH1Head {
				return 0, fmt.Errorf("%w: chunk line over %d bytes", target.ErrMalformed, maxH1Head)
			}
			return 0, nil
		}
		line := bytes.TrimSpace(b[:i])
		if p.state == h1Trailers {
			if len(line) == 0 {
				p.state = h1Done
			}
			return i + 1, nil
		}
		sizeText, _, _ := bytes.Cut(line, []byte(";"))
		size, err := strconv.ParseInt(string(sizeText), 16, 64)
		if err != nil || size < 0 {
			return i + 1, fmt.Errorf("%w: chunk size %q", target.ErrMalformed, sizeText)
		}
		if size == 0 {
			p.state = h1Trailers
		} else {
			p.state, p.remain = h1ChunkData, size
		}
		return i + 1, nil
	case h1UntilClose:
		p.resp.BodyBytes += int64(len(b))
		return len(b), nil
	}
	return 0, nil
}

// parseHead reads a status line and headers ending in an empty line. It
// returns 0 while the empty line has not arrived, and an error as soon as
// a complete line is wrong.
func (p *h1Parser) parseHead(b []byte) (int, error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return 0, nil
	}
	status, err := parseStatusLine(b[:i])
	if err != nil {
		return 0, err
	}
	p.resp.Status = status // known even if a header turns out malformed
	used := i + 1
	// HTTP/1.1 or a later minor version (net/http reads HTTP/1.2 as at
	// least 1.1: chunked bodies, keep-alive), HTTP/1.0 otherwise.
	http11 := b[7] >= '1' && b[7] <= '9'
	keep, length, chunked := http11, int64(-1), false
	for {
		i := bytes.IndexByte(b[used:], '\n')
		if i < 0 {
			return 0, nil
		}
		h := b[used : used+i]
		used += i + 1
		if len(h) == 0 || (len(h) == 1 && h[0] == '\r') {
			break
		}
		if err := applyH1Header(h, http11, &length, &chunked, &keep); err != nil {
			return 0, err
		}
	}
	p.keep = keep
	switch {
	case status >= 100 && status < 200:
		p.resp.Status = 0 // interim: the real response follows
	case p.head || status == 204 || status == 304:
		p.state = h1Done
	case chunked:
		p.state = h1ChunkSize
	case length == 0:
		p.state = h1Done
	case length > 0:
		p.state, p.remain = h1Body, length
	default:
		p.state, p.keep = h1UntilClose, false
	}
	return used, nil
}

// parseStatusLine reads "HTTP/1.x NNN reason" (without its newline).
func parseStatusLine(line []byte) (int, error) {
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, fmt.Errorf("%w: status line %q", target.ErrMalformed, bytes.TrimSpace(line))
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("%w: status line %q", target.ErrMalformed, bytes.TrimSpace(line))
	}
	return status, nil
}

// applyH1Header interprets one header line for the framing of the body.
func applyH1Header(h []byte, http11 bool, length *int64, chunked, keep *bool) error {
	name, value, ok := bytes.Cut(h, []byte(":"))
	if !ok {
		return fmt.Errorf("%w: header line %q", target.ErrMalformed, bytes.TrimSpace(h))
	}
	value = bytes.TrimSpace(value)
	switch {
	case asciiEqualFold(name, "content-length"):
		n, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: Content-Length %q", target.ErrMalformed, value)
		}
		*length = n
	case asciiEqualFold(name, "transfer-encoding"):
		// HTTP/1.0 has no transfer codings: its body runs to the end,
		// as net/http reads it.
		*chunked = http11 && bytes.Contains(bytes.ToLower(value), []byte("chunked"))
	case asciiEqualFold(name, "connection"):
		if asciiEqualFold(value, "close") {
			*keep = false
		}
	}
	return nil
}
