package matrix

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestRequestTransfer: a user's GET whose response is plan.TransferResponse
// or more is measured as a transfer: its size and the decision recorded
// in the request (the caller's left as given) and said in a line, each
// round fetching it several times one at a time and once a stream 50 at
// a time, its cells in bytes per second and CPU per GB, every response
// whole; a small response stays a request load.
func TestRequestTransfer(t *testing.T) {
	const big = 2 << 20
	body := make([]byte, big)
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) { w.Write(body) })
	mux.HandleFunc("/small", func(w http.ResponseWriter, _ *http.Request) { w.Write(body[:100]) })
	o := Options{Options: plan.Options{
		Target:    target(t, mux),
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/big"}, {Method: "GET", Path: "/small"}}),
		Repeat:    1,
		MaxRepeat: 1,
		Duration:  50 * time.Millisecond,
	}}
	sized, notes := sizeRequests(context.Background(), o, 0)
	if r := spec(&o.Scenarios[0]).Req; r.ResponseBytes != 0 || r.Transfer || spec(&o.Scenarios[0]).Transfers != 0 {
		t.Fatalf("the caller's request changed: %+v", r)
	}
	for i, sc := range sized.Scenarios {
		r, wantSize, transfer := spec(&sc).Req, int64(big), i < 2
		if !transfer {
			wantSize = 100
		}
		if r.ResponseBytes != wantSize || r.Transfer != transfer || userTransfer(sc) != transfer {
			t.Errorf("%s: response %d bytes, transfer %v; want %d, %v", sc.Name, r.ResponseBytes, r.Transfer, wantSize, transfer)
		}
	}
	one, many := sized.Scenarios[0], sized.Scenarios[1]
	if n := spec(&one).Transfers; n < minTransferResponses {
		t.Errorf("request-1: %d responses a round, want %d at least", n, minTransferResponses)
	}
	if n := spec(&many).Transfers; n < 50 || n%50 != 0 {
		t.Errorf("request-1-x50: %d responses a round, want whole waves of 50", n)
	}
	text := strings.Join(notes, "\n")
	for _, want := range []string{
		"request-1: GET /big answers 2.0 MiB (1.0 MiB or more): measured as a transfer, in bytes per second and CPU per GB, ",
		" responses a round, one at a time",
		"request-1-x50: GET /big answers 2.0 MiB (1.0 MiB or more): measured as a transfer, in bytes per second and CPU per GB, ",
		" responses a round, 50 at a time",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("notes lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "GET /small") {
		t.Errorf("a note of the small request:\n%s", text)
	}

	res, err := Run(context.Background(), sized.Options)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Settings.Requests; len(r) != 2 || r[0].ResponseBytes != big || !r[0].Transfer || r[1].ResponseBytes != 100 || r[1].Transfer {
		t.Errorf("settings' requests %+v", r)
	}
	for _, c := range res.Cells {
		sc, _ := ScenarioOf(&res.Settings, c.Scenario)
		transfer := strings.HasPrefix(c.Scenario, "request-1")
		wantMetric, wantUnit := results.MetricRequestsPerSecond, "1000 requests"
		if transfer {
			wantMetric, wantUnit = results.MetricBytesPerSecond, "GB"
		}
		if c.Metric != wantMetric || c.CPUUnit != wantUnit || len(c.Repetitions) != 1 || c.Errors.Total != 0 {
			t.Errorf("%s/%s: metric %s per %s, %d repetitions, %d errors; want %s per %s", c.Scenario, c.Protocol, c.Metric, c.CPUUnit, len(c.Repetitions), c.Errors.Total, wantMetric, wantUnit)
			continue
		}
		if !transfer {
			continue
		}
		n := int64(spec(&one).Transfers)
		if c.Scenario == many.Name {
			n = int64(spec(&many).Transfers)
		}
		m := c.Repetitions[0]
		if m.Requests != n || m.Bytes != n*big || m.SizeBytes != big || m.Value <= 0 || sc.Name != c.Scenario {
			t.Errorf("%s/%s: %d responses, %d bytes, each %d; want %d of %d", c.Scenario, c.Protocol, m.Requests, m.Bytes, m.SizeBytes, n, big)
		}
	}
}
