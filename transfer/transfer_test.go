package transfer

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

type fixture struct {
	ts      *transport.Server
	payload *server.Server
}

func startServer(t *testing.T, maxSize units.Bytes) fixture {
	t.Helper()
	srv, err := server.Start(server.Config{Options: server.Options{MaxSize: maxSize}, Transport: server.Loopback()})
	if err != nil {
		t.Fatalf("start server: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	return fixture{ts: srv.Transport, payload: srv.Server}
}

func (f fixture) plan(p transport.Protocol, path string) Plan {
	return Plan{
		URL:         f.ts.URL(p) + path,
		Transfers:   1,
		Client:      transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(f.ts.Cert())},
		Timeout:     2 * time.Minute,
		ServerStats: true,
	}
}

func run(t *testing.T, p Plan) transferresult.Result {
	t.Helper()
	res, err := Run(context.Background(), p)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// TestExactBytesEveryTransport moves 1 MB and 32 MB each way over every
// transport. 32 MB is past every receive window's ceiling at its default
// (quic-go's 15 MiB a connection, net/http's 4 MiB an HTTP/2 stream), so
// the transfer runs at its windows' full size for most of its bytes.
func TestExactBytesEveryTransport(t *testing.T) {
	f := startServer(t, 0)
	sizes := []units.Bytes{units.MB, 32 * units.MB}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, p := range transport.All {
		for _, size := range sizes {
			for _, dir := range []Direction{Download, Upload} {
				t.Run(p.String()+"/"+dir.String()+"/"+size.String(), func(t *testing.T) {
					plan := f.plan(p, "/bytes/"+size.String())
					if dir == Upload {
						plan = f.plan(p, "/sink")
						plan.Direction, plan.Size = Upload, size
					}
					checkExactTransfer(t, p, dir, size, run(t, plan))
				})
			}
		}
	}
}

// checkExactTransfer checks one transfer of size over p in dir: every
// byte moved on one connection, counted by the server, and in the
// client's body reads and the wire's counters.
func checkExactTransfer(t *testing.T, p transport.Protocol, dir Direction, size units.Bytes, res transferresult.Result) {
	t.Helper()
	if res.Errors.Total != 0 {
		t.Fatalf("errors: %v; first: %s", res.Errors, res.FirstError)
	}
	if res.Bytes != int64(size) || res.PerStream[0].Bytes != int64(size) {
		t.Fatalf("moved %d bytes (stream %d), want %d", res.Bytes, res.PerStream[0].Bytes, size)
	}
	if res.Protocol != p.String() {
		t.Fatalf("negotiated %q, want %q", res.Protocol, p)
	}
	if res.Connections != 1 {
		t.Fatalf("opened %d connections, want 1", res.Connections)
	}
	if res.Server == nil {
		t.Fatalf("no server stats: %s", res.ServerNote)
	}
	sc := res.Server.Protocols[p.String()]
	got := sc.BodyBytesSent
	if dir == Upload {
		got = sc.BodyBytesReceived
	}
	if got != int64(size) || sc.Requests != 1 {
		t.Fatalf("server counted %d bytes in %d requests, want %d in 1", got, sc.Requests, size)
	}
	if dir == Download && res.Client.BodyReads == 0 {
		t.Fatal("no body reads counted")
	}
	if p == transport.H3 {
		if res.Client.QUIC.BytesReceived+res.Client.QUIC.BytesSent < int64(size) || res.Server.QUIC.Connections != 1 {
			t.Fatalf("QUIC counters too small: client %+v server %+v", res.Client.QUIC, res.Server.QUIC)
		}
	} else if io := res.Client.TCP; io.ReadBytes+io.WriteBytes < int64(size) || io.Connections != 1 {
		t.Fatalf("TCP counters too small: %+v", io)
	}
}

func TestParallelConnections(t *testing.T) {
	f := startServer(t, 0)
	tests := []struct {
		p         transport.Protocol
		n, conns  int
		wantConns int64
	}{
		{transport.H1, 4, 0, 4},
		{transport.H1, 4, 2, 2},
		{transport.H2C, 4, 0, 1},
		{transport.H2C, 4, 2, 2},
		{transport.H1TLS, 3, 0, 3},
		{transport.H2, 4, 0, 1},
		{transport.H3, 4, 0, 1},
		{transport.H3, 4, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.p.String()+"/n"+strconv.Itoa(tt.n)+"/c"+strconv.Itoa(tt.conns), func(t *testing.T) {
			plan := f.plan(tt.p, "/bytes/1M")
			plan.Transfers, plan.Conns = tt.n, tt.conns
			res := run(t, plan)
			if res.Errors.Total != 0 {
				t.Fatalf("errors: %v; first: %s", res.Errors, res.FirstError)
			}
			if res.Bytes != int64(tt.n)*int64(units.MB) {
				t.Fatalf("moved %d bytes, want %d", res.Bytes, tt.n*int(units.MB))
			}
			if res.Connections != tt.wantConns {
				t.Fatalf("opened %d connections, want %d", res.Connections, tt.wantConns)
			}
			if got := res.Server.Protocols[tt.p.String()].Requests; got != int64(tt.n) {
				t.Fatalf("server saw %d requests, want %d", got, tt.n)
			}
		})
	}
}

func TestErrorsByKind(t *testing.T) {
	f := startServer(t, units.GB)

	// A port with nothing behind it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()

	// A TLS server that speaks only HTTP/1.1, and a handler that lies about
	// its length.
	h1only := httptest.NewUnstartedServer(http.NotFoundHandler())
	h1only.TLS = &tls.Config{NextProtos: []string{"http/1.1"}}
	h1only.StartTLS()
	defer h1only.Close()
	// A TLS server that ignores ALPN altogether: the client gets no h2.
	cert, err := transport.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	noALPN, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	noALPNServer := &http.Server{Handler: http.NotFoundHandler()}
	go noALPNServer.Serve(noALPN)
	defer noALPNServer.Close()
	liar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write(make([]byte, 500))
	}))
	defer liar.Close()

	tests := []struct {
		name string
		plan Plan
		want stats.ErrorKind
	}{
		{"refused", Plan{URL: "http://" + closed + "/1M", Client: transport.ClientOptions{Protocol: transport.H1}}, stats.ErrRefused},
		{"over-cap", f.plan(transport.H1, "/bytes/2G"), stats.ErrStatus},
		{"malformed-size", f.plan(transport.H2C, "/bytes/12x"), stats.ErrStatus},
		{"untrusted-cert", Plan{URL: f.ts.URL(transport.H2) + "/1k", Client: transport.ClientOptions{Protocol: transport.H2}}, stats.ErrTLS},
		{"h2-alpn-refused", Plan{URL: h1only.URL + "/", Client: transport.ClientOptions{Protocol: transport.H2, Insecure: true}}, stats.ErrProtocol},
		{"h2-got-h1", Plan{URL: "https://" + noALPN.Addr().String() + "/", Client: transport.ClientOptions{Protocol: transport.H2, Insecure: true}}, stats.ErrProtocol},
		{"short-body", Plan{URL: liar.URL + "/", Client: transport.ClientOptions{Protocol: transport.H1}}, stats.ErrShort},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.plan.Transfers = 2
			tt.plan.Timeout = 30 * time.Second
			res := run(t, tt.plan)
			if res.Errors.Total != 2 || res.Errors.Of(tt.want) != 2 {
				t.Fatalf("errors %v, want 2 %s; first: %s", res.Errors, tt.want, res.FirstError)
			}
			if res.FirstError == "" || res.PerStream[0].ErrorKind != tt.want.String() {
				t.Fatalf("stream error %q kind %q", res.PerStream[0].Error, res.PerStream[0].ErrorKind)
			}
		})
	}
}

func TestPlanValidate(t *testing.T) {
	tests := []struct {
		name string
		plan Plan
	}{
		{"no-host", Plan{URL: "/10g", Transfers: 1}},
		{"h2c-https", Plan{URL: "https://127.0.0.1:1/1", Transfers: 1, Client: transport.ClientOptions{Protocol: transport.H2C}}},
		{"h3-http", Plan{URL: "http://127.0.0.1:1/1", Transfers: 1, Client: transport.ClientOptions{Protocol: transport.H3}}},
		{"zero-transfers", Plan{URL: "http://127.0.0.1:1/1"}},
		{"too-many-conns", Plan{URL: "http://127.0.0.1:1/1", Transfers: 2, Conns: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tt.plan); err == nil {
				t.Fatal("Run accepted a bad plan")
			}
		})
	}
}
