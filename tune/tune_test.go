package tune

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// TestShortTune runs a 4-second search over h2c and h3: it measures h1,
// Go's defaults and a best configuration, explains the default's gap and
// prints Go code for the best.
func TestShortTune(t *testing.T) {
	start := time.Now()
	rep, err := Run(context.Background(), Options{Protocols: []transport.Protocol{transport.H2C, transport.H3}, Budget: 4 * time.Second, Trial: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("a 4 s budget took %v", d)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d results", len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.H1BytesPerSecond <= 0 || r.DefaultRatioToH1 <= 0 || r.RatioToH1 <= 0 || r.Trials < 2 {
			t.Errorf("%s: h1 %v B/s, default %.2fx, best %.2fx, %d trials", r.Protocol, r.H1BytesPerSecond, r.DefaultRatioToH1, r.RatioToH1, r.Trials)
		}
		if r.Default != defaults(transport.H2C) && r.Protocol == "h2c" {
			t.Errorf("h2c default settings %+v", r.Default)
		}
		if !strings.Contains(r.GoCode, "io.CopyBuffer") {
			t.Errorf("%s: Go code %q", r.Protocol, r.GoCode)
		}
	}
	h2c := rep.Results[0]
	// Go's defaults read 8 KiB at a time: the diagnosis must say so.
	found := false
	for _, d := range h2c.Diagnosis {
		found = found || strings.Contains(d, "body reads average 8.0 KiB")
	}
	if !found {
		t.Errorf("h2c diagnosis of the defaults %q lacks the 8 KiB reads", h2c.Diagnosis)
	}
	if !strings.Contains(h2c.GoCode, "http.HTTP2Config") || !strings.Contains(rep.Results[1].GoCode, "quic.Config") {
		t.Errorf("Go code:\n%s\n%s", h2c.GoCode, rep.Results[1].GoCode)
	}
}

func TestRunRefuses(t *testing.T) {
	for _, o := range []Options{
		{Protocols: []transport.Protocol{transport.H1}},
		{Budget: time.Millisecond},
		{Trial: time.Hour},
	} {
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestGoCode(t *testing.T) {
	got := goCode(transport.H2, Settings{ReadSize: 256 * units.KiB, MaxReadFrameSize: units.MiB, StreamWindow: 16 * units.MiB, WriteSize: 256 * units.KiB})
	for _, want := range []string{"MaxReadFrameSize: 1 << 20", "MaxReceiveBufferPerStream: 16 << 20", "make([]byte, 256 << 10)", "chunk[:256 << 10]"} {
		if !strings.Contains(got, want) {
			t.Errorf("Go code lacks %q:\n%s", want, got)
		}
	}
}
