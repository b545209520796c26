package wire

import (
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"
)

// BenchmarkDownloadCounters prices the connection counters (I/O calls at
// both ends, h2c frame parsing): 64 MiB over h1 and h2c with them on and
// off. bench/counters.sh prints the ratios.
func BenchmarkDownloadCounters(b *testing.B) {
	const size = 64 << 20
	chunk := make([]byte, 256<<10)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(size))
		for n := 0; n < size; n += len(chunk) {
			w.Write(chunk)
		}
	})
	for _, h2c := range []bool{false, true} {
		for _, on := range []bool{true, false} {
			name := map[bool]string{false: "h1", true: "h2c"}[h2c] + "/counters=" + map[bool]string{true: "on", false: "off"}[on]
			b.Run(name, func(b *testing.B) {
				counting = on
				defer func() { counting = true }()
				benchDownload(b, h, h2c, size)
			})
		}
	}
}

func benchDownload(b *testing.B, h http.Handler, h2c bool, size int64) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	var serverIO, clientIO IOCounter
	var serverH2, clientH2 H2Counters
	protos := new(http.Protocols)
	protos.SetHTTP1(true)
	protos.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: h, Protocols: protos}
	go srv.Serve(Listener{Listener: ln, IO: &serverIO, H2: &serverH2})
	defer srv.Close()
	cp := new(http.Protocols)
	if h2c {
		cp.SetUnencryptedHTTP2(true)
	} else {
		cp.SetHTTP1(true)
	}
	var d net.Dialer
	tr := &http.Transport{Protocols: cp, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return WrapConn(c, &clientIO, &clientH2, true), nil
	}}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	buf := make([]byte, 256<<10)
	b.SetBytes(size)
	for b.Loop() {
		resp, err := client.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{resp.Body}, buf)
		resp.Body.Close()
		if err != nil || n != size {
			b.Fatalf("%d bytes: %v", n, err)
		}
	}
}
