package wire

import (
	"reflect"
	"testing"
)

// FuzzFrameParser feeds arbitrary bytes, as a client of `httpvs serve`
// may send them, to a server's read parser and to a client's write parser,
// once whole and once cut at the fuzzer's split points. The parser must
// not panic, and where the cuts fall must not change what it counts.
func FuzzFrameParser(f *testing.F) {
	f.Add([]byte(h2Preface+h2Frame(4, 0, 0, "")+h2Frame(1, 4, 1, "abc")+h2Frame(0, 1, 1, "hello")), uint8(3))
	f.Add([]byte(h2Preface+h2Frame(8, 0, 0, "\x00\x00\x10\x00")+h2Frame(4, 0, 0, "\x00\x04\x00\x00\xff\xff")), uint8(1))
	f.Add([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), uint8(7))
	f.Add([]byte(h2Preface+"\xff\xff\xff\x00\x00\x00\x00\x00\x01"), uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, step uint8) {
		for _, client := range []bool{false, true} {
			whole := count(b, client, len(b)+1)
			cut := count(b, client, int(step%17)+1)
			if !reflect.DeepEqual(whole, cut) {
				t.Fatalf("client=%v: fed whole %+v, fed in pieces of %d %+v", client, whole, step%17+1, cut)
			}
		}
	})
}

// count feeds b in pieces of at most step bytes to the parser that reads
// the peer's frames (the server's read side, or the client's write side)
// and returns the frame counts, flow-control time left out.
func count(b []byte, client bool, step int) [2]map[string]int64 {
	var c H2Counters
	read, write := newFrameParsers(&c, client)
	p := read
	if client {
		p = write
	}
	for len(b) > 0 {
		n := min(step, len(b))
		p.feed(b[:n])
		b = b[n:]
	}
	s := c.Snapshot()
	sent, recv := s.Sent.Frames, s.Received.Frames
	sent["data_bytes"], recv["data_bytes"] = s.Sent.DataBytes, s.Received.DataBytes
	sent["conns"] = s.Connections
	return [2]map[string]int64{sent, recv}
}
