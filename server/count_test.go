package server

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/httpvs/httpvs/internal/bookstore"
	"github.com/httpvs/httpvs/internal/bookstore/bookstorepb"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// TestEveryBodyCounted makes 1,000 GET /small over h1, one JSON GetBook
// over h1 and one gRPC GetBook over h2c (ServeHTTP) and over grpc-go's own
// transport: /stats counts every body byte, on the transport that carried
// it, as the clients count them.
func TestEveryBodyCounted(t *testing.T) {
	srv, err := Start(Config{Transport: Loopback(), GRPCListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := transport.NewClient(transport.ClientOptions{Protocol: transport.H1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	base := srv.Transport.URL(transport.H1)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		resp, err := c.HTTP().Get(base + "/small")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	calls := map[bookstore.Binding]string{
		bookstore.JSONH1:       u.Host,
		bookstore.ServeHTTPH2C: u.Host,
		bookstore.Native:       srv.GRPCAddr,
	}
	got := map[bookstore.Binding][2]int64{}
	for b, addr := range calls {
		bc, err := bookstore.NewClient(bookstore.ClientOptions{Binding: b, Addr: addr})
		if err != nil {
			t.Fatal(err)
		}
		in, out, err := bc.Call(context.Background())
		bc.Close()
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		got[b] = [2]int64{in, out}
	}
	resp, err := c.HTTP().Get(base + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	var st stats.ServerStats
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	reqSize := int64(proto.Size(&bookstorepb.GetBookRequest{Name: bookstore.DefaultBookName}))
	h1, h2c, native := st.Protocols["h1"], st.Protocols["h2c"], st.Protocols[nativeGRPC]
	if want := 2*int64(1000) + got[bookstore.JSONH1][0]; h1.Requests != 1001 || h1.BodyBytesSent != want || h1.BodyWrites != 1001 {
		t.Errorf("h1 %+v: want 1001 requests, %d body bytes sent (1,000 x 2 and the JSON book's %d) in 1001 writes", h1, want, got[bookstore.JSONH1][0])
	}
	for name, pc := range map[string]stats.ProtocolCounters{"h2c": h2c, nativeGRPC: native} {
		b := map[string]bookstore.Binding{"h2c": bookstore.ServeHTTPH2C, nativeGRPC: bookstore.Native}[name]
		if pc.Requests != 1 || pc.BodyBytesSent != got[b][0] || pc.BodyBytesReceived != reqSize || got[b][1] != reqSize {
			t.Errorf("%s %+v: want 1 request, %d bytes sent and %d received, as the client counted (%v)", name, pc, got[b][0], reqSize, got[b])
		}
	}
}

// TestResetGeneration: each reset raises the counters' generation; what
// Reset returns carries the generation it ends.
func TestResetGeneration(t *testing.T) {
	s := New(Options{})
	if g := s.Stats().Resets; g != 0 {
		t.Fatalf("fresh server at generation %d", g)
	}
	if prev := s.Reset(); prev.Resets != 0 {
		t.Fatalf("Reset returned generation %d, want 0", prev.Resets)
	}
	if g := s.Stats().Resets; g != 1 {
		t.Fatalf("after a reset at generation %d, want 1", g)
	}
}
