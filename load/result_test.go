package load

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/transport"
)

// decode reads one of a result's encoded histograms.
func decode(t *testing.T, name, s string) *histogram.Histogram {
	t.Helper()
	h, err := histogram.Decode(s)
	if err != nil {
		t.Fatalf("histograms.%s: %v", name, err)
	}
	return h
}

// A result carries what a merge needs: its kind and version, its
// wall-clock window starting no earlier than StartAt, its host, and
// histograms that hold exactly the values its summaries describe.
func TestResultCarriesWindowHostAndHistograms(t *testing.T) {
	ts, _ := startServer(t, nil)
	for _, open := range []bool{false, true} {
		name := "closed"
		if open {
			name = "open"
		}
		t.Run(name, func(t *testing.T) {
			startAt := time.Now().Add(300 * time.Millisecond)
			cfg := Config{URL: ts.URL(transport.H1) + "/small", Client: transport.ClientOptions{Protocol: transport.H1},
				Conns: 2, Streams: 1, Requests: 60, StartAt: startAt}
			if open {
				cfg.Rate = 600
			}
			res := mustRun(t, cfg)
			checkResultWindow(t, res, startAt)
			if res.Succeeded != 60 {
				t.Fatalf("succeeded %d (%s)", res.Succeeded, res.FirstError)
			}
			checkResultHistograms(t, res, open)
			if fewer := strings.Contains(res.Lowered, "of the 2 connections asked opened"); fewer != (!open && res.Connections < 2) {
				t.Errorf("%d connections opened, concurrency %d, note %q", res.Connections, res.Concurrency, res.Lowered)
			}
		})
	}
}

// TestFewerConnectionsThanAsked: a closed loop whose request count runs
// out before every worker dials says how many connections opened and
// lowers its concurrency to them; one that opened them all says nothing.
func TestFewerConnectionsThanAsked(t *testing.T) {
	ts, _ := startServer(t, nil)
	base := Config{URL: ts.URL(transport.H1) + "/small", Client: transport.ClientOptions{Protocol: transport.H1}, Conns: 3, Streams: 1, Requests: 1}
	res := mustRun(t, base)
	if res.Succeeded != 1 || res.Connections != 1 {
		t.Fatalf("succeeded %d over %d connections (%s), want 1 over 1", res.Succeeded, res.Connections, res.FirstError)
	}
	if want := "1 of the 3 connections asked opened: the one request asked was done before the others dialed"; res.Lowered != want || res.Concurrency != 1 || res.Asked != 3 {
		t.Errorf("note %q, concurrency %d of %d asked; want %q, 1 of 3", res.Lowered, res.Concurrency, res.Asked, want)
	}
	base.Conns = 1
	if res := mustRun(t, base); res.Lowered != "" || res.Concurrency != 1 {
		t.Errorf("one connection asked and opened: note %q, concurrency %d", res.Lowered, res.Concurrency)
	}
}

func TestStartAtWaitEndsWithContext(t *testing.T) {
	ts, _ := startServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Run(ctx, Config{URL: ts.URL(transport.H1) + "/small", Client: transport.ClientOptions{Protocol: transport.H1},
		Conns: 1, Streams: 1, Requests: 1, StartAt: time.Now().Add(time.Hour)})
	if err == nil || !strings.Contains(err.Error(), "waiting to start at") {
		t.Fatalf("err %v, want the wait's", err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Fatalf("took %v", took)
	}
}

// checkResultWindow checks res's kind and version, and its wall-clock
// window, in UTC from no earlier than startAt, and its host.
func checkResultWindow(t *testing.T, res loadresult.Result, startAt time.Time) {
	t.Helper()
	if res.Kind != loadresult.Kind || res.SchemaVersion != loadresult.SchemaVersion {
		t.Fatalf("kind %q version %d", res.Kind, res.SchemaVersion)
	}
	if res.Started.Before(startAt) {
		t.Fatalf("measuring started at %v, before StartAt %v", res.Started, startAt)
	}
	if res.Started.Location() != time.UTC {
		t.Errorf("started in %v, want UTC", res.Started.Location())
	}
	if got := res.Finished.Sub(res.Started).Seconds(); got != res.Seconds || got <= 0 {
		t.Fatalf("window %v..%v is %v s, seconds %v", res.Started, res.Finished, got, res.Seconds)
	}
	if host, _ := os.Hostname(); res.Host != host || host == "" {
		t.Errorf("host %q, want %q", res.Host, host)
	}
}

// checkResultHistograms checks that res's histograms hold exactly the
// values its summaries describe, with late_by only on an open loop.
func checkResultHistograms(t *testing.T, res loadresult.Result, open bool) {
	t.Helper()
	lat := decode(t, "latency", res.Histograms.Latency)
	if lat.Count() != res.Succeeded || lat.Summary() != res.Latency {
		t.Fatalf("latency histogram %+v, summary %+v", lat.Summary(), res.Latency)
	}
	if ttfb := decode(t, "ttfb", res.Histograms.TTFB); ttfb.Summary() != res.Phases.TTFB {
		t.Fatalf("ttfb histogram %+v, summary %+v", ttfb.Summary(), res.Phases.TTFB)
	}
	// A connection is dialed by its first request: on a busy machine one
	// worker can finish all 60 before the other's first, so the run may
	// open one of its two; the histogram holds each one it opened.
	if conn := decode(t, "connect", res.Histograms.Connect); conn.Summary() != res.Phases.Connect || conn.Count() != res.Connections || res.Connections < 1 || res.Connections > 2 {
		t.Fatalf("connect histogram %+v, summary %+v, %d connections", conn.Summary(), res.Phases.Connect, res.Connections)
	}
	if open {
		late := decode(t, "late_by", res.Histograms.LateBy)
		if late.Count() != res.Requests || late.Summary() != res.Schedule.LateBy {
			t.Fatalf("late_by histogram %+v for %d requests", late.Summary(), res.Requests)
		}
	} else if res.Histograms.LateBy != "" {
		t.Fatal("a closed loop has a late_by histogram")
	}
}
