package matrix

import (
	"net/url"

	"github.com/httpvs/httpvs/internal/bookstore"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/transport"
)

// bindings maps a gRPC scenario's transport columns to the gRPC ServeHTTP post's
// bindings: JSON over HTTP/1.1, grpc.Server.ServeHTTP over HTTP/2.
var bindings = map[transport.Protocol]bookstore.Binding{
	transport.H1:    bookstore.JSONH1,
	transport.H1TLS: bookstore.JSONH1TLS,
	transport.H2C:   bookstore.ServeHTTPH2C,
	transport.H2:    bookstore.ServeHTTPH2,
}

// rpcConfig makes cfg call GetBook over col's binding, one client (one
// connection) per connection slot.
func (r *runner) rpcConfig(cfg *load.Config, col column) {
	opts := bookstore.ClientOptions{Binding: bindings[col.proto], RootCAs: r.opts.Target.RootCAs, Insecure: r.opts.Target.Insecure, ServerName: r.opts.Target.ServerName, Network: r.opts.Network}
	engine := "grpc-go"
	switch {
	case col.native:
		opts.Binding, opts.Addr = bookstore.Native, r.opts.Target.GRPC
		cfg.URL = "http://" + opts.Addr
	default:
		if u, err := url.Parse(targetBase(r.opts.Target, col.proto)); err == nil {
			opts.Addr = u.Host
		}
		cfg.URL = targetBase(r.opts.Target, col.proto) + "/v1/" + bookstore.DefaultBookName
		if col.proto.Version() == 1 {
			engine = "net/http json"
		}
	}
	cfg.Method, cfg.CallerName, cfg.BodySize, cfg.Headers = "GetBook", engine, 0, load.HeaderSpec{}
	cfg.NewCaller = func() (load.Caller, error) { return bookstore.NewClient(opts) }
}
