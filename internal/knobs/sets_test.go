package knobs

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// Go as shipped: 8 KiB reads (io.Copy(io.Discard, body)) and Go's 16 KiB
// frames; the tuned set is httpvs's large buffers.
func TestNamedKnobSetsSetWhatTheySay(t *testing.T) {
	for _, c := range []struct {
		name        string
		read, frame units.Bytes
	}{{"go-default", 8 * units.KiB, 16 * units.KiB}, {"tuned", 256 * units.KiB, units.MiB}} {
		set, ok := Named(c.name)
		if !ok {
			t.Fatalf("no set %q", c.name)
		}
		var client config.Client
		var server config.Server
		var engine load.Engine
		if err := (Setup{Client: &client, Server: &server, Engine: &engine}).Apply(set.Knobs...); err != nil {
			t.Fatal(err)
		}
		if client.ReadSize != c.read || client.HTTP2.MaxReadFrameSize != c.frame {
			t.Errorf("%s: read %v, frame %v", c.name, client.ReadSize, client.HTTP2.MaxReadFrameSize)
		}
	}
	if _, ok := Named("fast"); ok {
		t.Error("an unknown name is a set")
	}
}

func TestKnobFileRoundTrip(t *testing.T) {
	want := results.KnobSet{Name: "mine", Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "1Mi"}, {Field: "Client.QUIC.MaxStreamReceiveWindow", Value: "16Mi"}}}
	var b bytes.Buffer
	if err := WriteFile(&b, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != want.Name || len(got.Knobs) != 2 || got.Knobs[1] != want.Knobs[1] {
		t.Fatalf("read back %+v", got)
	}
}

func TestKnobFileRefusesOtherFiles(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "EOF"},
		{`{"kind":"load","schema_version":1,"name":"x","knobs":[]}`, `kind "load"`},
		{`{"kind":"httpvs-knobs","schema_version":2,"name":"x","knobs":[]}`, "schema_version 2"},
		{`{"kind":"httpvs-knobs","schema_version":1,"knobs":[]}`, "no name"},
		{`{"kind":"httpvs-knobs","schema_version":1,"name":"x","knobs":[],"extra":1}`, `unknown field "extra"`},
		{`{"kind":"httpvs-knobs","schema_version":1,"name":"x","knobs":[{"field":"Client.ReadSize","value":"big"}]}`, "Client.ReadSize"},
		{`{"kind":"httpvs-knobs","schema_version":1,"name":"x","knobs":[{"field":"Client.Nothing","value":"1"}]}`, "Client.Nothing"},
	} {
		_, err := ReadFile(strings.NewReader(c.in))
		if !errors.Is(err, ErrFile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.in, err, c.want)
		}
	}
}
