package transport

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// makeBulk sends 96 KiB from peer and reads them through c in one
// Read once they are all in c's socket: that Read finds batchMin bytes
// waiting, so c's next large Read batches.
func makeBulk(t *testing.T, c *blockingConn, peer net.Conn) {
	t.Helper()
	const size = 96 << 10 // within a new connection's receive window
	if _, err := peer.Write(pattern(size)); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		n, err := unix.IoctlGetInt(c.fd, unix.SIOCINQ)
		if err != nil {
			t.Fatal(err)
		}
		if n == size {
			break
		}
		if i == 500 {
			t.Fatalf("%d of %d bytes arrived in 5s", n, size)
		}
		time.Sleep(10 * time.Millisecond)
	}
	buf := make([]byte, 256<<10)
	if n, err := c.Read(buf); err != nil || !bytes.Equal(buf[:n], pattern(size)) {
		t.Fatalf("Read: %d bytes, %v; want the %d sent", n, err, size)
	}
	if !c.bulk.Load() {
		t.Fatalf("a Read of %d bytes left the connection unbatched", size)
	}
}

// TestBlockingConnBatchesBulk checks that Reads batch once data piles up,
// and that a batched Read returns what came when less than its batch
// comes: the bytes a peer sent and no more, without waiting for others.
func TestBlockingConnBatchesBulk(t *testing.T) {
	c, peer := blockingPair(t)
	makeBulk(t, c, peer)
	before := c.waits.Snapshot()
	if _, err := peer.Write([]byte("short")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	n, err := c.Read(buf)
	if err != nil || string(buf[:n]) != "short" {
		t.Fatalf("batched Read: %q, %v; want the 5 bytes sent", buf[:n], err)
	}
	w := c.waits.Snapshot()
	if w.Batched != before.Batched+1 || w.Stalled != before.Stalled {
		t.Fatalf("waits %+v after %+v: want one more batched wait and no stall", w, before)
	}
	if c.bulk.Load() {
		t.Fatal("a Read of 5 bytes left the connection batching")
	}
	// Unbatched again, a Read takes what is there.
	peer.Write([]byte("x"))
	if n, err := c.Read(buf); err != nil || n != 1 {
		t.Fatalf("Read: %d, %v", n, err)
	}
	if w2 := c.waits.Snapshot(); w2.Batched != w.Batched {
		t.Fatalf("waits %+v: a Read after a short one batched", w2)
	}
	checkWaitCounts(t, c.waits.Snapshot())
}

// TestBlockingConnBatchStalls checks that a batched Read that finds
// nothing within batchStall stops batching and waits for the data as an
// unbatched Read does, however long it takes.
func TestBlockingConnBatchStalls(t *testing.T) {
	c, peer := blockingPair(t)
	makeBulk(t, c, peer)
	before := c.waits.Snapshot()
	go func() {
		time.Sleep(100 * time.Millisecond) // far past batchStall
		peer.Write([]byte("late"))
		peer.(*net.TCPConn).CloseWrite()
	}()
	buf := make([]byte, 1<<20)
	n, err := c.Read(buf)
	if err != nil || string(buf[:n]) != "late" {
		t.Fatalf("read %q, %v; want \"late\"", buf[:n], err)
	}
	if n, err := c.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read after the peer's FIN: %d, %v; want EOF", n, err)
	}
	w := c.waits.Snapshot()
	if w.Stalled != before.Stalled+1 || w.Batched != before.Batched+1 {
		t.Fatalf("waits %+v after %+v: want one batched wait, stalled", w, before)
	}
	checkWaitCounts(t, w)
}

// TestBlockingConnBatchDeadline checks that a deadline sooner than
// batchStall's bound still ends a batched Read as a timeout.
func TestBlockingConnBatchDeadline(t *testing.T) {
	c, peer := blockingPair(t)
	makeBulk(t, c, peer)
	c.SetReadDeadline(time.Now().Add(-time.Second))
	if _, err := c.Read(make([]byte, 1<<20)); !isTimeout(err) {
		t.Fatalf("batched Read past its deadline: %v, want a timeout", err)
	}
	c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := c.Read(make([]byte, 1<<20)); !isTimeout(err) {
		t.Fatalf("batched Read with nothing to come: %v, want a timeout", err)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
