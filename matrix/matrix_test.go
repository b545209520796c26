package matrix

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
	s, err := ParseScenarios(list)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFixedSizeMovesExactBytes runs transfer scenarios with a fixed size
// over every transport: each repetition moves exactly that many body
// bytes, by the client's count and by the server's.
func TestFixedSizeMovesExactBytes(t *testing.T) {
	res, err := Run(context.Background(), Options{
		Target:    target(t, nil),
		Protocols: transport.All,
		Scenarios: scenarios(t, "download,download-parallel-10,upload"),
		Repeat:    2,
		Size:      10 * units.MiB,
		Duration:  50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Partial || len(res.Cells) != 15 {
		t.Fatalf("partial %v, %d cells, want 15", res.Partial, len(res.Cells))
	}
	for _, c := range res.Cells {
		if c.Skipped != "" || len(c.Repetitions) != 2 {
			t.Fatalf("%s/%s: skipped %q, %d repetitions", c.Scenario, c.Protocol, c.Skipped, len(c.Repetitions))
		}
		for _, r := range c.Repetitions {
			if r.Bytes != int64(10*units.MiB) || r.Errors.Total != 0 || r.Negotiated != c.Protocol {
				t.Errorf("%s/%s: %d bytes (want %d), errors %v %s, negotiated %q", c.Scenario, c.Protocol, r.Bytes, 10<<20, r.Errors, r.FirstError, r.Negotiated)
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
		if c.Median <= 0 || c.Min > c.Median || c.Median > c.Max {
			t.Errorf("%s/%s: min %v median %v max %v", c.Scenario, c.Protocol, c.Min, c.Median, c.Max)
		}
	}
	if p10 := res.Cell("download-parallel-10", "h1"); p10.Repetitions[0].Connections != 10 || p10.Repetitions[0].SizeBytes != int64(units.MiB) {
		t.Errorf("h1 x10: %d connections, %d bytes per stream; want 10 and 1 MiB", p10.Repetitions[0].Connections, p10.Repetitions[0].SizeBytes)
	}
	if p10 := res.Cell("download-parallel-10", "h2c"); p10.Repetitions[0].Connections != 1 {
		t.Errorf("h2c x10: %d connections, want 1", p10.Repetitions[0].Connections)
	}
}

func TestLoadScenariosCountRequests(t *testing.T) {
	res, err := Run(context.Background(), Options{
		Target:    target(t, nil),
		Protocols: []transport.Protocol{transport.H1, transport.H2C, transport.H3},
		Scenarios: scenarios(t, "small-sequential,headers-body"),
		Repeat:    1,
		// Long enough that the tens of milliseconds a /stats snapshot can
		// take under -race stay inside the window check below (at 100ms it
		// failed both ways: 0.027s and 0.263s of server counters).
		Duration: 300 * time.Millisecond,
	})
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
		if c.Scenario == "headers-body" && r.Bytes != r.Requests*2*seed004Body {
			t.Errorf("headers-body/%s: %d body bytes for %d echoes of %d", c.Protocol, r.Bytes, r.Requests, seed004Body)
		}
		if c.Scenario == "small-sequential" && (r.Connections != 1 || r.Latency.Count != r.Requests) {
			t.Errorf("small-sequential/%s: %d connections, %d latencies for %d requests", c.Protocol, r.Connections, r.Latency.Count, r.Requests)
		}
	}
}

func TestGRPCScenarioEveryBinding(t *testing.T) {
	res, err := Run(context.Background(), Options{
		Target:    target(t, nil),
		Protocols: transport.All,
		Scenarios: scenarios(t, "grpc-1,grpc-50"),
		Repeat:    1,
		Duration:  100 * time.Millisecond,
		// 50 TLS handshakes under -race on two shared cores outlast a short
		// warmup; the server's snapshot request then waits behind them and
		// brackets a window the calls have already left (seen once in CI).
		Warmup: 300 * time.Millisecond,
	})
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
		wantConns := int64(1)
		if c.Scenario == "grpc-50" && (c.Protocol == "h1" || c.Protocol == "h1-tls") {
			wantConns = 50
		}
		if r.Connections != wantConns {
			t.Errorf("%s/%s: %d connections, want %d", c.Scenario, c.Protocol, r.Connections, wantConns)
		}
		// The server counted the calls where they arrived: natively or
		// through net/http as the column's transport.
		counted := c.Protocol
		if r.Server == nil {
			t.Fatalf("%s/%s: no server counters: %s", c.Scenario, c.Protocol, r.ServerNote)
		}
		if got := r.Server.Protocols[counted].Requests; got < r.Requests/2 {
			t.Errorf("%s/%s: server counted %d calls, client %d", c.Scenario, c.Protocol, got, r.Requests)
		}
	}
}

// TestLoadWithNothingFinished: a repetition in which no request finishes
// inside the measured window (a closed loop counts only requests that
// start and end there) is grown while it fits in Timeout, and when
// nothing ever finishes it is a timeout error that says so, never a
// silent 0 (an h3 cell under CPU starvation once read 0 with no error).
func TestLoadWithNothingFinished(t *testing.T) {
	tests := []struct {
		name    string
		handler func(served int64, w http.ResponseWriter, r *http.Request)
		timeout time.Duration
		want    string // FirstError; "" for a measured repetition
	}{
		{"slower than three windows", func(_ int64, w http.ResponseWriter, _ *http.Request) {
			// Slower than the third window (warmup 1ms + 160ms) can see
			// start and end; the fourth (640ms) can.
			time.Sleep(200 * time.Millisecond)
			w.Write([]byte("ok"))
		}, time.Minute, ""},
		{"never answers", func(served int64, w http.ResponseWriter, r *http.Request) {
			if served > 1 { // the first, prepare's check, is answered
				<-r.Context().Done()
				return
			}
			w.Write([]byte("ok"))
		}, 300 * time.Millisecond, "h1: no request finished in 3 tries, the last 160ms measured after 1ms warmup (1 connection(s) set up but no response finished)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var served atomic.Int64
			mux := http.NewServeMux()
			mux.HandleFunc("GET /small", func(w http.ResponseWriter, r *http.Request) { tt.handler(served.Add(1), w, r) })
			res, err := Run(context.Background(), Options{
				Target:    target(t, mux),
				Protocols: []transport.Protocol{transport.H1},
				Scenarios: scenarios(t, "small-sequential"),
				Repeat:    1,
				Duration:  10 * time.Millisecond,
				Warmup:    time.Millisecond,
				Timeout:   tt.timeout,
			})
			if err != nil {
				t.Fatal(err)
			}
			c := res.Cell("small-sequential", "h1")
			if c == nil || c.Skipped != "" || len(c.Repetitions) != 1 {
				t.Fatalf("cell %+v", c)
			}
			r := c.Repetitions[0]
			if tt.want == "" {
				if r.Requests == 0 || r.Value <= 0 || r.Errors.Total != 0 {
					t.Errorf("%d requests, value %v, errors %v %s: want a measured repetition", r.Requests, r.Value, r.Errors, r.FirstError)
				}
				return
			}
			if r.Requests != 0 || r.Errors.Total != 1 || r.Errors.Timeout != 1 || r.FirstError != tt.want {
				t.Errorf("%d requests, errors %+v, first error %q; want one timeout %q", r.Requests, r.Errors, r.FirstError, tt.want)
			}
		})
	}
}

func TestNothingFinishedSaysWhy(t *testing.T) {
	tests := []struct {
		col     column
		conns   int64
		seconds float64 // the measured window
		want    string
	}{
		{column{name: "h3", proto: transport.H3}, 0, 0.4, "no QUIC connection set up: the handshake did not complete"},
		{column{name: "h2", proto: transport.H2}, 0, 0.4, "no connection set up: TCP connect or TLS handshake did not complete"},
		{column{name: "h2c", proto: transport.H2C}, 0, 0.4, "no connection set up: TCP connect did not complete"},
		{column{name: "h3", proto: transport.H3}, 1, 0.4, "1 connection(s) set up but no response finished"},
		{column{name: "h1-tls", proto: transport.H1TLS}, 50, 0, "the measured phase never began: the server's counters were read after its end"},
	}
	for _, tt := range tests {
		m := Repetition{Connections: tt.conns, Seconds: tt.seconds}
		nothingFinished(&m, tt.col, 4, 400*time.Millisecond, 25*time.Millisecond)
		want := tt.col.name + ": no request finished in 4 tries, the last 400ms measured after 25ms warmup (" + tt.want + ")"
		if m.FirstError != want || m.Errors.Timeout != 1 || m.Errors.Total != 1 {
			t.Errorf("%s with %d connections: %q, errors %+v; want %q as one timeout", tt.col.name, tt.conns, m.FirstError, m.Errors, want)
		}
	}
}

func TestMissingEndpointsAndTargetsAreSkipped(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /small", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	tg := target(t, mux)
	tg.TLS = ""
	res, err := Run(context.Background(), Options{
		Target:    tg,
		Protocols: []transport.Protocol{transport.H1, transport.H2},
		Scenarios: scenarios(t, "download,small-sequential"),
		Repeat:    1,
		Duration:  50 * time.Millisecond,
	})
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
	res, err := Run(ctx, Options{
		Target:    target(t, nil),
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "small-sequential,small-concurrent"),
		Repeat:    3,
		Duration:  100 * time.Millisecond,
		Progress: func(p Progress) {
			if p.Done == 3 {
				cancel()
			}
		},
	})
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
	back, err := ReadJSON(&buf)
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
	} {
		if _, err := ReadJSON(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
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
		{"upload, download", []string{"download", "upload"}, ""},
		{"download-parallel,download-parallel-10", []string{"download-parallel-10", "download-parallel-100"}, ""},
		{"dowload", nil, `unknown scenario "dowload": want all or a comma-separated list of download,`},
		{"", nil, `unknown scenario ""`},
	} {
		got, err := ParseScenarios(tt.in)
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

func TestBottleneck(t *testing.T) {
	for _, tt := range []struct {
		client, server float64
		known          bool
		want           string
	}{
		{1.9, 0.1, true, BottleneckClient}, // the client had both cores
		{1.1, 0.7, true, BottleneckClient}, // machine full, client used more
		{0.7, 1.1, true, BottleneckServer}, // machine full, server used more
		{0.6, 0.6, true, BottleneckNone},   // headroom: latency or flow control
		{1.0, 0, false, BottleneckNone},    // server unknown, client had headroom
		{1.85, 0, false, BottleneckClient}, // server unknown, client saturated
	} {
		if got := bottleneck(tt.client, tt.server, tt.known, 2, 2); got != tt.want {
			t.Errorf("client %.2f server %.2f known %v: %q, want %q", tt.client, tt.server, tt.known, got, tt.want)
		}
	}
}

func TestSummaryAndCompare(t *testing.T) {
	mk := func(values ...float64) *Results {
		c := Cell{Scenario: "download", Protocol: "h2c", Metric: MetricBytesPerSecond}
		h1 := Cell{Scenario: "download", Protocol: "h1", Metric: MetricBytesPerSecond}
		for _, v := range values {
			c.Repetitions = append(c.Repetitions, Repetition{Value: v})
			h1.Repetitions = append(h1.Repetitions, Repetition{Value: 4})
		}
		c.Repetitions = append(c.Repetitions, Repetition{Value: 1000, Interrupted: true})
		r := &Results{SchemaVersion: SchemaVersion, Cells: []Cell{h1, c}}
		Summarise(r)
		return r
	}
	old := mk(1, 1.1, 1.05, 0.95, 1.02)
	c := old.Cells[1]
	if c.Median != 1.02 || c.Min != 0.95 || c.Max != 1.1 || !c.Noisy || c.RatioToH1 != 1.02/4 {
		t.Errorf("summary %+v: want median 1.02, min 0.95, max 1.1, noisy, ratio %.4f (the interrupted 1000 left out)", c, 1.02/4)
	}
	d := Compare(old, mk(2, 2.1, 2.05, 1.95, 2.02))
	if len(d) != 2 || !d[1].Significant || d[1].Change < 0.9 || d[1].Change > 1.1 || d[1].Note != "" {
		t.Errorf("5 vs 5 doubled: %+v, want a significant +100%%", d)
	}
	d = Compare(mk(1, 1.1, 1.05), mk(2, 2.1, 2.05))
	if d[1].Significant || !strings.Contains(d[1].Note, "need >= 4 samples") {
		t.Errorf("3 vs 3: %+v, want not significant with a note that more repetitions are needed", d[1])
	}
}

func FuzzParseScenarios(f *testing.F) {
	for _, s := range []string{"all", "download", "download-parallel,upload", " small-sequential , headers-body", "", ",", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		got, err := ParseScenarios(list)
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
		res, err := ReadJSON(bytes.NewReader(in))
		if err != nil {
			return
		}
		if res.SchemaVersion != SchemaVersion {
			t.Fatalf("accepted schema version %d", res.SchemaVersion)
		}
		var first, second bytes.Buffer
		if err := res.WriteJSON(&first); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("its own output refused: %v", err)
		}
		back.WriteJSON(&second)
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("round trip changed it:\n%s\n%s", first.Bytes(), second.Bytes())
		}
	})
}

// TestUnreachableTransportTriedOnce: a TLS target without h3 (nothing on
// UDP) fails its first h3 check after the dial timeout; the run's later h3
// cells fail at once with that reason rather than waiting again.
func TestUnreachableTransportTriedOnce(t *testing.T) {
	opts := server.Loopback()
	opts.NoH3 = true
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := srv.Transport
	res, err := Run(context.Background(), Options{
		Target:    Target{TLS: ts.URL(transport.H2), RootCAs: transport.CertPool(ts.Cert())},
		Protocols: []transport.Protocol{transport.H3},
		Scenarios: scenarios(t, "download,small-sequential,upload"),
		Repeat:    1,
		Duration:  50 * time.Millisecond,
		Client:    transport.ClientConfig{DialTimeout: 300 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 3 {
		t.Fatalf("%d cells, want 3", len(res.Cells))
	}
	for i, c := range res.Cells {
		again := strings.Contains(c.Skipped, "not tried again")
		if !c.Failed || len(c.Repetitions) != 0 || again != (i > 0) {
			t.Errorf("%s/h3: failed %v, %d repetitions, skipped %q", c.Scenario, c.Failed, len(c.Repetitions), c.Skipped)
		}
	}
}
