package bookstore

import (
	"context"
	"crypto/x509"
	"net"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/httpvs/httpvs/internal/bookstore/bookstorepb"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// servers runs every binding on loopback and returns each binding's
// address and the certificate pool to trust.
func servers(tb testing.TB) (map[Binding]string, *x509.CertPool) {
	tb.Helper()
	g := NewGRPCServer()
	mux := http.NewServeMux()
	mux.HandleFunc(JSONPattern, ServeJSON)
	ts, err := transport.NewServer(transport.ServerOptions{Handler: Mount(g, mux), Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0", NoH3: true})
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	native := NewGRPCServer()
	go native.Serve(ln)
	tb.Cleanup(func() {
		native.Stop()
		ts.Close()
	})
	return map[Binding]string{
		Native:       ln.Addr().String(),
		ServeHTTPH2C: ts.Addr(transport.H2C),
		ServeHTTPH2:  ts.Addr(transport.H2),
		JSONH1:       ts.Addr(transport.H1),
		JSONH1TLS:    ts.Addr(transport.H1TLS),
	}, transport.CertPool(ts.Cert())
}

func TestEveryBindingAnswersTheSame(t *testing.T) {
	addrs, roots := servers(t)
	want, err := Service{}.GetBook(context.Background(), &bookstorepb.GetBookRequest{Name: "shelves/7/books/42"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range Bindings {
		t.Run(string(b), func(t *testing.T) {
			c, err := NewClient(ClientOptions{Binding: b, Addr: addrs[b], RootCAs: roots, Name: "shelves/7/books/42"})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for i := 0; i < 3; i++ {
				got, err := c.GetBook(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if !proto.Equal(got, want) {
					t.Fatalf("got %v, want %v", got, want)
				}
			}
			received, sent, err := c.Call(context.Background())
			if err != nil || received == 0 || (sent == 0) != strings.Contains(string(b), "json") {
				t.Errorf("Call: %d bytes received, %d sent, %v", received, sent, err)
			}
			if n := c.Connections(); n != 1 {
				t.Errorf("%d connections for 4 calls, want 1", n)
			}
		})
	}
}

func TestBadNamesAreRefusedByEveryBinding(t *testing.T) {
	addrs, roots := servers(t)
	for _, b := range Bindings {
		t.Run(string(b), func(t *testing.T) {
			c, err := NewClient(ClientOptions{Binding: b, Addr: addrs[b], RootCAs: roots, Name: "shelves/7/chapters/1"})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, err = c.GetBook(context.Background())
			switch {
			case err == nil:
				t.Fatal("a bad name was answered")
			case strings.Contains(string(b), "json"):
				// The JSON route does not match the path: 404.
				if !strings.Contains(err.Error(), "404") {
					t.Fatalf("error %v, want a 404", err)
				}
			case status.Code(err) != codes.InvalidArgument:
				t.Fatalf("error %v, want InvalidArgument", err)
			}
		})
	}
}

func TestServeJSONRefusesBadName(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc(JSONPattern, ServeJSON)
	ts, err := transport.NewServer(transport.ServerOptions{Handler: mux, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	resp, err := http.Get(ts.URL(transport.H1) + "/v1/shelves//books/1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 4 {
		t.Fatalf("status %d for an empty shelf, want 4xx", resp.StatusCode)
	}
	// A book name that is not UTF-8 (%ff): 400, not 500.
	resp, err = http.Get(ts.URL(transport.H1) + "/v1/shelves/1/books/%ff")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d for a name that is not UTF-8, want 400", resp.StatusCode)
	}
	if _, err := (Service{}).GetBook(context.Background(), &bookstorepb.GetBookRequest{Name: "shelves/1/books/\xff"}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("GetBook of a name that is not UTF-8: %v, want InvalidArgument", err)
	}
}

func TestUnknownBinding(t *testing.T) {
	if _, err := NewClient(ClientOptions{Binding: "carrier-pigeon", Addr: "127.0.0.1:1"}); err == nil || !strings.Contains(err.Error(), "want one of") {
		t.Fatalf("error %v", err)
	}
}

// benchClient returns a client of bind that has made one call (connected
// outside the timing), closed when b ends, with allocations reported.
func benchClient(b *testing.B, bind Binding, addr string, roots *x509.CertPool) *Client {
	b.Helper()
	c, err := NewClient(ClientOptions{Binding: bind, Addr: addr, RootCAs: roots})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	if _, err := c.GetBook(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	return c
}

// BenchmarkGRPC is the gRPC ServeHTTP post's table: one GetBook at a time over each
// binding, client and server in this process (B/op and allocs/op count
// both ends, as the seed's did).
func BenchmarkGRPC(b *testing.B) {
	addrs, roots := servers(b)
	for _, bind := range Bindings {
		b.Run(string(bind), func(b *testing.B) {
			c := benchClient(b, bind, addrs[bind], roots)
			ctx := context.Background()
			for b.Loop() {
				if _, err := c.GetBook(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGRPCParallel is BenchmarkGRPC with GOMAXPROCS goroutines
// sharing one client (one connection).
func BenchmarkGRPCParallel(b *testing.B) {
	addrs, roots := servers(b)
	for _, bind := range Bindings {
		b.Run(string(bind), func(b *testing.B) {
			c := benchClient(b, bind, addrs[bind], roots)
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					if _, err := c.GetBook(ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// TestInsecureSkipsVerification: the TLS bindings refuse a certificate
// they do not trust, and take it with Insecure (curl -k), as the HTTP
// clients do.
func TestInsecureSkipsVerification(t *testing.T) {
	addrs, _ := servers(t)
	for _, b := range []Binding{ServeHTTPH2, JSONH1TLS} {
		for _, insecure := range []bool{false, true} {
			c, err := NewClient(ClientOptions{Binding: b, Addr: addrs[b], Insecure: insecure})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = c.Call(context.Background())
			c.Close()
			if insecure && err != nil {
				t.Errorf("%s with Insecure: %v", b, err)
			}
			if !insecure && (err == nil || transport.Classify(err) != stats.ErrTLS) {
				t.Errorf("%s without trust: err %v (kind %v), want a TLS failure", b, err, transport.Classify(err))
			}
		}
	}
}
