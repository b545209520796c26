package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestGeneratorBoundWhenPinned: a pinned run's generator-bound cell says
// the run gave the generator one core, and how to give it more.
func TestGeneratorBoundWhenPinned(t *testing.T) {
	c := &results.Cell{Scenario: "download", Protocol: "h1-tls", Bottleneck: results.BottleneckClient}
	s := &subject{c: c, m: results.Repetition{ClientCores: 0.98}, set: &results.Settings{Pin: &results.Pin{ClientCPUs: []int{0}, ServerCPUs: []int{1}}}}
	f := generatorBound(s)
	if f == nil || !strings.Contains(f.Fix, "pinned it to 1 core(s)") || !strings.Contains(f.Fix, "--pin=false") {
		t.Fatalf("finding %+v: want the pinning named", f)
	}
	s.set.Pin = nil
	if f := generatorBound(s); f == nil || strings.Contains(f.Fix, "pin") {
		t.Fatalf("unpinned: finding %+v names pinning", f)
	}
}
