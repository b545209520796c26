package tuneresult

import (
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// TestKnobSetSaysWhichTransport: a knob two transports tuned to different
// values keeps the first's and says what the others did best at.
func TestKnobSetSaysWhichTransport(t *testing.T) {
	rep := &Report{Results: []Result{
		{Protocol: "h2c", Best: Settings{ReadSize: units.MiB, MaxReadFrameSize: units.MiB}},
		{Protocol: "h2", Best: Settings{ReadSize: 64 * units.KiB}},
		{Protocol: "h3", Best: Settings{ReadSize: 64 * units.KiB, QUICStreamWindow: 16 * units.MiB}},
		{Protocol: "h1-tls", DefaultsBest: true, Best: Settings{ReadSize: 8 * units.KiB}},
	}}
	set := rep.KnobSet("mine")
	if got := set.BestFor["Client.ReadSize"]; got != "h2c (h2: 64Ki, h3: 64Ki)" {
		t.Errorf("read size best for %q", got)
	}
	if set.BestFor["Client.HTTP2.MaxReadFrameSize"] != "h2c" || set.BestFor["Client.QUIC.MaxStreamReceiveWindow"] != "h3" {
		t.Errorf("best for %v", set.BestFor)
	}
	if len(set.Knobs) != 3 || set.Knobs[0] != (results.Knob{Field: "Client.ReadSize", Value: "1Mi"}) {
		t.Errorf("knobs %+v", set.Knobs)
	}
}
