package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

func TestLoadJSONExactCount(t *testing.T) {
	t.Parallel() // see TestMain
	ts, certFile := testServer(t)
	for _, p := range []transport.Protocol{transport.H1, transport.H2C, transport.H3} {
		t.Run(p.String(), func(t *testing.T) {
			args := []string{"load", ts.URL(p) + "/echo", "-p", p.String(), "-c", "2", "-n", "150", "--json",
				"--method", "POST", "--body", "39KB", "--headers", "100:100", "--cacert", certFile}
			if p.Version() > 1 {
				args = append(args, "-m", "4")
			}
			code, stdout, stderr := runMain(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got map[string]any
			dec := json.NewDecoder(strings.NewReader(stdout))
			if err := dec.Decode(&got); err != nil || dec.More() {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
			}
			for _, key := range []string{"protocol", "requests", "errors", "seconds", "requests_per_second", "connections",
				"latency_seconds", "client_cpu_seconds", "bytes_per_request", "allocs_per_request", "engine"} {
				if _, ok := got[key]; !ok {
					t.Errorf("JSON lacks %q", key)
				}
			}
			lat := got["latency_seconds"].(map[string]any)
			for _, key := range []string{"p50", "p90", "p99", "p999", "max", "mean"} {
				if v, ok := lat[key].(float64); !ok || v <= 0 {
					t.Errorf("latency_seconds.%s = %v", key, lat[key])
				}
			}
			if got["engine"] != "fast" { // auto: fast speaks every transport
				t.Errorf("engine %v, want fast", got["engine"])
			}
			if got["requests"] != 150.0 || got["protocol"] != p.String() || got["bytes_sent"] != 150.0*39000 {
				t.Fatalf("requests %v protocol %v bytes_sent %v", got["requests"], got["protocol"], got["bytes_sent"])
			}
			if errs := got["errors"].(map[string]any); errs["total"] != 0.0 {
				t.Fatalf("errors %v", errs)
			}
		})
	}
}

func TestLoadText(t *testing.T) {
	ts, _ := testServer(t)
	code, stdout, stderr := runMain(t, "load", ts.URL(transport.H1)+"/small", "-c", "3", "-d", "300ms", "--rate", "300")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"engine fast: open loop, concurrency 3", "latency   p50", "schedule  target 300 req/s"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stderr, "req/s") {
		t.Errorf("progress printed although stdout is not a terminal: %q", stderr)
	}
}

func TestLoadUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"load", "http://127.0.0.1:1/small", "-m", "4"}, "-m 4: want 1 for HTTP/1.1"},
		{[]string{"load", "http://127.0.0.1:1/small", "--rate", "fast"}, "want requests per second"},
		{[]string{"load", "http://127.0.0.1:1/small", "--headers", "100"}, "want N:LEN"},
		{[]string{"load", "http://127.0.0.1:1/small", "-d", "-1s"}, "-d -1s: want a positive duration"},
		{[]string{"load", "http://127.0.0.1:1/small", "-d", "soon"}, "-d soon: want a duration with its unit (ns, us, ms, s, m, h), e.g. -d 10s"},
		{[]string{"load", "http://127.0.0.1:1/small", "--body", "1.5k"}, "want an integer"},
		{[]string{"load", "http://127.0.0.1:1/small", "-c", "0"}, "-c 0"},
		{[]string{"load", "http://127.0.0.1:1/small", "-c", "2000000000"}, "file descriptors"},
		{[]string{"load", "https://127.0.0.1:1/small", "-p", "h2c"}, "use -p h1-tls, h2 or h3"},
		{[]string{"load", "http://127.0.0.1:1/small", "--engine", "turbo"}, "want std, fast or auto"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d stdout %q stderr %q; want 2 and one line with %q", code, stdout, stderr, tt.want)
			}
		})
	}
}

func TestLoadUnreachable(t *testing.T) {
	code, stdout, stderr := runMain(t, "load", "http://127.0.0.1:9/small", "-c", "1", "-n", "5", "--engine", "std")
	if code != exitFailure || !strings.Contains(stderr, "every request failed") || !strings.Contains(stderr, "refused") {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "5 errors (5 refused)") {
		t.Fatalf("the measured failures were not printed:\n%s", stdout)
	}
}
