package peers

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

func TestParseOha(t *testing.T) {
	tests := []struct {
		file      string
		deadline  time.Duration
		duration  time.Duration
		succeeded int64
		failed    int64
		aborted   int64
		p50       time.Duration
	}{
		{file: "oha-h1.json", deadline: 300 * time.Millisecond, duration: 300 * time.Millisecond, succeeded: 7768, aborted: 4, p50: 48924 * time.Nanosecond},
		{file: "oha-h1.json", duration: 301479481, succeeded: 7768, aborted: 4},
		{file: "oha-h2c.json", deadline: 300 * time.Millisecond, duration: 300 * time.Millisecond, succeeded: 9286, aborted: 10},
		// oha reported 30.5 s: the QUIC connection's idle timeout after its
		// 300 ms of requests.
		{file: "oha-h3.json", deadline: 300 * time.Millisecond, duration: 300 * time.Millisecond, succeeded: 3634, aborted: 10, p50: 426921 * time.Nanosecond},
		// oha calls a 400 a success; it is not.
		{file: "oha-h1-400.json", deadline: 200 * time.Millisecond, duration: 200 * time.Millisecond, failed: 8143, aborted: 1},
		{file: "oha-refused.json", deadline: 200 * time.Millisecond, duration: 200 * time.Millisecond, failed: 20615, aborted: 2},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseOha(readTestdata(t, tt.file), tt.deadline)
			if err != nil {
				t.Fatal(err)
			}
			if got.Duration != tt.duration || got.Succeeded != tt.succeeded || got.Failed() != tt.failed || got.Aborted != tt.aborted {
				t.Fatalf("got %+v (failed %d)", got, got.Failed())
			}
			if want := float64(tt.succeeded) / tt.duration.Seconds(); got.RequestsPerSecond != want {
				t.Fatalf("%v req/s, want %v", got.RequestsPerSecond, want)
			}
			if tt.p50 != 0 && got.Latency.P50 != tt.p50 {
				t.Fatalf("p50 %v, want %v", got.Latency.P50, tt.p50)
			}
			l := got.Load(transport.H2)
			if l.Client != "oha" || l.Protocol != transport.H2 || l.Succeeded != tt.succeeded || l.Failed != tt.failed || l.RequestsPerSecond != got.RequestsPerSecond {
				t.Fatalf("load %+v", l)
			}
		})
	}
	for _, bad := range []string{"", "oha: error", `{"summary":{"total":0}}`, `{"summary":{"total":1},"statusCodeDistribution":{"abc":1}}`} {
		if _, err := ParseOha([]byte(bad), time.Second); err == nil {
			t.Errorf("ParseOha accepted %q", bad)
		}
	}
}

// TestOhaArgs: each transport's --http-version, --insecure only over TLS,
// and no transport oha does not speak.
func TestOhaArgs(t *testing.T) {
	args, err := ohaArgs(OhaOptions{URL: "https://127.0.0.1:8443/small", Protocol: transport.H3, Connections: 1, Streams: 50, Duration: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want := "--no-tui --output-format json --http-version 3 -c 1 -p 50 -z 300ms --insecure https://127.0.0.1:8443/small"
	if got := strings.Join(args, " "); got != want {
		t.Fatalf("args %q, want %q", got, want)
	}
	if args, _ := ohaArgs(OhaOptions{URL: "http://127.0.0.1:8080/small", Protocol: transport.H2C, Duration: time.Second}); strings.Contains(strings.Join(args, " "), "--insecure") || !strings.Contains(strings.Join(args, " "), "--http-version 2") {
		t.Fatalf("h2c args %q", args)
	}
	if _, err := ohaArgs(OhaOptions{URL: "http://127.0.0.1:8080/small", Protocol: transport.H1, Duration: time.Millisecond}); err == nil {
		t.Fatal("1 ms accepted")
	}
	if _, err := ohaArgs(OhaOptions{URL: "http://127.0.0.1:8080/small", Protocol: transport.H3, Duration: time.Second}); err == nil {
		t.Fatal("h3 over http:// accepted")
	}
}

func FuzzParseOha(f *testing.F) {
	f.Add(readTestdata(f, "oha-h1.json"))
	f.Add(readTestdata(f, "oha-refused.json"))
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseOha(b, time.Second) })
}
