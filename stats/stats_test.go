package stats

import (
	"encoding/json"
	"testing"
)

func TestErrorCounts(t *testing.T) {
	var c ErrorCounts
	if c.String() != "0 errors" {
		t.Fatalf("%q", c.String())
	}
	c.Count(ErrReset)
	c.Count(ErrReset)
	c.Count(ErrTimeout)
	if c.Total != 3 || c.Of(ErrReset) != 2 || c.Of(ErrTimeout) != 1 {
		t.Fatalf("%+v", c)
	}
	if got := c.String(); got != "3 errors (2 reset, 1 timeout)" {
		t.Fatalf("%q", got)
	}
	var d ErrorCounts
	d.Count(ErrOther)
	d.Add(c)
	if d.Total != 4 || d.Other != 1 || d.Reset != 2 {
		t.Fatalf("%+v", d)
	}
	b, _ := json.Marshal(d)
	var m map[string]int64
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k := ErrorKind(0); k < numErrorKinds; k++ {
		if _, ok := m[k.String()]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["total"] != 4 {
		t.Fatalf("JSON total %d", m["total"])
	}
}

func TestServerStatsSub(t *testing.T) {
	a := ServerStats{Seconds: 1, Protocols: map[string]ProtocolCounters{"h1": {Requests: 1, BodyBytesSent: 10}},
		TCP: IOStats{Writes: 2}, Process: ProcessStats{CPUUserSeconds: 1, Goroutines: 5}}
	b := ServerStats{Seconds: 3, Protocols: map[string]ProtocolCounters{"h1": {Requests: 4, BodyBytesSent: 50}, "h2": {Requests: 2}},
		TCP: IOStats{Writes: 7}, QUIC: QUICStats{PacketsSent: 3}, Process: ProcessStats{CPUUserSeconds: 2.5, Goroutines: 9}}
	d := b.Sub(a)
	if d.Seconds != 2 || d.Protocols["h1"].Requests != 3 || d.Protocols["h1"].BodyBytesSent != 40 || d.Protocols["h2"].Requests != 2 {
		t.Fatalf("%+v", d)
	}
	if d.TCP.Writes != 5 || d.QUIC.PacketsSent != 3 || d.Process.CPUUserSeconds != 1.5 || d.Process.Goroutines != 9 {
		t.Fatalf("%+v", d)
	}
	if tot := d.Total(); tot.Requests != 5 {
		t.Fatalf("total %+v", tot)
	}
}
