package transport

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// pipeReader reads step bytes from c every every, until it fails, has
// read limit bytes or stop closes; done closes when it stops. With step 0
// it reads nothing and waits for stop.
func pipeReader(c net.Conn, step int, every time.Duration, limit int, stop <-chan struct{}) (done chan struct{}) {
	done = make(chan struct{})
	go func() {
		defer close(done)
		if step == 0 {
			<-stop
			return
		}
		buf := make([]byte, step)
		for read := 0; read < limit; {
			n, err := c.Read(buf)
			read += n
			if err != nil {
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(every):
			}
		}
	}()
	return done
}

// TestFloorConnWrite holds writes to the floor over a pipe (a Write on it
// blocks until the reader has taken every byte, as a full socket does):
// a reader above the floor gets everything, one under it or one that never
// reads is dropped once the grace period has passed, and a deadline the
// user set still holds.
func TestFloorConnWrite(t *testing.T) {
	const grace = 300 * time.Millisecond
	cases := []struct {
		name     string
		step     int // bytes the reader takes each 20 ms; 0: never reads
		user     time.Duration
		wantSlow bool
		wantUser bool
	}{
		{name: "above the floor: 25,000 B/s", step: 500},
		{name: "under the floor: 100 B/s", step: 2, wantSlow: true},
		{name: "never reads", step: 0, wantSlow: true},
		{name: "the user's deadline first", step: 0, user: 100 * time.Millisecond, wantUser: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			server, client := net.Pipe()
			defer client.Close()
			defer server.Close()
			c := &floorConn{Conn: server, rate: 240, grace: grace, window: floorWindow(grace)}
			if tc.user > 0 {
				if err := c.SetWriteDeadline(time.Now().Add(tc.user)); err != nil {
					t.Fatal(err)
				}
			}
			const size = 2000
			stop := make(chan struct{})
			done := pipeReader(client, tc.step, 50*time.Millisecond, size, stop)
			began := time.Now()
			n, err := c.Write(make([]byte, size))
			took := time.Since(began)
			close(stop)
			server.Close()
			<-done
			switch {
			case tc.wantSlow:
				var ne net.Error
				if !errors.Is(err, ErrTooSlow) || !errors.As(err, &ne) || !ne.Timeout() || took < grace {
					t.Fatalf("Write = %d, %v after %v; want ErrTooSlow, a timeout, after the %v grace", n, err, took, grace)
				}
			case tc.wantUser:
				if !errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, ErrTooSlow) {
					t.Fatalf("Write = %d, %v; want the user's deadline exceeded", n, err)
				}
			default:
				if err != nil || n != size {
					t.Fatalf("Write = %d, %v; want %d bytes", n, err, size)
				}
			}
		})
	}
}

func TestMinDataRateResolved(t *testing.T) {
	if r, on := (MinDataRate{}).Resolved(); !on || r.BytesPerSecond != DefaultMinDataRate || r.Grace != DefaultMinDataRateGrace {
		t.Fatalf("zero value resolves to %+v, %v", r, on)
	}
	if _, on := (MinDataRate{BytesPerSecond: -1}).Resolved(); on {
		t.Fatal("a negative rate is not off")
	}
	if s := (MinDataRate{}).String(); s != "240 B/s after 5s" {
		t.Fatalf("String = %q", s)
	}
}
