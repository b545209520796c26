package matrix

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestCheckTarget: against servers that speak HTTP/1.1 alone (Go's
// httptest servers: no h2c, TLS offering only http/1.1 by ALPN, nothing on
// UDP), each transport they do not speak is left out in the words users
// look for, as is a scenario whose endpoint answers 404; the user's own
// request stays, whatever the server answers it.
func TestCheckTarget(t *testing.T) {
	t.Parallel() // mostly waits on probes that time out; its servers are its own
	mux := http.NewServeMux()
	mux.HandleFunc("/small", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	plain := httptest.NewServer(mux)
	defer plain.Close()
	tls := httptest.NewTLSServer(mux) // without EnableHTTP2: ALPN http/1.1 only
	defer tls.Close()
	o := Options{Options: plan.Options{
		Protocols: transport.All,
		Scenarios: append(scenarios(t, "small-sequential,headers-body,grpc-1"), plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/missing"}})...),
	}, Wiring: Wiring{Target: Target{Plain: plain.URL, TLS: tls.URL, Insecure: true}}}
	got, notRun := checkTarget(context.Background(), o)
	var protos, names []string
	for _, p := range got.Protocols {
		protos = append(protos, p.String())
	}
	for _, sc := range got.Scenarios {
		names = append(names, sc.Name)
	}
	if strings.Join(protos, ",") != "h1,h1-tls" || strings.Join(names, ",") != "small-sequential,request-1,request-1-x50" {
		t.Errorf("kept %v and %v", protos, names)
	}
	why := map[string]string{}
	for _, n := range notRun {
		why[n.Scenario+n.Protocol] = n.Reason
	}
	for what, want := range map[string]string{
		"h2c":          "h2c prior knowledge refused by this server",
		"h2":           "no ALPN h2",
		"h3":           "no QUIC on the port",
		"headers-body": "no POST /echo (404 Not Found over h1)",
		"grpc-1":       "404 Not Found",
	} {
		if !strings.Contains(why[what], want) {
			t.Errorf("%s: %q, want %q", what, why[what], want)
		}
	}
	if len(notRun) != 5 {
		t.Errorf("not run: %+v", notRun)
	}
}
