package netem

import (
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/testenv"
)

// pfifoQdisc stands in for netem on kernels without sch_netem: the veth
// plumbing (namespaces, the pair, addresses, neighbours, offloads, the
// qdiscs' counters) is the same.
func pfifoQdisc(Direction) []string { return []string{"pfifo", "limit", "1000"} }

// newTestVethLink makes a veth link with a pfifo on each end, or skips.
func newTestVethLink(t *testing.T) *Link {
	t.Helper()
	testenv.SkipWithoutPrivilege(t)
	if err := needIPRoute2(); err != nil {
		t.Skip(err)
	}
	l, err := newNetemLink(Spec{}, pfifoQdisc)
	testenv.SkipIfDenied[*SetupError](t, err)
	if err != nil {
		t.Fatalf("veth link: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestVethPlumbing checks the veth backend's plumbing without netem:
// both ways work with no ARP (no probe lost, no packet added), TCP
// crosses in MTU-sized packets (no offloads), and the counters come from
// the qdiscs and reset.
func TestVethPlumbing(t *testing.T) {
	l := newTestVethLink(t)
	if l.Backend() != BackendNetem {
		t.Errorf("backend %q", l.Backend())
	}
	ctx := testenv.Context(t, 30*time.Second)
	// The counters prove no ARP crossed (it would add packets) and no
	// probe was lost; how fast the probes came back is the machine's.
	echoed, err := echoUDP(ctx, l, 50, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	up, down := l.ResetStats()
	t.Logf("%d of 50 echoes; up %+v, down %+v", echoed, up, down)
	if echoed != 50 || up.Packets != 50 || down.Packets != 50 || up.Lost != 0 {
		t.Fatalf("%d of 50 echoes, up %+v, down %+v; want all 50 back, 50 packets each way, none lost", echoed, up, down)
	}
	got, err := download(ctx, l, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	up, down = l.stats()
	t.Logf("veth without netem: TCP %d bytes down; up %+v, down %+v", got, up, down)
	if down.Delivered == 0 || down.Bytes/down.Delivered > mtu+vethOverhead {
		t.Errorf("down: %d bytes in %d packets: larger than the MTU on average (offloads on?)", down.Bytes, down.Delivered)
	}
}
