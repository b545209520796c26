package bookstore

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/httpvs/httpvs/internal/bookstore/bookstorepb"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// Binding names one way GetBook is served and called.
type Binding string

// The bindings.
const (
	// Native is grpc-go's client and server with their own HTTP/2
	// transport, cleartext, on the server's own gRPC port.
	Native Binding = "native"
	// ServeHTTPH2C is grpc-go's client to grpc.Server.ServeHTTP behind
	// net/http's HTTP/2, cleartext (prior knowledge), on the h2c port.
	ServeHTTPH2C Binding = "servehttp-h2c"
	// ServeHTTPH2 is the same over TLS (ALPN h2), on the TLS port.
	ServeHTTPH2 Binding = "servehttp-h2"
	// JSONH1 is net/http's HTTP/1.1 client to the JSON endpoint.
	JSONH1 Binding = "http1-json"
	// JSONH1TLS is the same over TLS.
	JSONH1TLS Binding = "http1-tls-json"
)

// Bindings lists every binding, the gRPC ServeHTTP post's three (with ServeHTTP over h2c
// and h2) and JSON over TLS.
var Bindings = []Binding{Native, ServeHTTPH2C, ServeHTTPH2, JSONH1, JSONH1TLS}

// DefaultBookName is the book clients ask for when none is given.
const DefaultBookName = "shelves/1/books/2"

// ClientOptions say how a Client reaches its binding.
type ClientOptions struct {
	Binding Binding
	// Addr is host:port of the native gRPC port (Native), the cleartext
	// HTTP port (ServeHTTPH2C, JSONH1) or the TLS port (ServeHTTPH2,
	// JSONH1TLS).
	Addr string
	// RootCAs are trusted for TLS bindings; nil means the system's.
	RootCAs *x509.CertPool
	// Insecure skips certificate verification on TLS bindings (curl -k).
	Insecure bool
	// ServerName is the TLS server name sent and verified; empty means
	// Addr's host.
	ServerName string
	// Name is the book asked for; empty means DefaultBookName.
	Name string
	// Network is where the client's sockets are made; nil means the
	// process's own network.
	Network transport.Network
}

// Client calls GetBook over one binding, on one connection.
type Client struct {
	binding Binding
	conn    *grpc.ClientConn
	stub    bookstorepb.BookstoreClient
	http    *transport.Client
	url     string
	req     *bookstorepb.GetBookRequest
	reqSize int64
	dials   atomic.Int64
}

// NewClient returns a client for opts.Binding. gRPC clients connect
// lazily, on the first call.
func NewClient(opts ClientOptions) (*Client, error) {
	if opts.Name == "" {
		opts.Name = DefaultBookName
	}
	c := &Client{binding: opts.Binding, req: &bookstorepb.GetBookRequest{Name: opts.Name}}
	c.reqSize = int64(proto.Size(c.req))
	switch opts.Binding {
	case Native, ServeHTTPH2C, ServeHTTPH2:
		creds := insecure.NewCredentials()
		if opts.Binding == ServeHTTPH2 {
			creds = credentials.NewTLS(&tls.Config{RootCAs: opts.RootCAs, InsecureSkipVerify: opts.Insecure, ServerName: opts.ServerName})
		}
		dialer := func(ctx context.Context, addr string) (net.Conn, error) {
			c.dials.Add(1)
			var d net.Dialer
			return dial.TCP(ctx, opts.Network, &d, "tcp", addr)
		}
		conn, err := grpc.NewClient("passthrough:///"+opts.Addr, grpc.WithTransportCredentials(creds), grpc.WithContextDialer(dialer))
		if err != nil {
			return nil, fmt.Errorf("grpc client for %s: %w", opts.Addr, err)
		}
		c.conn, c.stub = conn, bookstorepb.NewBookstoreClient(conn)
	case JSONH1, JSONH1TLS:
		p, scheme := transport.H1, "http"
		if opts.Binding == JSONH1TLS {
			p, scheme = transport.H1TLS, "https"
		}
		hc, err := transport.NewClient(transport.ClientOptions{Protocol: p, RootCAs: opts.RootCAs, Insecure: opts.Insecure, ServerName: opts.ServerName, MaxConnsPerHost: 1, Network: opts.Network})
		if err != nil {
			return nil, err
		}
		c.http, c.url = hc, scheme+"://"+opts.Addr+"/v1/"+opts.Name
	default:
		return nil, fmt.Errorf("binding %q: want one of %v", opts.Binding, Bindings)
	}
	return c, nil
}

// GetBook asks for the client's book.
func (c *Client) GetBook(ctx context.Context) (*bookstorepb.Book, error) {
	book, _, err := c.getBook(ctx)
	return book, err
}

// getBook also returns the response payload size in bytes.
func (c *Client) getBook(ctx context.Context) (*bookstorepb.Book, int64, error) {
	if c.stub != nil {
		book, err := c.stub.GetBook(ctx, c.req)
		if err != nil {
			return nil, 0, err
		}
		return book, int64(proto.Size(book)), nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, int64(len(body)), err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, int64(len(body)), fmt.Errorf("GET %s: %s", c.url, resp.Status)
	}
	book := new(bookstorepb.Book)
	if err := protojson.Unmarshal(body, book); err != nil {
		return nil, int64(len(body)), fmt.Errorf("GET %s: %w", c.url, err)
	}
	return book, int64(len(body)), nil
}

// Call makes one GetBook call and returns the payload bytes received and
// sent (protobuf message sizes, or the JSON body): it is a load.Caller.
func (c *Client) Call(ctx context.Context) (received, sent int64, err error) {
	_, received, err = c.getBook(ctx)
	if c.stub != nil {
		sent = c.reqSize
	}
	return received, sent, err
}

// Connections returns how many connections the client has opened.
func (c *Client) Connections() int64 {
	if c.http != nil {
		return c.http.Counters().Connections
	}
	return c.dials.Load()
}

// Close closes the client's connections.
func (c *Client) Close() error {
	if c.conn != nil {
		return c.conn.Close()
	}
	return c.http.Close()
}
