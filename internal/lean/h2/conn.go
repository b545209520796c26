package h2

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// h2Conn is one HTTP/2 connection: writers share the framer under wmu,
// one goroutine reads. A connection runs one concurrency model, fixed when
// it is dialed: streams on their own goroutines with a reader goroutine
// (loop == nil: readLoop), or a Loop that reads and starts requests from
// one goroutine (h2Loop.runLoop); frames are handled by the same methods
// either way.
type h2Conn struct {
	p     *Client
	conn  net.Conn
	br    *bufio.Reader
	reads *readCounter // under br
	loop  *h2Loop      // nil unless a Loop drives the connection

	wmu     sync.Mutex
	pending atomic.Int32 // writers holding or waiting for wmu
	bw      *bufio.Writer
	fr      *http2.Framer

	mu          sync.Mutex
	cond        *sync.Cond // signalled when streams end, windows open or the connection dies
	streams     map[uint32]*Stream
	nextID      uint32
	active      uint32
	maxStreams  uint32
	peerMaxData uint32 // the server's SETTINGS_MAX_FRAME_SIZE
	peerInitWin int64  // the server's SETTINGS_INITIAL_WINDOW_SIZE
	sendWin     int64  // connection-level send window
	goingAway   bool
	err         error
	indexed     bool   // the first indexed header block has been sent
	plainOnly   bool   // the server's HPACK table is too small: plain blocks only
	cutBlock    []byte // the next block, saying so

	// Reader goroutine only.
	recvUnacked  uint32 // connection bytes not yet returned
	dec          *hpack.Decoder
	hdrStream    uint32 // stream whose header block is being read; 0 if none
	hdrEndStream bool   // that block's HEADERS frame ended the stream
	hdrStatus    int    // :status decoded from it so far
	lastBlock    []byte // the last header block, if sameBlock
	lastStatus   int    // the :status it gave
	sameBlock    bool   // lastBlock was whole and left the HPACK table as it was
}

// newH2Conn sends the preface and settings on conn; start starts its
// reader.
func newH2Conn(p *Client, conn net.Conn, loop *h2Loop) (*h2Conn, error) {
	hc := &h2Conn{
		p: p, conn: conn, loop: loop,
		reads:       &readCounter{r: conn},
		bw:          bufio.NewWriterSize(conn, 64<<10),
		streams:     make(map[uint32]*Stream),
		nextID:      1,
		maxStreams:  100, // until the server's SETTINGS say otherwise
		peerMaxData: 16 << 10,
		peerInitWin: 65535,
		sendWin:     65535,
	}
	hc.cond = sync.NewCond(&hc.mu)
	hc.br = bufio.NewReaderSize(hc.reads, target.ReadBuffer)
	hc.fr = http2.NewFramer(hc.bw, hc.br)
	hc.fr.SetReuseFrames()
	hc.fr.SetMaxReadFrameSize(p.maxFrame)
	// Header blocks are decoded here rather than by the framer's
	// ReadMetaHeaders, which allocates a frame and a field slice per
	// response: only :status is kept.
	hc.dec = hpack.NewDecoder(4096, func(f hpack.HeaderField) {
		if f.Name == ":status" && hc.hdrStatus == 0 {
			hc.hdrStatus, _ = strconv.Atoi(f.Value)
		}
	})
	hc.dec.SetMaxStringLength(16 << 20)

	if _, err := hc.bw.WriteString(http2.ClientPreface); err != nil {
		return nil, err
	}
	err := hc.fr.WriteSettings(
		http2.Setting{ID: http2.SettingEnablePush, Val: 0},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: p.streamWindow},
		http2.Setting{ID: http2.SettingMaxFrameSize, Val: p.maxFrame},
	)
	if err == nil && p.connWindow > 65535 {
		err = hc.fr.WriteWindowUpdate(0, p.connWindow-65535)
	}
	if err == nil {
		err = hc.bw.Flush()
	}
	if err != nil {
		return nil, err
	}
	return hc, nil
}

// start starts the connection's reader.
func (hc *h2Conn) start() {
	if hc.loop != nil {
		go hc.runLoop()
	} else {
		go hc.readLoop()
	}
}

// readCounter counts the reads of the connection, so that a loop reads
// the clock once per read rather than once per frame.
type readCounter struct {
	r io.Reader
	n int
}

func (rc *readCounter) Read(p []byte) (int, error) {
	rc.n++
	return rc.r.Read(p)
}

// unusableErr says why no new stream may start; hc.mu must be held.
func (hc *h2Conn) unusableErr() error {
	switch {
	case hc.err != nil:
		return hc.err
	case hc.goingAway:
		return target.ErrGoAway
	}
	return nil
}

func (hc *h2Conn) usable() bool {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	return hc.err == nil && !hc.goingAway && hc.nextID < 1<<31-1
}

// fail ends the connection and every stream on it with err.
func (hc *h2Conn) fail(err error) {
	hc.mu.Lock()
	if hc.err == nil {
		hc.err = err
		for id, s := range hc.streams {
			s.finish(err)
			delete(hc.streams, id)
		}
		hc.active = 0
	}
	hc.cond.Broadcast()
	hc.mu.Unlock()
	hc.conn.Close()
}

// lockWrite takes the write lock. Writers queue their frames in the
// buffer; unlockWrite flushes only when no other writer waits, so frames
// written at the same time (many streams' HEADERS) leave in one system
// call, as an event-loop client's would.
func (hc *h2Conn) lockWrite() {
	hc.pending.Add(1)
	hc.wmu.Lock()
}

// unlockWrite releases the write lock, flushing if this writer is the last
// of its burst. A failed write or flush fails the connection.
func (hc *h2Conn) unlockWrite(err error) error {
	if hc.pending.Add(-1) == 0 && err == nil {
		err = hc.bw.Flush()
	}
	hc.wmu.Unlock()
	if err != nil {
		go hc.fail(err)
	}
	return err
}

func (hc *h2Conn) write(fn func(*http2.Framer) error) error {
	hc.lockWrite()
	return hc.unlockWrite(fn(hc.fr))
}

func (hc *h2Conn) readLoop() {
	for {
		f, err := hc.fr.ReadFrame()
		if err != nil {
			hc.fail(target.EOFIsReset(err))
			return
		}
		if err := hc.handle(f); err != nil {
			hc.fail(err)
			return
		}
	}
}
