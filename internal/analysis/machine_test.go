package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestMachineBound: on loopback, a client at 0.91 cores and a server at
// 0.83 of two (the download-parallel-100 row seen here) are machine-bound,
// with each side's cores, what the ratio measures and what would help,
// and no generator engine; the client alone at all its cores, a target on
// another machine, a pinned run, or a machine with headroom stay
// generator-bound or neither.
func TestMachineBound(t *testing.T) {
	subjectOf := func(client, server float64, target string, pin bool) *subject {
		c := &results.Cell{Scenario: "small-concurrent", Protocol: "h2c", Metric: results.MetricRequestsPerSecond, CPUUnit: "1000 requests", RatioToBaseline: 0.5, Baseline: "h1",
			Bottleneck: BottleneckOf(client, server, true, 2, 2)}
		set := &results.Settings{Target: target}
		if pin {
			set.Pin = &results.Pin{ClientCPUs: []int{0}, ServerCPUs: []int{1}}
		}
		return &subject{c: c, m: results.Repetition{ClientCores: client, ServerCores: f64(server), Engine: "std"}, set: set, env: &results.Env{Cores: 2, GOMAXPROCS: 2}}
	}
	s := subjectOf(0.91, 0.83, "child", false)
	f := machineBound(s)
	if f == nil {
		t.Fatal("machine-bound did not fire at 0.91 + 0.83 of 2 cores on loopback")
	}
	for _, want := range []string{"client used 0.91 cores and the server 0.83, 1.74 of this machine's 2 together (above the 1.6", "CPU per 1000 requests of both sides together", "another machine", "pinned", "more cores"} {
		if !strings.Contains(f.String(), want) {
			t.Errorf("%q lacks %q", f.String(), want)
		}
	}
	if strings.Contains(f.String(), "engine") {
		t.Errorf("machine-bound advises the engine: %q", f.String())
	}
	if g := generatorBound(s); g != nil {
		t.Errorf("generator-bound beside machine-bound: %+v", g)
	}
	for _, tc := range []struct {
		name string
		s    *subject
	}{
		{"the client alone at all its cores", subjectOf(1.9, 0.05, "child", false)},
		{"a target on another machine", subjectOf(0.91, 0.83, "http://192.0.2.7:8080", false)},
		{"pinned apart", subjectOf(0.91, 0.83, "child", true)},
	} {
		if f := machineBound(tc.s); f != nil {
			t.Errorf("%s: machine-bound %+v", tc.name, f)
		}
		if generatorBound(tc.s) == nil {
			t.Errorf("%s: generator-bound did not fire", tc.name)
		}
	}
	if s := subjectOf(0.7, 0.5, "child", false); machineBound(s) != nil || generatorBound(s) != nil {
		t.Error("a machine with headroom called machine- or generator-bound")
	}
}
