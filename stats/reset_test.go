package stats

import (
	"errors"
	"testing"
)

func TestDelta(t *testing.T) {
	before := ServerStats{Protocols: map[string]ProtocolCounters{"h1": {Requests: 5, BodyBytesSent: 100}}, Resets: 1}
	after := ServerStats{Protocols: map[string]ProtocolCounters{"h1": {Requests: 7, BodyBytesSent: 300}}, Resets: 1}
	d, err := after.Delta(before)
	if err != nil || d.Protocols["h1"].Requests != 2 || d.Protocols["h1"].BodyBytesSent != 200 || d.Resets != 0 {
		t.Fatalf("Delta = %+v, %v", d, err)
	}
	reset := after
	reset.Resets = 2
	if _, err := reset.Delta(before); !errors.Is(err, errCountersReset) {
		t.Fatalf("across a generation: %v, want errCountersReset", err)
	}
	// A server that reports no generation: a counter going backwards.
	old := ServerStats{Protocols: map[string]ProtocolCounters{"h1": {Requests: 1}}, Resets: 1}
	if _, err := old.Delta(before); !errors.Is(err, errCountersReset) {
		t.Fatalf("counters going backwards: %v, want errCountersReset", err)
	}
	// A write counted before it failed, taken back after the first
	// snapshot (h2c), while h1 went on: no reset, no bytes sent over h2c.
	before.Protocols["h2c"] = ProtocolCounters{Requests: 3, BodyBytesSent: 2, BodyWrites: 1}
	after.Protocols["h2c"] = ProtocolCounters{Requests: 3, BodyBytesSent: 0, BodyWrites: 1, Aborted: 1}
	d, err = after.Delta(before)
	if err != nil || d.Protocols["h2c"].BodyBytesSent != 0 || d.Protocols["h2c"].Aborted != 1 || d.Protocols["h1"].BodyBytesSent != 200 {
		t.Fatalf("a failed write taken back: Delta = %+v, %v; want no error, h2c 0 bytes and 1 aborted, h1 200 bytes", d, err)
	}
}
