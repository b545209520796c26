package wire

import (
	"sync"
	"time"
)

// h2Flow follows the HTTP/2 flow-control windows of one connection from
// the frames its two parsers see, and times how long each direction's
// DATA sender had no window to send in: from the DATA frame that used a
// window up (connection's, or an open stream's) to the WINDOW_UPDATE or
// SETTINGS that reopened it. Intervals are added to the direction's
// counter when they end.
//
// Direction 0 is DATA this end writes (windows the peer grants in frames
// this end reads), direction 1 DATA this end reads.
type h2Flow struct {
	mu  sync.Mutex
	dir [2]flowDir
}

// flowDir is one direction's windows, as its receiver granted them.
type flowDir struct {
	counter *h2Counter // where blocked time goes
	initial int64      // the receiver's SETTINGS_INITIAL_WINDOW_SIZE
	conn    int64      // connection window left
	streams map[uint32]int64
	blocked int // open streams with no window left
	since   time.Time
}

func newH2Flow(write, read *h2Counter) *h2Flow {
	f := &h2Flow{}
	for i, c := range []*h2Counter{write, read} {
		f.dir[i] = flowDir{counter: c, initial: 65535, conn: 65535, streams: map[uint32]int64{}}
	}
	return f
}

// stalled says whether the direction's sender can send no DATA at all
// (connection window) or not on some open stream.
func (d *flowDir) stalled() bool { return d.conn <= 0 || d.blocked > 0 }

// change runs fn on d and starts or ends a blocked interval.
func (f *h2Flow) change(d *flowDir, fn func()) {
	was := d.stalled()
	fn()
	switch now := d.stalled(); {
	case !was && now:
		d.since = time.Now()
	case was && !now:
		d.counter.flowBlocked.Add(int64(time.Since(d.since)))
	}
}

// setStream sets a stream's window, keeping the blocked count.
func (d *flowDir) setStream(id uint32, w int64, open bool) {
	old, had := d.streams[id]
	if had && old <= 0 {
		d.blocked--
	}
	if !open {
		delete(d.streams, id)
		return
	}
	d.streams[id] = w
	if w <= 0 {
		d.blocked++
	}
}

// data is a DATA frame of length bytes sent in direction i.
func (f *h2Flow) data(i int, id uint32, length int64, endStream bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := &f.dir[i]
	f.change(d, func() {
		d.conn -= length
		w, ok := d.streams[id]
		if !ok {
			w = d.initial
		}
		d.setStream(id, w-length, !endStream)
	})
}

// closed is a stream's sender in direction i done with DATA: END_STREAM
// on HEADERS, or RST_STREAM (both directions).
func (f *h2Flow) closed(i int, id uint32) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := &f.dir[i]
	if _, ok := d.streams[id]; ok {
		f.change(d, func() { d.setStream(id, 0, false) })
	}
}

// windowUpdate is a WINDOW_UPDATE granting direction i more window.
func (f *h2Flow) windowUpdate(i int, id uint32, inc int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := &f.dir[i]
	f.change(d, func() {
		if id == 0 {
			d.conn += inc
		} else if w, ok := d.streams[id]; ok {
			d.setStream(id, w+inc, true)
		}
	})
}

// initialWindow is SETTINGS_INITIAL_WINDOW_SIZE for direction i: open
// streams' windows move by the difference.
func (f *h2Flow) initialWindow(i int, v int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := &f.dir[i]
	delta := v - d.initial
	d.initial = v
	f.change(d, func() {
		for id, w := range d.streams {
			d.setStream(id, w+delta, true)
		}
	})
}
