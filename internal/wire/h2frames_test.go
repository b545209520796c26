package wire

import (
	"strings"
	"testing"
	"time"
)

func TestFrameParserSplitsAnywhere(t *testing.T) {
	// A client's stream: preface, SETTINGS (0 bytes), HEADERS (3), DATA (5),
	// fed one byte at a time.
	stream := h2Preface +
		"\x00\x00\x00\x04\x00\x00\x00\x00\x00" +
		"\x00\x00\x03\x01\x04\x00\x00\x00\x01abc" +
		"\x00\x00\x05\x00\x01\x00\x00\x00\x01hello"
	var c H2Counters
	_, w := newFrameParsers(&c, true)
	for i := 0; i < len(stream); i++ {
		w.feed([]byte{stream[i]})
	}
	got := c.Snapshot().Sent
	if got.Frames["settings"] != 1 || got.Frames["headers"] != 1 || got.Frames["data"] != 1 || got.DataBytes != 5 || c.conns.Load() != 1 {
		t.Fatalf("counted %+v, %d connections", got, c.conns.Load())
	}
}

// h2Frame builds one frame.
func h2Frame(typ, flags byte, id uint32, payload string) string {
	n := len(payload)
	return string([]byte{byte(n >> 16), byte(n >> 8), byte(n), typ, flags, byte(id >> 24), byte(id >> 16), byte(id >> 8), byte(id)}) + payload
}

// TestFlowBlockedTime follows a client's windows from synthetic frames:
// a stream window used up by DATA is blocked until WINDOW_UPDATE reopens
// it; DATA that ends its stream on the last byte of window is not.
func TestFlowBlockedTime(t *testing.T) {
	var c H2Counters
	r, w := newFrameParsers(&c, true)
	w.feed([]byte(h2Preface))
	// The server allows 10-byte stream windows.
	r.feed([]byte(h2Frame(frameSettings, 0, 0, "\x00\x04\x00\x00\x00\x0a")))
	w.feed([]byte(h2Frame(frameData, flagEndStream, 1, "0123456789"))) // ends: not blocked
	w.feed([]byte(h2Frame(frameData, 0, 3, "0123456789")))             // window used up
	time.Sleep(50 * time.Millisecond)
	if got := c.Snapshot().Sent.FlowBlockedSeconds; got != 0 {
		t.Fatalf("blocked %v s before the interval ended, want 0", got)
	}
	r.feed([]byte(h2Frame(frameWindowUpdate, 0, 3, "\x00\x00\x00\x05"))) // reopened
	blocked := c.Snapshot().Sent.FlowBlockedSeconds
	if blocked < 0.05 || blocked > 5 {
		t.Fatalf("blocked %v s, want about 0.05", blocked)
	}
	// A SETTINGS change reopens too: 5 more bytes use the window up again,
	// a larger initial window gives every open stream the difference.
	w.feed([]byte(h2Frame(frameData, 0, 3, "01234")))
	time.Sleep(20 * time.Millisecond)
	r.feed([]byte(h2Frame(frameSettings, 0, 0, "\x00\x04\x00\x00\x00\x14")))
	again := c.Snapshot().Sent.FlowBlockedSeconds
	if again-blocked < 0.02 {
		t.Fatalf("blocked %v s more after SETTINGS, want about 0.02", again-blocked)
	}
	// RST_STREAM forgets a blocked stream; the connection window is
	// another limit: 65,535 bytes less the 25 sent.
	w.feed([]byte(h2Frame(frameData, 0, 3, strings.Repeat("x", 20))))
	r.feed([]byte(h2Frame(frameRSTStream, 0, 3, "\x00\x00\x00\x08")))
	if c.Snapshot().Sent.FlowBlockedSeconds <= again {
		t.Fatal("RST_STREAM did not end the blocked interval")
	}
	if len(w.flow.dir[0].streams) != 0 || w.flow.dir[0].blocked != 0 || w.flow.dir[0].conn != 65535-45 {
		t.Fatalf("flow state after reset: %+v", w.flow.dir[0])
	}
	if got := c.Snapshot().Received.FlowBlockedSeconds; got != 0 {
		t.Fatalf("the server's DATA was blocked %v s; it sent none", got)
	}
}
