package transport

import (
	"net"
	"net/http"
	"net/url"
)

// Authority is the Host (HTTP/2 and HTTP/3: :authority) a request to u
// carries: u's host and port, or, when o sends a ServerName over TLS and
// u names an IP address, ServerName with u's port, the site the name's
// certificate is for.
func (o ClientOptions) Authority(u *url.URL) string {
	if o.ServerName == "" || !o.Protocol.TLS() || net.ParseIP(u.Hostname()) == nil {
		return u.Host
	}
	if port := u.Port(); port != "" {
		return net.JoinHostPort(o.ServerName, port)
	}
	return o.ServerName
}

// named sends each request without a Host of its own (NewRequest sets
// the URL's) to the site o.ServerName names (Authority).
type named struct {
	rt http.RoundTripper
	o  ClientOptions
}

func (n named) RoundTrip(req *http.Request) (*http.Response, error) {
	if host := n.o.Authority(req.URL); (req.Host == "" || req.Host == req.URL.Host) && host != req.URL.Host {
		req = req.Clone(req.Context())
		req.Host = host
	}
	return n.rt.RoundTrip(req)
}
