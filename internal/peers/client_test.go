package peers

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// goServer starts httpvs's payload server in-process on loopback, without
// HTTP/3, and returns it with the path of its certificate as PEM.
func goServer(t *testing.T) (*server.Running, string) { return goServerH3(t, false) }

// goServerH3 is goServer, with HTTP/3 if h3.
func goServerH3(t *testing.T, h3 bool) (*server.Running, string) {
	t.Helper()
	opts := server.Loopback()
	opts.NoH3 = !h3
	r, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	ca := filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(ca, transport.CertPEM(r.Transport.Cert()), 0o644); err != nil {
		t.Fatal(err)
	}
	return r, ca
}

// requests returns how many requests the Go server has handled over p.
func requests(r *server.Running, p transport.Protocol) int64 {
	return r.Server.Stats().Protocols[p.String()].Requests
}

// settledRequests is requests once the count has stopped moving (for
// 200 ms, at most 5 s): a client killed at the end of its run leaves
// requests in flight that the server finishes after it has gone.
func settledRequests(r *server.Running, p transport.Protocol) int64 {
	n := requests(r, p)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		m := requests(r, p)
		if m == n {
			return n
		}
		n = m
	}
	return n
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestCurl downloads and uploads exact byte counts over each transport
// curl speaks, and checks the Go server saw one request per transfer.
func TestCurl(t *testing.T) {
	requirePeer(t, "curl")
	ctx := testContext(t)
	r, ca := goServer(t)
	up := filepath.Join(t.TempDir(), "up")
	if err := os.WriteFile(up, make([]byte, 3_000_001), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []transport.Protocol{transport.H1, transport.H2C, transport.H1TLS, transport.H2} {
		t.Run(p.String(), func(t *testing.T) {
			before := requests(r, p)
			res, err := RunCurl(ctx, CurlOptions{URL: r.Transport.URL(p) + PayloadPath(testSize), Protocol: p, CAFile: ca})
			if err != nil {
				t.Fatal(err)
			}
			if res.DownloadBytes != int64(testSize) || res.Protocol != p || res.Status != 200 || res.Total <= 0 || res.Process.Wall <= 0 {
				t.Fatalf("download: %+v", res)
			}
			res, err = RunCurl(ctx, CurlOptions{URL: r.Transport.URL(p) + SinkPath, Protocol: p, CAFile: ca, UploadFile: up})
			if err != nil {
				t.Fatal(err)
			}
			if res.UploadBytes != 3_000_001 {
				t.Fatalf("upload: %+v", res)
			}
			if got := requests(r, p) - before; got != 2 {
				t.Fatalf("Go server counted %d requests over %s, want 2", got, p)
			}
		})
	}
	if _, err := RunCurl(ctx, CurlOptions{URL: r.Transport.URL(transport.H2) + SmallPath, Protocol: transport.H2}); err == nil {
		t.Error("curl trusted an unknown certificate")
	}
}

// TestH2load: h2load -n 200 over each transport succeeds 200 times and the
// Go server counts 200 requests over that transport.
func TestH2load(t *testing.T) {
	requirePeer(t, "h2load")
	ctx := testContext(t)
	r, _ := goServer(t)
	for _, p := range []transport.Protocol{transport.H1, transport.H2C, transport.H1TLS, transport.H2} {
		t.Run(p.String(), func(t *testing.T) {
			before := requests(r, p)
			res, err := RunH2load(ctx, H2loadOptions{URL: r.Transport.URL(p) + SmallPath, Protocol: p, Clients: 2, Streams: 10, Requests: 200})
			if err != nil {
				t.Fatal(err)
			}
			if res.Succeeded != 200 || res.Failed != 0 || res.Status[0] != 200 || res.Protocol != p {
				t.Fatalf("%+v", res)
			}
			if got := requests(r, p) - before; got != 200 {
				t.Fatalf("Go server counted %d requests over %s, want 200", got, p)
			}
		})
	}
	t.Run("refused", func(t *testing.T) {
		_, err := RunH2load(ctx, H2loadOptions{URL: "http://127.0.0.1:1/small", Protocol: transport.H2C, Requests: 10})
		if err == nil {
			t.Fatal("h2load against a closed port: no error")
		}
	})
}

// TestWrk: wrk's completed requests are what the Go server counted, give
// or take the requests in flight when wrk stopped (at most one per
// connection).
func TestWrk(t *testing.T) {
	requirePeer(t, "wrk")
	ctx := testContext(t)
	r, _ := goServer(t)
	const conns = 4
	for _, p := range []transport.Protocol{transport.H1, transport.H1TLS} {
		t.Run(p.String(), func(t *testing.T) {
			before := requests(r, p)
			res, err := RunWrk(ctx, WrkOptions{URL: r.Transport.URL(p) + SmallPath, Protocol: p, Connections: conns, Threads: 2, Duration: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			served := requests(r, p) - before
			if res.Errors.Total() != 0 || res.Requests <= 0 || res.Succeeded != res.Requests || served < res.Requests || served > res.Requests+conns {
				t.Fatalf("wrk %+v; Go server counted %d", res, served)
			}
		})
	}
	// Under a second, wrk is interrupted: it stops at its next 100 ms tick,
	// not after the whole second its -d takes at least. Its own clock
	// starts once its threads are up, a few milliseconds after the 300 ms
	// begin (299.8 ms seen in CI). How soon after 300 ms it stops is
	// speed (a loaded machine's), not asserted.
	t.Run("300ms", func(t *testing.T) {
		res, err := RunWrk(ctx, WrkOptions{URL: r.Transport.URL(transport.H1) + SmallPath, Protocol: transport.H1, Connections: 1, Duration: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if res.Duration < 250*time.Millisecond || res.Duration >= time.Second || res.Process.Wall < res.Duration || res.Succeeded <= 0 {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("refused", func(t *testing.T) {
		_, err := RunWrk(ctx, WrkOptions{URL: "http://127.0.0.1:1/small", Protocol: transport.H1, Duration: time.Second})
		if err == nil {
			t.Fatal("wrk against a closed port: no error")
		}
	})
}
