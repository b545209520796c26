package h3

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"

	"github.com/quic-go/quic-go"
)

// TestLeanH3Batch: requests queued while another stream is about to write
// a batch are written by it, each answered on its own stream; one whose
// stream can no longer send fails with that stream's write error, and
// its Read ends; one taken out of the batch before it is written is never
// sent.
func TestLeanH3Batch(t *testing.T) {
	var answered atomic.Int64
	f := newFakeH3(t, func(c *fakeConn, str *quic.Stream) {
		answered.Add(1)
		str.Write(fakeOK)
		str.Close()
	})
	c := f.client(t)
	ctx := context.Background()
	hc, err := c.get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var streams [4]*Stream
	var strs [4]*quic.Stream
	for i := range streams {
		streams[i] = c.NewStream(ctx)
		if strs[i], err = hc.qc.OpenStream(); err != nil {
			t.Fatal(err)
		}
	}
	hc.batch.flushing = true // as if a stream were yielding before it writes the batch
	for i := range 3 {
		if err := hc.batch.send(streams[i], strs[i]); err != nil {
			t.Fatalf("queueing request %d: %v", i, err)
		}
	}
	strs[1].CancelWrite(h3RequestCancelled) // request 1 cannot be sent
	cause := errors.New("its timeout")
	if err := hc.batch.unqueue(streams[2], cause); err != cause {
		t.Fatalf("request 2 taken out of the batch: %v, want its own error", err)
	}
	if len(hc.batch.pending) != 2 {
		t.Fatalf("%d requests queued, want 2", len(hc.batch.pending))
	}
	hc.batch.flushing = false
	if err := hc.batch.send(streams[3], strs[3]); err != nil { // writes 0, 1 and 3
		t.Fatalf("writing the batch: %v", err)
	}
	for _, i := range []int{0, 3} {
		if got, err := io.ReadAll(strs[i]); err != nil || string(got) != string(fakeOK) {
			t.Fatalf("request %d: read %q, %v; want the answer", i, got, err)
		}
	}
	if _, err := io.ReadAll(strs[1]); err == nil {
		t.Fatal("request 1's Read ended without an error")
	}
	if err := hc.batch.unqueue(streams[1], cause); err == cause || err == nil {
		t.Fatalf("request 1: %v, want the error writing it met", err)
	}
	if n := answered.Load(); n != 2 {
		t.Fatalf("the server answered %d requests, want 2", n)
	}
	if len(hc.batch.pending) != 0 || hc.batch.flushing {
		t.Fatalf("after the batch: %d queued, flushing %v", len(hc.batch.pending), hc.batch.flushing)
	}
}
