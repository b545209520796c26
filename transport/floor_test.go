package transport

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
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
// reads is dropped once the grace period has passed (and every later
// write fails, whoever reads), and a deadline the user set still holds.
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
			var again error
			if tc.wantSlow {
				// Dropped: a later write fails though the peer now reads
				// (TLS's close_notify would otherwise wait on it).
				if tc.step == 0 {
					pipeReader(client, 500, time.Millisecond, 1, stop)
				}
				_, again = c.Write([]byte("x"))
			}
			close(stop)
			server.Close()
			<-done
			switch {
			case tc.wantSlow:
				var ne net.Error
				if !errors.Is(err, ErrTooSlow) || !errors.As(err, &ne) || !ne.Timeout() || took < grace {
					t.Fatalf("Write = %d, %v after %v; want ErrTooSlow, a timeout, after the %v grace", n, err, took, grace)
				}
				if !errors.Is(again, ErrTooSlow) {
					t.Fatalf("a write after the drop: %v, want ErrTooSlow", again)
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
	if r, on := (MinDataRate{}).resolved(); !on || r.BytesPerSecond != defaults.MinDataRate || r.Grace != defaults.MinDataRateGrace {
		t.Fatalf("zero value resolves to %+v, %v", r, on)
	}
	if _, on := (MinDataRate{BytesPerSecond: -1}).resolved(); on {
		t.Fatal("a negative rate is not off")
	}
	if s := (MinDataRate{}).String(); s != "240 B/s after 5s" {
		t.Fatalf("String = %q", s)
	}
}

// deadlineCounter counts the write deadlines set on its connection.
type deadlineCounter struct {
	net.Conn
	sets int
}

func (c *deadlineCounter) SetWriteDeadline(t time.Time) error {
	c.sets++
	return c.Conn.SetWriteDeadline(t)
}

// TestFloorConnArmsNotPerWrite: 20,000 small writes to a reader that
// keeps up set the write deadline once per half window they span, not
// once per write: the floor's cost per write is a clock read, an atomic
// load and a lock.
func TestFloorConnArmsNotPerWrite(t *testing.T) {
	server, client := net.Pipe()
	defer client.Close()
	counted := &deadlineCounter{Conn: server}
	grace := 10 * time.Second
	c := &floorConn{Conn: counted, rate: 240, grace: grace, window: floorWindow(grace)}
	defer c.Close()
	stop := make(chan struct{})
	defer close(stop)
	const writes, size = 20_000, 100
	done := pipeReader(client, 64<<10, 0, writes*size, stop)
	start := time.Now()
	p := make([]byte, size)
	for i := range writes {
		if _, err := c.Write(p); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	spanned := time.Since(start)
	<-done
	if most := 1 + int(spanned/(c.window/2)); counted.sets > most {
		t.Fatalf("%d write deadlines set for %d writes over %v; want at most %d, one per half window of %v",
			counted.sets, writes, spanned, most, c.window)
	}
}
