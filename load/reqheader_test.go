package load

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// TestUserHostAndHopByHop: a user's Host header (any case) is the
// request's host, sent once, on every engine and transport (Go's server
// answers 400 to a request with two); the hop-by-hop headers never reach
// an HTTP/2 or HTTP/3 server (Go's refuses such a request), and HTTP/1.1
// sends the ones it may as given.
func TestUserHostAndHopByHop(t *testing.T) {
	var mu sync.Mutex
	var bad []string
	seen := 0
	ts, _ := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen++
		var why []string
		if r.Host != "api.example:8443" || len(r.Header["Host"]) > 0 {
			why = append(why, "host "+r.Host)
		}
		if r.Header.Get("X-Kept") != "1" {
			why = append(why, "no X-Kept")
		}
		for _, k := range []string{"Connection", "Keep-Alive", "Proxy-Connection", "Upgrade", "Transfer-Encoding"} {
			if v := r.Header.Get(k); v != "" && r.ProtoMajor > 1 {
				why = append(why, k+": "+v)
			}
		}
		if r.ProtoMajor == 1 && r.Header.Get("Keep-Alive") != "timeout=5" {
			why = append(why, "HTTP/1.1 without its Keep-Alive")
		}
		if len(why) > 0 {
			bad = append(bad, r.Proto+" "+strings.Join(why, ", "))
		}
		w.Write([]byte("ok"))
	}))
	for _, engine := range []Engine{Std, Fast} {
		for _, p := range transport.All {
			t.Run(engine.String()+"/"+p.String(), func(t *testing.T) {
				// Names as users write them (a targets file keeps their
				// case): a plain map, not canonicalized.
				h := map[string][]string{"host": {"api.example:8443"}, "X-Kept": {"1"}, "Connection": {"keep-alive"}, "Keep-Alive": {"timeout=5"}, "Proxy-Connection": {"keep-alive"}}
				if p.Version() > 1 {
					h["Upgrade"], h["Transfer-Encoding"], h["TE"] = []string{"websocket"}, []string{"chunked"}, []string{"gzip"}
				}
				cfg := Config{URL: ts.URL(p) + "/", Client: transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(ts.Cert())},
					Conns: 1, Streams: 1, Requests: 20, Header: http.Header(h), Engine: engine}
				res := mustRun(t, cfg)
				if res.Requests != 20 || res.Errors.Total != 0 {
					t.Fatalf("%d requests, errors %v: %s", res.Requests, res.Errors, res.FirstError)
				}
				if len(h["host"]) != 1 || len(h["Upgrade"]) != len(h["TE"]) {
					t.Errorf("the caller's header was changed: %v", h)
				}
			})
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 || seen == 0 {
		t.Errorf("%d requests seen; %d wrong, first: %v", seen, len(bad), bad[:min(len(bad), 1)])
	}
}
