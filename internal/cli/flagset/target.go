package flagset

import (
	"net/url"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
)

// Target are the flags that say how to reach a URL: -p, -k, --cacert,
// --sni.
type Target struct {
	fs       *Set
	proto    string
	insecure bool
	cacert   string
	sni      string
}

// Register adds -p, -k, --cacert and --sni to fs.
func (t *Target) Register(fs *Set) {
	t.fs = fs
	fs.StringVar(&t.proto, "p", "", "transport: h1, h2c, h1-tls, h2 or h3 (default h1 for http://, h2 for https://)")
	fs.Alias("p", "protocol")
	fs.Alias("p", "protocols") // run's and tune's spelling, for one grammar
	fs.BoolVar(&t.insecure, "k", false, "skip TLS certificate verification (as curl -k)")
	fs.Alias("k", "insecure")
	fs.StringVar(&t.cacert, "cacert", "", "trust the PEM certificates in `file` (httpvs serve --write-cert writes one)")
	fs.StringVar(&t.sni, "sni", "", "the TLS server `name` sent (SNI) and verified, e.g. localhost (default: the URL's host; TLS sends none for an IP address)")
}

// Options checks rawURL against the flags and returns client options for
// it, with cfg as their tuning, which the library checks.
func (t *Target) Options(rawURL string, cfg config.Client) (transport.ClientOptions, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return transport.ClientOptions{}, Usagef("bad URL %q: want http://host:port/path or https://host:port/path", rawURL)
	}
	// -p, or the default for the scheme, http or https: the library
	// checks that -p fits the URL.
	p := transport.H1
	if u.Scheme == "https" {
		p = transport.H2
	}
	if t.proto != "" {
		if p, err = transport.Parse(t.proto); err != nil {
			return transport.ClientOptions{}, Usagef("-p: %v", err)
		}
	}
	opts := transport.ClientOptions{Protocol: p, Config: cfg, Insecure: t.insecure, ServerName: t.sni}
	if t.cacert != "" {
		if opts.RootCAs, err = LoadCertPool(t.cacert); err != nil {
			return transport.ClientOptions{}, Usagef("--cacert: %v", err)
		}
	}
	return opts, nil
}
