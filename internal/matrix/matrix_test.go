package matrix

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// target starts an httpvs payload server in this process (h may replace
// its handler) and returns a Target for it.
func target(t *testing.T, h http.Handler) Target {
	t.Helper()
	opts := server.Loopback()
	opts.Handler = h
	srv, err := server.Start(server.Config{Transport: opts, GRPCListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := srv.Transport
	return Target{Plain: ts.URL(transport.H1), TLS: ts.URL(transport.H2), RootCAs: transport.CertPool(ts.Cert()), GRPC: srv.GRPCAddr}
}

func scenarios(t *testing.T, list string) []Scenario {
	t.Helper()
	s, err := plan.ParseScenarios(list)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFixedSizeMovesExactBytes runs the transfer scenarios with a fixed
// size over every transport: each repetition moves exactly that many body
// bytes, by the client's count and by the server's.
func TestFixedSizeMovesExactBytes(t *testing.T) {
	t.Parallel() // exact bytes and counts, no rate: beside TestCheckTarget, after the serial tests
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: transport.All,
		Scenarios: scenarios(t, "download,download-parallel-10,download-parallel-100,upload"),
		Repeat:    2,
		Size:      exactSize,
		Duration:  50 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Partial || len(res.Cells) != 20 {
		t.Fatalf("partial %v, %d cells, want 20", res.Partial, len(res.Cells))
	}
	for _, c := range res.Cells {
		if c.Skipped != "" || len(c.Repetitions) != 2 {
			t.Fatalf("%s/%s: skipped %q, %d repetitions", c.Scenario, c.Protocol, c.Skipped, len(c.Repetitions))
		}
		for _, r := range c.Repetitions {
			checkExactRepetition(t, c, r)
		}
		if c.Median <= 0 || c.Min > c.Median || c.Median > c.Max {
			t.Errorf("%s/%s: min %v median %v max %v", c.Scenario, c.Protocol, c.Min, c.Median, c.Max)
		}
	}
	if p10 := res.Cell("download-parallel-10", "h1"); p10.Repetitions[0].Connections != 10 || p10.Repetitions[0].SizeBytes != int64(exactSize/10) {
		t.Errorf("h1 x10: %d connections, %d bytes per stream; want 10 and %d", p10.Repetitions[0].Connections, p10.Repetitions[0].SizeBytes, exactSize/10)
	}
	if p10 := res.Cell("download-parallel-10", "h2c"); p10.Repetitions[0].Connections != 1 {
		t.Errorf("h2c x10: %d connections, want 1", p10.Repetitions[0].Connections)
	}
}

// exactSize is TestFixedSizeMovesExactBytes's transfer: 20 KiB a stream
// of download-parallel-100 (every scenario's streams split it evenly), and
// past every initial flow-control window over one stream (transfer's
// TestExactBytesEveryTransport moves tens of megabytes over one).
const exactSize = 100 * 20 * units.KiB

// checkExactRepetition checks one repetition of a fixed-size transfer
// cell: exactly exactSize moved without errors over the transport asked
// for, the server's body bytes equal to the client's, and client CPU
// measured.
func checkExactRepetition(t *testing.T, c results.Cell, r results.Repetition) {
	t.Helper()
	if r.Bytes != int64(exactSize) || r.Errors.Total != 0 || r.Negotiated != c.Protocol {
		t.Errorf("%s/%s: %d bytes (want %d), errors %v %s, negotiated %q", c.Scenario, c.Protocol, r.Bytes, exactSize, r.Errors, r.FirstError, r.Negotiated)
	}
	if r.Server == nil {
		t.Fatalf("%s/%s: no server counters: %s", c.Scenario, c.Protocol, r.ServerNote)
	}
	pc := r.Server.Protocols[c.Protocol]
	if got := pc.BodyBytesSent + pc.BodyBytesReceived; got != r.Bytes {
		t.Errorf("%s/%s: server moved %d body bytes, client %d", c.Scenario, c.Protocol, got, r.Bytes)
	}
	if r.ClientCPUSeconds <= 0 || r.ClientCPUPerUnit <= 0 {
		t.Errorf("%s/%s: client CPU %v, per GB %v", c.Scenario, c.Protocol, r.ClientCPUSeconds, r.ClientCPUPerUnit)
	}
}

func TestLoadScenariosCountRequests(t *testing.T) {
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C, transport.H3},
		Scenarios: scenarios(t, "small-sequential,small-concurrent,headers-body"),
		Repeat:    1,
		// Long enough that the tens of milliseconds a /stats snapshot can
		// take under -race stay inside the window check below (at 100ms it
		// failed both ways: 0.027s and 0.263s of server counters).
		Duration: 300 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cells {
		r := c.Repetitions[0]
		// Under -race on a busy machine 50 concurrent h3 echoes can finish
		// fewer than minRequests even after the retries; some must finish.
		if r.Requests == 0 || r.Errors.Total != 0 || r.Negotiated != c.Protocol {
			t.Errorf("%s/%s: %d requests, errors %v %s, negotiated %q", c.Scenario, c.Protocol, r.Requests, r.Errors, r.FirstError, r.Negotiated)
			continue
		}
		if r.Server == nil {
			t.Fatalf("%s/%s: no server counters: %s", c.Scenario, c.Protocol, r.ServerNote)
		}
		// The server's counters bracket the client's measured phase: the
		// client counts only requests claimed after the first snapshot
		// returned, and the second is read after its end. So the server's
		// window holds the client's, and its count holds the client's but
		// for requests in flight at the end. How much longer the server's
		// window is depends on how long a /stats read takes on a loaded
		// machine (0.5 s of a 1.2 s window once): its count is bounded by
		// the client's rate over that window, not by the client's count.
		srv := r.Server.Protocols[c.Protocol].Requests
		slack := 2*int64(r.Streams) + r.Requests/10
		atRate := int64(float64(r.Requests) / r.Seconds * r.Server.Seconds * 1.5)
		if srv < r.Requests-slack || srv > atRate+slack {
			t.Errorf("%s/%s: server counted %d requests in %.3fs, client %d in %.3fs (slack %d)", c.Scenario, c.Protocol, srv, r.Server.Seconds, r.Requests, r.Seconds, slack)
		}
		if r.Server.Seconds < r.Seconds-0.001 {
			t.Errorf("%s/%s: server counters cover %.3fs, less than the client's %.3fs", c.Scenario, c.Protocol, r.Server.Seconds, r.Seconds)
		}
		if c.Scenario == "headers-body" && r.Bytes != r.Requests*2*ginBody {
			t.Errorf("headers-body/%s: %d body bytes for %d echoes of %d", c.Protocol, r.Bytes, r.Requests, ginBody)
		}
		if c.Scenario == "small-sequential" && (r.Connections != 1 || r.Latency.Count != r.Requests) {
			t.Errorf("small-sequential/%s: %d connections, %d latencies for %d requests", c.Protocol, r.Connections, r.Latency.Count, r.Requests)
		}
		if h, err := histogram.Decode(r.LatencyHistogram); err != nil || h.Summary() != r.Latency {
			t.Errorf("%s/%s: latency_histogram does not hold latency_seconds: %v", c.Scenario, c.Protocol, err)
		}
	}
}

func TestGRPCScenarioEveryBinding(t *testing.T) {
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: transport.All,
		Scenarios: scenarios(t, "grpc-1,grpc-50"),
		Repeat:    1,
		Duration:  100 * time.Millisecond,
		// 50 TLS handshakes under -race on two shared cores outlast a short
		// warmup; the server's snapshot request then waits behind them and
		// brackets a window the calls have already left (seen once in CI).
		Warmup: 300 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.ProtocolNames("grpc-50"), ","); got != "h1,h2c,h1-tls,h2,h3,grpc-native" {
		t.Errorf("columns %s", got)
	}
	engines := map[string]string{"h1": "net/http json", "h1-tls": "net/http json", "h2c": "grpc-go", "h2": "grpc-go", NativeColumn: "grpc-go"}
	for _, c := range res.Cells {
		if c.Protocol == "h3" {
			if !strings.Contains(c.Skipped, "no gRPC binding over HTTP/3") {
				t.Errorf("%s/h3: skipped %q", c.Scenario, c.Skipped)
			}
			continue
		}
		if c.Skipped != "" || len(c.Repetitions) != 1 {
			t.Fatalf("%s/%s: skipped %q", c.Scenario, c.Protocol, c.Skipped)
		}
		r := c.Repetitions[0]
		if r.Requests == 0 || r.Errors.Total != 0 || r.Engine != engines[c.Protocol] {
			t.Errorf("%s/%s: %d requests, errors %v %s, engine %q", c.Scenario, c.Protocol, r.Requests, r.Errors, r.FirstError, r.Engine)
		}
		// HTTP/1.1 needs a connection per call in flight: 50 at least.
		// Go's transport may dial one more when a call finds no idle
		// connection a moment before another is returned (it keeps
		// both), so h1's count is a floor; a multiplexed one is exact.
		if h1 := c.Scenario == "grpc-50" && (c.Protocol == "h1" || c.Protocol == "h1-tls"); h1 && r.Connections < 50 || !h1 && r.Connections != 1 {
			t.Errorf("%s/%s: %d connections, want %s", c.Scenario, c.Protocol, r.Connections, map[bool]string{true: "50 or more", false: "1"}[h1])
		}
		// The server counted the calls where they arrived: natively or
		// through net/http as the column's transport. It counts a call as
		// it arrives, the client as it ends: the calls in flight when the
		// window opened (up to one per stream) ended in it but arrived
		// before it. (Half the client's count was asked before: a window
		// that holds one wave of grpc-50's calls, as a loaded machine's
		// does, missed it.)
		counted := c.Protocol
		if r.Server == nil {
			t.Fatalf("%s/%s: no server counters: %s", c.Scenario, c.Protocol, r.ServerNote)
		}
		if got := r.Server.Protocols[counted].Requests; got <= 0 || got < r.Requests-int64(r.Streams) {
			t.Errorf("%s/%s: server counted %d calls, client %d over %d streams", c.Scenario, c.Protocol, got, r.Requests, r.Streams)
		}
	}
}

func TestMissingEndpointsAndTargetsAreSkipped(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /small", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	tg := target(t, mux)
	tg.TLS = ""
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2},
		Scenarios: scenarios(t, "download,small-sequential"),
		Repeat:    1,
		Duration:  50 * time.Millisecond,
	}, Wiring: Wiring{Target: tg}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"download/h1":         "404 Not Found",
		"download/h2":         "no TLS target URL for h2",
		"small-sequential/h2": "no TLS target URL for h2",
	}
	for _, c := range res.Cells {
		key := c.Scenario + "/" + c.Protocol
		if w, ok := want[key]; ok != (c.Skipped != "") || !strings.Contains(c.Skipped, w) {
			t.Errorf("%s: skipped %q, want %q", key, c.Skipped, w)
		}
	}
	sm := res.Cell("small-sequential", "h1")
	if sm == nil || sm.Median <= 0 || sm.Repetitions[0].Server != nil || !strings.Contains(sm.Repetitions[0].ServerNote, "404") {
		t.Errorf("small-sequential/h1 against a server without /stats: %+v", sm)
	}
}

func TestInterruptedRunIsPartialAndRoundTrips(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := run(ctx, Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "small-sequential,small-concurrent"),
		Repeat:    3,
		Duration:  100 * time.Millisecond,
		Progress: func(p Progress) {
			if p.Done == 3 {
				cancel()
			}
		},
	}, Wiring: Wiring{Target: target(t, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || !strings.Contains(res.PartialReason, "interrupted") {
		t.Fatalf("partial %v (%q), want an interrupted run", res.Partial, res.PartialReason)
	}
	if len(res.Cells) != 2 {
		t.Fatalf("%d cells, want the 2 of the first scenario", len(res.Cells))
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Partial || len(back.Cells) != 2 || back.Cells[0].Median != res.Cells[0].Median ||
		len(back.Cells[0].Repetitions) != len(res.Cells[0].Repetitions) || back.Env != res.Env {
		t.Errorf("round trip changed the results:\n%+v\n%+v", back.Cells, res.Cells)
	}
}

func TestReadJSONRefuses(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"schema_version": 2}`, "schema version 2: this httpvs reads version 1 only"},
		{`{"cells": []}`, "no schema_version"},
		{`[1, 2]`, "not an httpvs results file"},
		{`{"kind": "load", "schema_version": 1, "requests": 300}`, "a load result, not the results.json of httpvs run"},
	} {
		if _, err := results.ReadJSON(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestParseScenarios(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  string
	}{
		{"all", []string{"download", "download-parallel-10", "download-parallel-100", "upload", "small-sequential", "small-concurrent", "headers-body", "grpc-1", "grpc-50"}, ""},
		{"grpc", []string{"grpc-1", "grpc-50"}, ""},
		{"net", []string{"cold-start", "cold-start-resumed", "page-load", "head-of-line"}, ""},
		{"page-load,download", []string{"download", "page-load"}, ""},
		{"upload, download", []string{"download", "upload"}, ""},
		{"download-parallel,download-parallel-10", []string{"download-parallel-10", "download-parallel-100"}, ""},
		{"dowload", nil, `unknown scenario "dowload": want all or a comma-separated list of download,`},
		{"", nil, `unknown scenario ""`},
	} {
		got, err := plan.ParseScenarios(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		var names []string
		for _, s := range got {
			names = append(names, s.Name)
		}
		if err != nil || strings.Join(names, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%q: %v %v, want %v", tt.in, names, err, tt.want)
		}
	}
}

func FuzzParseScenarios(f *testing.F) {
	for _, s := range []string{"all", "download", "download-parallel,upload", " small-sequential , headers-body", "", ",", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		got, err := plan.ParseScenarios(list)
		if err != nil {
			if !strings.Contains(err.Error(), "want all or a comma-separated list of") {
				t.Fatalf("%q: error %q does not list the valid names", list, err)
			}
			return
		}
		if len(got) == 0 {
			t.Fatalf("%q: no scenarios and no error", list)
		}
		seen := map[string]bool{}
		for _, s := range got {
			if seen[s.Name] {
				t.Fatalf("%q: %s twice", list, s.Name)
			}
			seen[s.Name] = true
			if _, ok := ScenarioByName(s.Name); !ok {
				t.Fatalf("%q: unknown scenario %q returned", list, s.Name)
			}
		}
	})
}

// FuzzReadJSON decodes arbitrary results files: never a panic, and what
// it accepts survives a write and a second read unchanged.
func FuzzReadJSON(f *testing.F) {
	for _, s := range []string{
		`{"schema_version": 1, "cells": []}`,
		`{"schema_version": 1, "partial": true, "cells": [{"scenario": "download", "protocol": "h2c", "median": 2e9, "repetitions": [{"value": 2e9, "errors": {"total": 1, "reset": 1}}]}]}`,
		`{"schema_version": 2}`,
		`{"schema_version": "1"}`,
		`{"cells": null}`,
		`[]`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		res, err := results.ReadJSON(bytes.NewReader(in))
		if err != nil {
			return
		}
		if res.SchemaVersion != results.SchemaVersion {
			t.Fatalf("accepted schema version %d", res.SchemaVersion)
		}
		var first, second bytes.Buffer
		if err := res.WriteJSON(&first); err != nil {
			t.Fatal(err)
		}
		back, err := results.ReadJSON(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("its own output refused: %v", err)
		}
		back.WriteJSON(&second)
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("round trip changed it:\n%s\n%s", first.Bytes(), second.Bytes())
		}
	})
}

// ginBody is the gin post's request body size, headers-body's (plan).
const ginBody = 38890
