package h3

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// fakeH3 is an HTTP/3 server on loopback that answers each request with
// what answer writes on its stream, once the request has arrived whole:
// a server that misbehaves on purpose.
type fakeH3 struct {
	ln     *quic.Listener
	cert   tls.Certificate
	answer func(c *fakeConn, str *quic.Stream)

	mu    sync.Mutex
	conns []*fakeConn
}

// fakeConn is one of fakeH3's connections, with its control stream.
type fakeConn struct {
	index int // 0 for the first connection
	qc    *quic.Conn
	ctrl  *quic.SendStream
	mu    sync.Mutex // guards ctrl's writes
}

// goAway sends GOAWAY with stream id on the control stream.
func (c *fakeConn) goAway(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ctrl.Write(h3Frame(h3FrameGoAway, quicvarint.Append(nil, id)))
}

func newFakeH3(t *testing.T, answer func(c *fakeConn, str *quic.Stream)) *fakeH3 {
	t.Helper()
	cert, err := transport.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	tlsConf := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h3"}, MinVersion: tls.VersionTLS13}
	ln, err := quic.ListenAddr("127.0.0.1:0", tlsConf, &quic.Config{})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeH3{ln: ln, cert: cert, answer: answer}
	t.Cleanup(func() { ln.Close() })
	go f.serve()
	return f
}

func (f *fakeH3) serve() {
	for {
		qc, err := f.ln.Accept(context.Background())
		if err != nil {
			return
		}
		ctrl, err := qc.OpenUniStream()
		if err != nil {
			continue
		}
		ctrl.Write(h3Settings) // the same bytes a client sends: type, empty SETTINGS
		f.mu.Lock()
		c := &fakeConn{index: len(f.conns), qc: qc, ctrl: ctrl}
		f.conns = append(f.conns, c)
		f.mu.Unlock()
		go func() {
			for {
				str, err := qc.AcceptStream(context.Background())
				if err != nil {
					return
				}
				go func() {
					if _, err := io.ReadAll(str); err == nil {
						f.answer(c, str)
					}
				}()
			}
		}()
	}
}

// closedBy returns the application error code each connection was closed
// with by the client, waiting a little for the close to arrive; -1 for a
// connection still open.
func (f *fakeH3) closedBy() []int64 {
	f.mu.Lock()
	conns := append([]*fakeConn(nil), f.conns...)
	f.mu.Unlock()
	codes := make([]int64, len(conns))
	for i, c := range conns {
		select {
		case <-c.qc.Context().Done():
			codes[i] = -2
			var ae *quic.ApplicationError
			if errors.As(context.Cause(c.qc.Context()), &ae) && ae.Remote {
				codes[i] = int64(ae.ErrorCode)
			}
		case <-time.After(time.Second):
			codes[i] = -1
		}
	}
	return codes
}

func (f *fakeH3) client(t *testing.T) *Client {
	t.Helper()
	u, _ := url.Parse("https://" + f.ln.Addr().String() + "/")
	tg, err := target.New(transport.ClientOptions{Protocol: transport.H3, RootCAs: transport.CertPool(f.cert)}, target.Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(tg, config.Client{})
	t.Cleanup(func() { c.Close() })
	return c
}

var fakeOK = join(h3Frame(h3FrameHeaders, qpackBlock(":status", "200", "content-length", "2")), h3Frame(h3FrameData, []byte("ok")))

// TestLeanH3GoAway: a GOAWAY that arrives before the response lets that
// request end and sends the next to a new connection, the old one closed
// by the client once idle; a request on a stream past the GOAWAY's fails
// as ErrGoAway.
func TestLeanH3GoAway(t *testing.T) {
	f := newFakeH3(t, func(c *fakeConn, str *quic.Stream) {
		switch {
		case c.index == 0: // refuses its first request
			c.goAway(0)
			time.Sleep(50 * time.Millisecond)
			str.CancelWrite(0x10b) // H3_REQUEST_REJECTED
			str.CancelRead(0x10b)
		default: // answers one, then goes away
			c.goAway(uint64(str.StreamID()) + 4)
			time.Sleep(50 * time.Millisecond)
			str.Write(fakeOK)
			str.Close()
		}
	})
	c := f.client(t)
	s := c.NewStream(context.Background())
	if _, err := s.Do(5 * time.Second); !errors.Is(err, target.ErrGoAway) || transport.Classify(err) != stats.ErrReset {
		t.Fatalf("a request past the GOAWAY's last stream: %v, want ErrGoAway", err)
	}
	for i := range 4 {
		if resp, err := s.Do(5 * time.Second); err != nil || resp.Status != 200 || resp.BodyBytes != 2 {
			t.Fatalf("request %d: %+v %v", i, resp, err)
		}
	}
	if c.t.Conns() != 5 {
		t.Fatalf("%d connections, want 5: one per GOAWAY", c.t.Conns())
	}
	codes := f.closedBy()
	for i, code := range codes[:4] {
		if code != h3NoError {
			t.Errorf("connection %d: closed with %d, want H3_NO_ERROR from the client", i, code)
		}
	}
}

// TestLeanH3Malformed: a response that breaks a stream's rules resets the
// stream; one that breaks the connection's closes it with its error code;
// both fail as protocol errors, and the next request is answered.
func TestLeanH3Malformed(t *testing.T) {
	var n atomic.Int64
	f := newFakeH3(t, func(c *fakeConn, str *quic.Stream) {
		switch n.Add(1) {
		case 1: // no :status: a stream error
			str.Write(h3Frame(h3FrameHeaders, qpackBlock("server", "fake")))
		case 3: // DATA first: a connection error
			str.Write(join(h3Frame(h3FrameData, []byte("ok")), fakeOK))
		default:
			str.Write(fakeOK)
		}
		str.Close()
	})
	c := f.client(t)
	s := c.NewStream(context.Background())
	for i, want := range []stats.ErrorKind{stats.ErrProtocol, stats.ErrOther, stats.ErrProtocol, stats.ErrOther} {
		resp, err := s.Do(5 * time.Second)
		if got := transport.Classify(err); (err == nil) != (want == stats.ErrOther) || err != nil && got != want || err == nil && resp.Status != 200 {
			t.Fatalf("request %d: %+v %v (%v), want %v", i, resp, err, got, want)
		}
		if i == 1 && c.t.Conns() != 1 {
			t.Fatalf("a stream error closed the connection")
		}
	}
	if c.t.Conns() != 2 {
		t.Fatalf("%d connections, want 2: the connection error closed the first", c.t.Conns())
	}
	if codes := f.closedBy(); codes[0] != h3FrameUnexpected || codes[1] != -1 {
		t.Fatalf("connections closed with %v, want H3_FRAME_UNEXPECTED (%d) and the second open", codes, h3FrameUnexpected)
	}
}
