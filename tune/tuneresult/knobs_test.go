package tuneresult

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/knobs"

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

// TestWriteKnobFile: the knob file holds the best settings as a knob set
// of the name given, " (partial search)" after it when the search was cut
// short, exactly as knobs.WriteFile writes it and knobs.ReadFile
// reads it back.
func TestWriteKnobFile(t *testing.T) {
	rep := &Report{Results: []Result{
		{Protocol: "h2c", Best: Settings{ReadSize: units.MiB, MaxReadFrameSize: units.MiB}},
		{Protocol: "h3", Best: Settings{ReadSize: 64 * units.KiB, QUICStreamWindow: 16 * units.MiB}},
	}}
	var b strings.Builder
	if err := rep.WriteKnobFile(&b, "tune best.json"); err != nil {
		t.Fatal(err)
	}
	want := `{
  "kind": "httpvs-knobs",
  "schema_version": 1,
  "name": "tune best.json",
  "knobs": [
    {
      "field": "Client.ReadSize",
      "value": "1Mi"
    },
    {
      "field": "Client.HTTP2.MaxReadFrameSize",
      "value": "1Mi"
    },
    {
      "field": "Client.QUIC.MaxStreamReceiveWindow",
      "value": "16Mi"
    }
  ],
  "best_for": {
    "Client.HTTP2.MaxReadFrameSize": "h2c",
    "Client.QUIC.MaxStreamReceiveWindow": "h3",
    "Client.ReadSize": "h2c (h3: 64Ki)"
  }
}
`
	if b.String() != want {
		t.Errorf("knob file:\n%s\nwant\n%s", b.String(), want)
	}
	rep.Partial = true
	b.Reset()
	if err := rep.WriteKnobFile(&b, "tune best.json"); err != nil {
		t.Fatal(err)
	}
	set, err := knobs.ReadFile(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if set.Name != "tune best.json (partial search)" || len(set.Knobs) != 3 || set.BestFor["Client.ReadSize"] != "h2c (h3: 64Ki)" {
		t.Errorf("partial search's knob file read back: %+v", set)
	}
}
