package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// noLength hides its reader's length from the client, which then sends
// the body without a Content-Length: chunked over HTTP/1.1, DATA frames
// up to END_STREAM over HTTP/2 and HTTP/3.
type noLength struct{ r io.Reader }

func (n noLength) Read(p []byte) (int, error) { return n.r.Read(p) }

// TestUnknownLengthUploads sends /echo and /sink bodies of undeclared
// length over every transport: each is accepted up to the route's limit,
// the limit itself included, and refused with a readable 413 only once it
// passes it. Over h3 an /echo body one byte past the limit was echoed
// whole: quic-go returns a body's last bytes with its end, and the limit
// was looked at only before each read.
func TestUnknownLengthUploads(t *testing.T) {
	const maxEcho, maxSize = 200 * units.KiB, 600 * units.KiB
	srv, err := Start(Config{Options: Options{MaxEcho: maxEcho, MaxSize: maxSize}, Transport: Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, p := range transport.All {
		t.Run(p.String(), func(t *testing.T) {
			c, err := transport.NewClient(transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(srv.Transport.Cert())})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for _, tt := range []struct {
				route string
				size  int
				want  int
			}{
				{"/echo", 1000, http.StatusOK},
				{"/echo", int(maxEcho), http.StatusOK},
				{"/echo", int(maxEcho) + 1, http.StatusRequestEntityTooLarge},
				{"/sink", int(maxSize), http.StatusOK},
				{"/sink", int(maxSize) + 1, http.StatusRequestEntityTooLarge},
			} {
				body := strings.Repeat("u", tt.size)
				req, err := http.NewRequest(http.MethodPost, srv.Transport.URL(p)+tt.route, noLength{strings.NewReader(body)})
				if err != nil {
					t.Fatal(err)
				}
				resp, err := c.Do(req)
				if err != nil {
					t.Fatalf("%s %d bytes: %v", tt.route, tt.size, err)
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != tt.want {
					t.Fatalf("%s %d bytes of undeclared length: %s, %v (%.80q); want %d", tt.route, tt.size, resp.Status, err, got, tt.want)
				}
				switch {
				case tt.want == http.StatusRequestEntityTooLarge && !strings.Contains(string(got), "limit"):
					t.Errorf("%s %d bytes: 413 body %q does not say the limit", tt.route, tt.size, got)
				case tt.route == "/echo" && tt.want == http.StatusOK && string(got) != body:
					t.Errorf("/echo %d bytes: %d bytes back, not the body", tt.size, len(got))
				case tt.route == "/sink" && tt.want == http.StatusOK && !strings.Contains(string(got), `"bytes":614400`):
					t.Errorf("/sink %d bytes: %q, want all counted", tt.size, got)
				}
			}
		})
	}
}
