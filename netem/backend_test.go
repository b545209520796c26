package netem

import (
	"strings"
	"testing"
)

func TestParseBackend(t *testing.T) {
	for in, want := range map[string]Backend{"rtt=40ms": "", "rtt=40ms,backend=netem": BackendNetem,
		"4g,backend=TUN": BackendTUN, "backend=auto": BackendAuto} {
		s, err := Parse(in)
		if err != nil || s.Backend != want {
			t.Errorf("Parse(%q) backend %q, %v; want %q", in, s.Backend, err, want)
		}
		again, err := Parse(s.String())
		if err != nil || again.Backend != s.Backend && !(s.Backend == BackendAuto && again.Backend == "") {
			t.Errorf("%q: String %q parses back to backend %q, %v", in, s.String(), again.Backend, err)
		}
	}
	_, err := Parse("rtt=40ms,backend=ns3")
	if err == nil || !strings.Contains(err.Error(), `backend="ns3": want auto, tun or netem`) {
		t.Errorf("backend=ns3: %v", err)
	}
}

// TestNetemArgs checks the tc arguments each direction's model becomes.
func TestNetemArgs(t *testing.T) {
	for _, tt := range []struct{ spec, up, down string }{
		// Unlimited: the queue plus the TUN ferry's delay line.
		{"rtt=40ms", "limit 33768 delay 20000us", "limit 33768 delay 20000us"},
		// 50 Mbit/s x 20 ms holds 84 packets beside the 1000 queued.
		{"rtt=40ms,rate=50mbit,loss=5%", "limit 1084 delay 20000us loss random 5% rate 50000000bit -14",
			"limit 1084 delay 20000us loss random 5% rate 50000000bit -14"},
		// Jitter in [0, 2ms] is netem's 1ms ± 1ms; 64 KiB is 44 packets.
		{"delay=10ms,jitter=2ms,down=1mbit,up=768kbit,loss=ge:1%:25%,queue=64KiB",
			"limit 45 delay 11000us 1000us loss gemodel 1% 25% 100% 0% rate 768000bit -14",
			"limit 45 delay 11000us 1000us loss gemodel 1% 25% 100% 0% rate 1000000bit -14"},
	} {
		s, err := Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(netemArgs(s.Up), " "); got != tt.up {
			t.Errorf("%s up: %q, want %q", tt.spec, got, tt.up)
		}
		if got := strings.Join(netemArgs(s.Down), " "); got != tt.down {
			t.Errorf("%s down: %q, want %q", tt.spec, got, tt.down)
		}
	}
}
