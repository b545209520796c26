package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/transport"
)

// TestHostileRapidReset opens and at once cancels HTTP/2 streams for 1.5 s
// (CVE-2023-44487): the server bounds the handlers it runs, and keeps
// serving the good client.
func TestHostileRapidReset(t *testing.T) {
	runHostile(t, false, func(t *testing.T, a *attacked) (bool, string) {
		c := dialH2(t, a)
		block := headerBlock(strings.TrimPrefix(a.Plain, "http://"))
		// For 1.5 s, the good client's window, at most 2M pairs (stream
		// IDs to 4M of 2^31).
		n := c.runFor(2_000_000, 1500*time.Millisecond, func(i int) error {
			id := uint32(2*i + 1)
			if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block, EndStream: true, EndHeaders: true}); err != nil {
				return err
			}
			return c.fr.WriteRSTStream(id, http2.ErrCodeCancel)
		})
		return c.isClosed(), fmt.Sprintf("%d HEADERS+RST_STREAM pairs sent, closed %v", n, c.isClosed())
	})
}

// TestHostileContinuationFlood sends a header block that never ends:
// CONTINUATION frames of 16 KiB without END_HEADERS (CVE-2023-45288). The
// server drops the connection once the block passes its header limit.
func TestHostileContinuationFlood(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		c := dialH2(t, a)
		block := headerBlock(strings.TrimPrefix(a.Plain, "http://"))
		if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block}); err != nil {
			t.Fatal(err)
		}
		var junk bytes.Buffer
		hpack.NewEncoder(&junk).WriteField(hpack.HeaderField{Name: "x-junk", Value: strings.Repeat("j", 16_000)})
		n := c.runFor(100_000, 8*time.Second, func(int) error { return c.fr.WriteContinuation(1, false, junk.Bytes()) })
		dropped := c.waitClosed(2 * time.Second)
		return dropped, fmt.Sprintf("%d CONTINUATION frames sent, closed %v", n, dropped)
	})
}

// TestHostileSettingsFlood sends SETTINGS frames and never reads the
// acknowledgements: the server drops the connection once too many control
// frames queue up.
func TestHostileSettingsFlood(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		c := dialH2Unread(t, a)
		// One SETTINGS frame, repeated into 60 KB writes: the flood is
		// the server's to absorb, not the framer's to produce.
		var one bytes.Buffer
		http2.NewFramer(&one, nil).WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 16})
		chunk := bytes.Repeat(one.Bytes(), 4000)
		var failed error
		n := c.runFor(1000, 8*time.Second, func(int) error {
			c.SetWriteDeadline(time.Now().Add(2 * time.Second))
			_, failed = c.Write(chunk)
			return failed
		}) * 4000
		// The server stops reading once it has decided to drop us; what
		// it wrote before the close is still to be read, then EOF or reset.
		c.SetReadDeadline(time.Now().Add(hostileDropWithin))
		drained, rerr := io.Copy(io.Discard, c.Conn)
		dropped := failed != nil && !isTimeout(rerr)
		return dropped, fmt.Sprintf("%d SETTINGS frames sent unacknowledged, then %v; read %d bytes, then %v", n, failed, drained, rerr)
	})
}

// TestHostileWindowUpdateFlood sends WINDOW_UPDATE frames until the
// connection's window would pass 2^31-1: the server drops the connection
// (FLOW_CONTROL_ERROR, RFC 9113 6.9.1).
func TestHostileWindowUpdateFlood(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		c := dialH2(t, a)
		n := c.runFor(100_000, 8*time.Second, func(int) error { return c.fr.WriteWindowUpdate(0, 1<<24) })
		dropped := c.waitClosed(2 * time.Second)
		return dropped, fmt.Sprintf("%d WINDOW_UPDATE frames sent, closed %v", n, dropped)
	})
}

// TestHostileOversizedHeaders sends header blocks far above the server's
// limit (1 MiB) over h1 (431, closed) and h2c (the block refused).
func TestHostileOversizedHeaders(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		conn, err := net.Dial("tcp", strings.TrimPrefix(a.Plain, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		go func() {
			fmt.Fprintf(conn, "GET /small HTTP/1.1\r\nHost: x\r\n")
			for range 64 {
				if _, err := fmt.Fprintf(conn, "X-Big: %s\r\n", strings.Repeat("b", 64<<10)); err != nil {
					return
				}
			}
			io.WriteString(conn, "\r\n")
		}()
		conn.SetReadDeadline(time.Now().Add(hostileDropWithin))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("h1: no answer to 4 MiB of headers: %v", err)
		}
		resp.Body.Close()
		h1 := resp.StatusCode == http.StatusRequestHeaderFieldsTooLarge

		c := dialH2(t, a)
		var big bytes.Buffer
		enc := hpack.NewEncoder(&big)
		for range 40 {
			enc.WriteField(hpack.HeaderField{Name: "x-big", Value: strings.Repeat("b", 60<<10)})
		}
		block := append(headerBlock(strings.TrimPrefix(a.Plain, "http://")), big.Bytes()...)
		first, rest := block[:16_000], block[16_000:]
		err = c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first, EndStream: true})
		for err == nil && len(rest) > 0 {
			k := min(len(rest), 16_000)
			err = c.fr.WriteContinuation(1, k == len(rest), rest[:k])
			rest = rest[k:]
		}
		h2 := c.waitClosed(hostileDropWithin) || c.frames.Load() > 1
		return h1 && h2, fmt.Sprintf("h1 answered %s; h2c %d frames back, closed %v", resp.Status, c.frames.Load(), c.isClosed())
	})
}

// TestHostileSlowClients holds connections without sending a request: a
// slowloris (h1 headers a line every 200 ms) and an h2c preface with
// nothing after it. The server closes both at its header timeout.
func TestHostileSlowClients(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		var wg sync.WaitGroup
		closedAfter := make([]time.Duration, 2)
		for i, first := range []string{"GET /small HTTP/1.1\r\nHost: x\r\n", http2.ClientPreface} {
			wg.Go(func() {
				conn, err := net.Dial("tcp", strings.TrimPrefix(a.Plain, "http://"))
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.Close()
				began := time.Now()
				io.WriteString(conn, first)
				go func() {
					for i := 0; i < 100 && i == 0 || strings.HasPrefix(first, "GET"); i++ {
						time.Sleep(200 * time.Millisecond)
						if _, err := fmt.Fprintf(conn, "X-Slow-%d: 1\r\n", i); err != nil {
							return
						}
					}
				}()
				conn.SetReadDeadline(time.Now().Add(hostileDropWithin))
				io.Copy(io.Discard, conn)
				closedAfter[i] = time.Since(began)
			})
		}
		wg.Wait()
		dropped := true
		for _, d := range closedAfter {
			dropped = dropped && d < hostileHeaderTimeout+5*time.Second
		}
		return dropped, fmt.Sprintf("slowloris closed after %v, preface-only after %v (header timeout %v)",
			closedAfter[0].Round(time.Millisecond), closedAfter[1].Round(time.Millisecond), hostileHeaderTimeout)
	})
}

// TestHostileOversizedBodies sends ten 64 MB echoes at once over each of
// h1, h2c, h2 and h3: each is refused (413) before its body is read, and
// the server's memory stays bounded.
func TestHostileOversizedBodies(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		var mu sync.Mutex
		codes := map[string]int{}
		var wg sync.WaitGroup
		for _, p := range []transport.Protocol{transport.H1, transport.H2C, transport.H2, transport.H3} {
			c, err := transport.NewClient(transport.ClientOptions{Protocol: p, Insecure: true})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			base := a.Plain
			if p.TLS() {
				base = a.TLS
			}
			if p == transport.H3 {
				base = a.H3
			}
			for range 10 {
				wg.Go(func() {
					req, _ := http.NewRequest(http.MethodPost, base+"/echo", io.LimitReader(endless{}, 64<<20))
					req.ContentLength = 64 << 20
					resp, err := c.Do(req)
					key := p.String() + " "
					if err != nil {
						key += "error"
					} else {
						key += resp.Status
						resp.Body.Close()
					}
					mu.Lock()
					codes[key]++
					mu.Unlock()
				})
			}
		}
		wg.Wait()
		refused := 0
		for k, n := range codes {
			if strings.HasSuffix(k, "413 Request Entity Too Large") {
				refused += n
			}
		}
		return refused == 40, fmt.Sprintf("40 POSTs of 64 MB: %v", codes)
	})
}

// isTimeout says err is a deadline passing, not the server closing.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
