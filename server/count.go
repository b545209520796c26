package server

import (
	"context"
	"net/http"

	"google.golang.org/grpc"
	"google.golang.org/grpc/stats"

	"github.com/httpvs/httpvs/internal/bookstore"
)

// viaHTTPKey marks gRPC calls that came through Handler; its value is the
// *protoCounters of the transport that carried them.
type viaHTTPKey struct{}

// countNative counts calls that reach the gRPC server natively (not
// through Handler, which counts its own).
func (s *Server) countNative(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	if _, viaHTTP := ctx.Value(viaHTTPKey{}).(*protoCounters); !viaHTTP {
		s.native.requests.Add(1)
	}
	return h(ctx, req)
}

// payloadCounter is a grpc stats.Handler that counts gRPC messages as
// body bytes (their protobuf size; gRPC's 5-byte prefix and HTTP/2's
// framing aside, as the bookstore client counts them) on the counters of
// the transport that carried them, so that /stats cross-checks the client
// for the gRPC bindings too.
type payloadCounter struct{ s *Server }

func (p payloadCounter) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context {
	return ctx
}

func (p payloadCounter) HandleRPC(ctx context.Context, st stats.RPCStats) {
	c, viaHTTP := ctx.Value(viaHTTPKey{}).(*protoCounters)
	if !viaHTTP {
		c = &p.s.native
	}
	switch st := st.(type) {
	case *stats.InPayload:
		c.bodyReads.Add(1)
		c.bodyReceived.Add(int64(st.Length))
	case *stats.OutPayload:
		c.bodyWrites.Add(1)
		c.bodySent.Add(int64(st.Length))
	}
}

func (p payloadCounter) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}

func (p payloadCounter) HandleConn(context.Context, stats.ConnStats) {}

// serveGRPC gives r to the gRPC server, its messages counted on r's
// transport.
func (s *Server) serveGRPC(w http.ResponseWriter, r *http.Request) {
	c := s.counter(r)
	c.requests.Add(1)
	s.grpc.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), viaHTTPKey{}, c)))
}

// serveJSON answers the gRPC ServeHTTP post's GetBook as JSON, its body
// counted on r's transport.
func (s *Server) serveJSON(w http.ResponseWriter, r *http.Request) {
	c := s.counter(r)
	c.requests.Add(1)
	bookstore.ServeJSON(&countingWriter{ResponseWriter: w, c: c}, r)
}

// countingWriter counts the response body bytes a handler writes.
type countingWriter struct {
	http.ResponseWriter
	c *protoCounters
}

func (w *countingWriter) Write(b []byte) (int, error) {
	// Counted before the write, as /bytes counts.
	w.c.bodyWrites.Add(1)
	w.c.bodySent.Add(int64(len(b)))
	n, err := w.ResponseWriter.Write(b)
	w.c.bodySent.Add(int64(n - len(b)))
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
