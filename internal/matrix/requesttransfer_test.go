package matrix

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// bigBody is the large response of these tests: past
// defaults.TransferResponse.
const bigBody = 2 << 20

// bigAndSmall are options measuring GET /big (bigBody bytes) and GET
// /small (100 bytes) over h1 and h2c, one round each.
func bigAndSmall(t *testing.T) Options {
	t.Helper()
	body := make([]byte, bigBody)
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) { w.Write(body) })
	mux.HandleFunc("/small", func(w http.ResponseWriter, _ *http.Request) { w.Write(body[:100]) })
	return Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/big"}, {Method: "GET", Path: "/small"}}),
		Repeat:    1,
		MaxRepeat: 1,
		Duration:  50 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, mux)}}
}

// TestRequestTransferDecided: a user's GET whose response is
// defaults.TransferResponse or more is decided to be a transfer: its size and
// the decision recorded in the request (the caller's left as given) and
// said in a line, each round fetching it several times one at a time
// and in whole waves 50 at a time; a small response stays a request load.
func TestRequestTransferDecided(t *testing.T) {
	o := bigAndSmall(t)
	sized, notes, _ := sizeRequests(context.Background(), o, 0)
	if r := spec(&o.Scenarios[0]).Req; r.ResponseBytes != 0 || r.Transfer || spec(&o.Scenarios[0]).Transfers != 0 {
		t.Fatalf("the caller's request changed: %+v", r)
	}
	for i, sc := range sized.Scenarios {
		r, wantSize, transfer := spec(&sc).Req, int64(bigBody), i < 2
		if !transfer {
			wantSize = 100
		}
		if r.ResponseBytes != wantSize || r.Transfer != transfer || userTransfer(sc) != transfer {
			t.Errorf("%s: response %d bytes, transfer %v; want %d, %v", sc.Name, r.ResponseBytes, r.Transfer, wantSize, transfer)
		}
	}
	if n := spec(&sized.Scenarios[0]).Transfers; n < minTransferResponses {
		t.Errorf("request-1: %d responses a round, want %d at least", n, minTransferResponses)
	}
	if n := spec(&sized.Scenarios[1]).Transfers; n < 50 || n%50 != 0 {
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
	if strings.Contains(text, "GET /small answers") {
		t.Errorf("the small request called a transfer:\n%s", text)
	}
}

// TestRequestTransferMeasured: a user's request decided to be a transfer
// is measured as one: its cells in bytes per second and CPU per GB, each
// repetition every response of its round, whole; the small request's
// cells stay requests per second; results keep both requests' sizes.
func TestRequestTransferMeasured(t *testing.T) {
	sized, _, _ := sizeRequests(context.Background(), bigAndSmall(t), 0)
	res, err := Run(context.Background(), sized)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Settings.Requests; len(r) != 2 || r[0].ResponseBytes != bigBody || !r[0].Transfer || r[1].ResponseBytes != 100 || r[1].Transfer {
		t.Errorf("settings' requests %+v", r)
	}
	responses := map[string]int64{}
	for _, sc := range sized.Scenarios {
		responses[sc.Name] = int64(spec(&sc).Transfers)
	}
	for _, c := range res.Cells {
		n := responses[c.Scenario]
		wantMetric, wantUnit := results.MetricRequestsPerSecond, "1000 requests"
		if n > 0 {
			wantMetric, wantUnit = results.MetricBytesPerSecond, "GB"
		}
		if c.Metric != wantMetric || c.CPUUnit != wantUnit || len(c.Repetitions) != 1 || c.Errors.Total != 0 {
			t.Errorf("%s/%s: metric %s per %s, %d repetitions, %d errors; want %s per %s", c.Scenario, c.Protocol, c.Metric, c.CPUUnit, len(c.Repetitions), c.Errors.Total, wantMetric, wantUnit)
			continue
		}
		if m := c.Repetitions[0]; n > 0 && (m.Requests != n || m.Bytes != n*bigBody || m.SizeBytes != bigBody || m.Value <= 0) {
			t.Errorf("%s/%s: %d responses, %d bytes, each %d; want %d of %d", c.Scenario, c.Protocol, m.Requests, m.Bytes, m.SizeBytes, n, bigBody)
		}
	}
}

// TestRequestTransferTimedPerTransport: a user's request found to be a
// transfer is timed over each transport the target serves, and each
// transport's round is estimated from its own time. Over h2c the handler
// sleeps between chunks (at least slowH2 in all: sleeping is never
// faster than asked), h1 answers at once, h3 answers an error: h3 keeps
// h1's time and the note says so. The h2c round is estimated at its
// Transfers times its own response, the larger; the note says each
// transport's time as the spec holds it.
func TestRequestTransferTimedPerTransport(t *testing.T) {
	const chunks, pause = 16, 20 * time.Millisecond
	slowH2 := chunks * pause
	body := make([]byte, bigBody)
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		switch r.ProtoMajor {
		case 3:
			http.Error(w, "not over h3", http.StatusServiceUnavailable)
			return
		case 2:
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			for c := range chunks {
				time.Sleep(pause)
				w.Write(body[c*len(body)/chunks : (c+1)*len(body)/chunks])
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Write(body)
	})
	o := Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C, transport.H3},
		Scenarios: plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/big"}}),
		Repeat:    3,
		Duration:  50 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, mux)}}
	sized, notes, _ := sizeRequests(context.Background(), o, 0)
	if spec(&o.Scenarios[0]).OneResponse != nil {
		t.Fatal("the caller's scenario changed")
	}
	sc := sized.Scenarios[0]
	each := spec(&sc).OneResponse
	h1, h2c, h3 := each[transport.H1], each[transport.H2C], each[transport.H3]
	if len(each) != 3 || h1 <= 0 || h2c < slowH2 || h1 >= h2c || h3 != h1 {
		t.Fatalf("one response took %v; want h1 under h2c (at least %v), h3 at h1's", each, slowH2)
	}
	if err := sized.fill(); err != nil {
		t.Fatal(err)
	}
	n := time.Duration(spec(&sc).Transfers)
	cost := func(p transport.Protocol) time.Duration {
		return sized.roundCost(sc, p) - sized.coldCost(p, false) - sized.RTT
	}
	if got := cost(transport.H2C); got != n*h2c || got <= cost(transport.H1) || cost(transport.H1) != n*h1 {
		t.Errorf("rounds estimated h1 %v, h2c %v; want %d responses of %v and %v, h2c's the larger", cost(transport.H1), got, n, h1, h2c)
	}
	// A budget shorter than the fewest first rounds: said before the run.
	_, est, note, err := FitBudget(sized, n*h2c)
	if err != nil || est.Time < 3*n*h2c || !strings.Contains(note, "the budget cannot hold the first 3 rounds a cell") {
		t.Errorf("a budget of one h2c round: estimated %v, %q, %v; want at least %v, said it cannot hold them", est.Time, note, err, 3*n*h2c)
	}
	text := strings.Join(notes, "\n")
	for _, want := range []string{
		fmt.Sprintf("; one response took h1 %v, h2c %v, h3 %v, a round estimated at that many times each", roundTook(h1), roundTook(h2c), roundTook(h3)),
		"; its fetch failed over h3 (status 503 Service Unavailable): counted at h1's time",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("notes lack %q:\n%s", want, text)
		}
	}
}
