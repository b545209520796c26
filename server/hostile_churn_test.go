package server

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestHostileAbortedDownloads opens h2c connections as fast as it can for
// 8 s, each a GET /bytes/10g of which it reads 20 KB before closing the
// connection without resetting the stream. Go's HTTP/2 server would keep
// each closed connection's buffers until the idle timeout (2 minutes
// here, serve's default); the server's peak RSS must stay under the
// suite's bound.
func TestHostileAbortedDownloads(t *testing.T) {
	runHostile(t, false, func(t *testing.T, a *attacked) (bool, string) {
		addr := strings.TrimPrefix(a.Plain, "http://")
		var block bytes.Buffer
		enc := hpack.NewEncoder(&block)
		for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", addr}, {":path", "/bytes/10g"}} {
			enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
		}
		began, aborted := time.Now(), 0
		for ; aborted < 200_000 && time.Since(began) < 8*time.Second; aborted++ {
			if err := abortOne(addr, block.Bytes()); err != nil {
				t.Fatalf("after %d aborted downloads: %v", aborted, err)
			}
		}
		return true, fmt.Sprintf("%d h2c downloads aborted (%.0f/s)", aborted, float64(aborted)/time.Since(began).Seconds())
	}, idleEnv+"=2m")
}

// abortOne GETs with header block on a new h2c connection, reads 20 KB
// and closes the connection.
func abortOne(addr string, block []byte) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fr := http2.NewFramer(c, c)
	if _, err := io.WriteString(c, http2.ClientPreface); err != nil {
		return err
	}
	if err := fr.WriteSettings(); err != nil {
		return err
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block, EndStream: true, EndHeaders: true}); err != nil {
		return err
	}
	_, err = io.CopyN(io.Discard, c, 20_000)
	return err
}
