package analysis

import (
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestSenderUnmeasured: a download from a loopback target whose server's
// CPU the run cannot read, behind h1 with its client mostly idle, names
// the sending side; it refuses a busy client, a server whose CPU is
// read, the child server, a target off this machine and an upload.
func TestSenderUnmeasured(t *testing.T) {
	const gb = 1 << 30
	external := &results.Settings{Target: "http://127.0.0.1:9080", TLSTarget: "https://127.0.0.1:9443"}
	idle := results.Repetition{Bytes: gb, ClientCores: 0.35, ClientCPUPerUnit: 6}
	h1 := results.Repetition{Bytes: gb, ClientCores: 0.85, ClientCPUPerUnit: 0.65}
	run := func(set *results.Settings, scenario string, other results.Repetition) []results.Finding {
		return diagnosedIn(set, scenario, results.MetricBytesPerSecond, h1, other, "h3", nil)
	}
	fs := run(external, "request-2", idle)
	if !has(fs, "sender-unmeasured", "h3 at 0.40x h1: the client used 0.35 cores (6.000 s of CPU per GB, h1's 0.650)", "not measured") {
		t.Fatalf("findings %v: want sender-unmeasured with the client's cores and CPU", fs)
	}
	busy := idle
	busy.ClientCores = 0.9
	served := idle
	served.ServerCores = f64(1.2)
	for _, tc := range []struct {
		name     string
		set      *results.Settings
		scenario string
		rep      results.Repetition
	}{
		{"a busy client", external, "request-2", busy},
		{"the server's CPU read", external, "request-2", served},
		{"the child server", &results.Settings{Target: "child", TLSTarget: "child", Server: nil}, "download", idle},
		{"a target off this machine", &results.Settings{Target: "http://198.18.0.2:9080"}, "request-2", idle},
		{"an upload", external, "upload", idle},
	} {
		if fs := run(tc.set, tc.scenario, tc.rep); has(fs, "sender-unmeasured") {
			t.Errorf("%s: findings %v, want no sender-unmeasured", tc.name, fs)
		}
	}
}
