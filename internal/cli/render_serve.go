package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Banner is what httpvs serve says it serves: its base URLs ("" for a
// transport it does not serve), its certificate and its gRPC listener.
type Banner struct {
	Version string
	PID     int
	// Plain is the base URL of h1 and h2c, TLS of h1-tls and h2, H3 of h3
	// (over UDP, on TLS's port number).
	Plain, TLS, H3 string
	// SelfSigned says the certificate was made at start (not --cert);
	// Fingerprint is its SHA-256, "" without TLS; CertPath is where it
	// was written, "" if nowhere.
	SelfSigned            bool
	Fingerprint, CertPath string
	GRPC                  string // host:port of grpc-go's own listener; "" for none
}

// BannerOf is the Banner of srv, this process's server: selfSigned says
// its certificate was made at start, certPath where it was written ("" if
// nowhere).
func BannerOf(srv *server.Running, selfSigned bool, certPath string) Banner {
	ts := srv.Transport
	b := Banner{Version: buildinfo.ReadBuild().String(), PID: os.Getpid(), Plain: ts.URL(transport.H1), TLS: ts.URL(transport.H2),
		H3: ts.URL(transport.H3), SelfSigned: selfSigned, CertPath: certPath, GRPC: srv.GRPCAddr}
	if ts.Has(transport.H2) {
		b.Fingerprint = flagset.Fingerprint(ts.Cert())
	}
	return b
}

// ServeWarnings writes, a line each, that srv listens where anyone may
// reach it and, without a token, what it then refuses; and quic-go's UDP
// buffer warning when it serves h3.
func ServeWarnings(w io.Writer, srv *server.Running, token bool) {
	exposed := srv.BeyondLoopback()
	for _, addr := range exposed {
		fmt.Fprintf(w, "warning: listening on %s, which is not a loopback address: anyone who can reach it can download and upload through this server\n", addr)
	}
	if len(exposed) > 0 && !token {
		fmt.Fprintf(w, "httpvs serve: POST /stats/reset and /debug/profile/ are refused beyond loopback without a token: set %s (or --token) here and for the clients that need them\n", serverctl.TokenEnv)
	}
	if udp := dial.UDPBufferWarning(); udp != "" && srv.Transport.Has(transport.H3) {
		fmt.Fprintln(w, udp)
	}
}

// ServeBanner writes httpvs serve's first screen: where each transport
// listens, the certificate, the routes, and curl lines to try them.
func ServeBanner(w io.Writer, b Banner) {
	fmt.Fprintf(w, "httpvs serve: %s, pid %d\n", b.Version, b.PID)
	if b.Plain != "" {
		fmt.Fprintf(w, "  h1, h2c      %s\n", b.Plain)
	}
	if b.TLS != "" {
		fmt.Fprintf(w, "  h1-tls, h2   %s\n", b.TLS)
	}
	if b.H3 != "" {
		fmt.Fprintf(w, "  h3           %s (UDP)\n", b.H3)
	}
	if b.Fingerprint != "" {
		kind := "from --cert"
		if b.SelfSigned {
			kind = "self-signed"
		}
		fmt.Fprintf(w, "  certificate  %s, SHA-256 %s\n", kind, b.Fingerprint)
		if b.CertPath != "" {
			fmt.Fprintf(w, "               written to %s\n", b.CertPath)
		}
	}
	if b.GRPC != "" {
		fmt.Fprintf(w, "  gRPC         %s (grpc-go's own transport); also via ServeHTTP on the h2c and h2 ports\n", b.GRPC)
	}
	fmt.Fprintln(w, "  routes       GET /bytes/{size} and /{size} (10000000000, 10g, 64Ki), PUT /sink, GET /small, POST /echo, GET /stats")
	fmt.Fprintln(w, "               GET /page/: a page for a browser (page-load's, or --page's)")
	fmt.Fprintln(w, "               gRPC httpvs.bookstore.v1.Bookstore/GetBook; as JSON: GET /v1/shelves/{shelf}/books/{book}")
	if b.Plain != "" {
		fmt.Fprintf(w, "  try          curl -o /dev/null %s/10000000000\n", b.Plain)
		fmt.Fprintf(w, "               curl -o /dev/null --http2-prior-knowledge %s/10g\n", b.Plain)
	}
	if b.TLS != "" {
		fmt.Fprintf(w, "               curl -k -o /dev/null %s/1g\n", b.TLS)
	}
}

// ServeSummary writes, as httpvs serve stops, what the server served, and
// how many connection errors net/http logged that -v would have shown
// (logged).
func ServeSummary(w io.Writer, st stats.ServerStats, logged int64) {
	total := st.Total()
	fmt.Fprintf(w, "httpvs serve: stopped after %s: %d requests, %s sent, %s received\n",
		time.Duration(st.Seconds*float64(time.Second)).Round(time.Second), total.Requests,
		units.Bytes(total.BodyBytesSent).Human(), units.Bytes(total.BodyBytesReceived).Human())
	if logged > 0 {
		fmt.Fprintf(w, "httpvs serve: net/http logged %d connection errors (TLS handshakes, resets); -v prints them\n", logged)
	}
}
