package netem

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/internal/attribution"
)

// delayLine is the most packets one direction holds between their arrival
// and their due time (the "wire"); more are dropped and counted as
// Overflow. 32768 full-size packets are 390 ms at 1 Gbit/s.
const delayLine = 32768

// earlySlack is how early the ferry writes a packet rather than sleep for
// a shorter time than a timer can keep: due times come from the model, so
// writing early never accumulates.
const earlySlack = 50 * time.Microsecond

// lateAfter is how late a packet must be written to count as Late.
const lateAfter = time.Millisecond

// DirStats counts what one direction of a link did; packets and bytes are
// IP packets as read from the sending TUN device.
type DirStats struct {
	// Packets is the number of packets that entered the direction.
	Packets int64
	// Bytes is their total size in bytes.
	Bytes int64
	// Lost is the number of packets the loss model dropped.
	Lost int64
	// QueueDrops is the number of packets the drop-tail queue dropped.
	QueueDrops int64
	// Overflow is the number of packets dropped because the ferry's delay
	// line was full: the emulator, not the model, lost them.
	Overflow int64
	// Delivered is the number of packets written to the receiving TUN.
	Delivered int64
	// Late is the number of packets written more than 1 ms after their due
	// time: the emulator could not keep up (busy CPU or its ceiling).
	Late int64
	// MaxLate is the latest a packet was written after its due time.
	MaxLate time.Duration
	// Largest is the size of the largest packet seen, in bytes: at most
	// MTU when no offload merged packets.
	Largest int64
}

type packet struct {
	buf *[]byte
	n   int
	due time.Duration
}

// ferry moves packets one way: a reader goroutine applies the model and
// puts packets on the delay line, a writer goroutine writes each at its
// due time.
type ferry struct {
	from, to *os.File
	sh       *shaper
	epoch    time.Time
	line     chan packet
	done     chan struct{}
	pool     sync.Pool

	packets, bytes, lost, queueDrops, overflow, delivered, late, maxLate, largest atomic.Int64
}

func newFerry(from, to *os.File, d Direction, seed uint64, epoch time.Time, done chan struct{}) *ferry {
	f := &ferry{from: from, to: to, sh: newShaper(d, seed), epoch: epoch, line: make(chan packet, delayLine), done: done}
	f.pool.New = func() any { b := make([]byte, mtu+512); return &b }
	return f
}

// start runs the two goroutines, labelled attribution.EmulatorLabel (value
// "ferry"), so that a CPU profile of the process that runs the link can
// leave the emulator's own work out of the client's; wg is done when both
// have returned.
func (f *ferry) start(wg *sync.WaitGroup) {
	wg.Add(2)
	labels := pprof.Labels(attribution.EmulatorLabel, "ferry")
	go pprof.Do(context.Background(), labels, func(context.Context) { defer wg.Done(); f.read() })
	go pprof.Do(context.Background(), labels, func(context.Context) { defer wg.Done(); f.write() })
}

// read loops until the sending device is closed.
func (f *ferry) read() {
	for {
		buf := f.pool.Get().(*[]byte)
		n, err := f.from.Read(*buf)
		if err != nil {
			f.pool.Put(buf)
			if errors.Is(err, os.ErrClosed) || errors.Is(err, io.EOF) || f.closed() {
				return
			}
			continue // a transient error (EAGAIN is handled by the poller)
		}
		f.packets.Add(1)
		f.bytes.Add(int64(n))
		if int64(n) > f.largest.Load() {
			f.largest.Store(int64(n)) // only this goroutine stores
		}
		due, v := f.sh.admit(time.Since(f.epoch), n)
		switch v {
		case lost:
			f.lost.Add(1)
		case queueFull:
			f.queueDrops.Add(1)
		}
		if v != pass {
			f.pool.Put(buf)
			continue
		}
		select {
		case f.line <- packet{buf: buf, n: n, due: due}:
		default:
			f.overflow.Add(1)
			f.pool.Put(buf)
		}
	}
}

// write loops until the link closes.
func (f *ferry) write() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	wake := newAlarm()
	defer wake.close()
	for {
		var p packet
		select {
		case p = <-f.line:
		case <-f.done:
			return
		}
		if !f.waitUntil(p.due, timer, wake) {
			return
		}
		if late := time.Since(f.epoch) - p.due; late > lateAfter {
			f.late.Add(1)
			if late > time.Duration(f.maxLate.Load()) {
				f.maxLate.Store(int64(late))
			}
		}
		_, err := f.to.Write((*p.buf)[:p.n])
		f.pool.Put(p.buf)
		if err == nil {
			f.delivered.Add(1)
		} else if errors.Is(err, os.ErrClosed) {
			return
		}
	}
}

// waitUntil returns at due (less earlySlack), or false if the link closed
// first, waiting on timer, with wake set to go off just after it.
func (f *ferry) waitUntil(due time.Duration, timer *time.Timer, wake *alarm) bool {
	wait := due - time.Since(f.epoch)
	if wait <= earlySlack {
		return true
	}
	timer.Reset(wait)
	wake.set(wait + alarmLag)
	select {
	case <-timer.C:
		return true
	case <-f.done:
		return false
	}
}

func (f *ferry) closed() bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

func (f *ferry) stats() DirStats {
	return DirStats{
		Packets: f.packets.Load(), Bytes: f.bytes.Load(), Lost: f.lost.Load(),
		QueueDrops: f.queueDrops.Load(), Overflow: f.overflow.Load(),
		Delivered: f.delivered.Load(), Late: f.late.Load(), MaxLate: time.Duration(f.maxLate.Load()), Largest: f.largest.Load(),
	}
}

// reset returns the counters so far and starts them again from zero.
func (f *ferry) reset() DirStats {
	return DirStats{
		Packets: f.packets.Swap(0), Bytes: f.bytes.Swap(0), Lost: f.lost.Swap(0),
		QueueDrops: f.queueDrops.Swap(0), Overflow: f.overflow.Swap(0),
		Delivered: f.delivered.Swap(0), Late: f.late.Swap(0), MaxLate: time.Duration(f.maxLate.Swap(0)), Largest: f.largest.Swap(0),
	}
}

// Add returns the counters of s and o together, as if one phase had
// counted both: counts add, MaxLate and Largest are the larger.
func (s DirStats) Add(o DirStats) DirStats {
	return DirStats{
		Packets: s.Packets + o.Packets, Bytes: s.Bytes + o.Bytes, Lost: s.Lost + o.Lost,
		QueueDrops: s.QueueDrops + o.QueueDrops, Overflow: s.Overflow + o.Overflow,
		Delivered: s.Delivered + o.Delivered, Late: s.Late + o.Late,
		MaxLate: max(s.MaxLate, o.MaxLate), Largest: max(s.Largest, o.Largest),
	}
}
